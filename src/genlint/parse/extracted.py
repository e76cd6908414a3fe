"""Step 3: a JSON fragment inside chatty text; the first acceptable one is the answer.

json-repair, given a reply with several JSON objects, keeps the last; a judge that writes a
draft and then "the final answer is…" is handled by reasoning blocks, while a reply listing the
answer first and examples after it needs the first. Each fragment is tried strictly, then with
full-width syntax normalised, then repaired.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .budget import Deadline
from .candidates import find_candidates
from .direct import NotJSON, load_strict
from .repaired import RepairFailed, repair

Check = Callable[[Any], tuple[bool, Any, str]]


class NothingExtracted(ValueError):
    """No fragment gave an acceptable value; the message summarises why."""


def extract(text: str, check: Check, deadline: Deadline) -> tuple[Any, list[str]]:
    """``(accepted value, repairs)`` of the first acceptable fragment of ``text``."""
    candidates = find_candidates(text, deadline)
    if not candidates:
        raise NothingExtracted("no code fence or bracketed fragment in the text")
    reasons: list[str] = []
    tried = 0
    for candidate in candidates:
        if deadline.expired():
            reasons.append(
                f"time budget of {deadline.seconds:g} s used up after {tried} of "
                f"{len(candidates)} fragments"
            )
            break
        fragment = candidate.text_of(text)
        if fragment == text:
            continue  # the whole text was already tried by the direct and repaired steps
        tried += 1
        where = f"{candidate.source} at char {candidate.start}"
        value, notes, why = _load(fragment, deadline)
        if why:
            reasons.append(f"{where}: {why}")
            continue
        accepted, converted, why = check(value)
        if accepted:
            return converted, [
                f"took the fragment at chars {candidate.start}-{candidate.end}",
                *notes,
            ]
        reasons.append(f"{where}: {why}")
    raise NothingExtracted(_summary(reasons, tried))


def _load(fragment: str, deadline: Deadline) -> tuple[Any, list[str], str]:
    try:
        return load_strict(fragment), [], ""
    except NotJSON:
        pass
    try:
        value, notes = repair(fragment, deadline)
    except RepairFailed as exc:
        return None, [], str(exc)
    return value, notes, ""


def _summary(reasons: list[str], tried: int) -> str:
    if not reasons:
        return "no fragment besides the whole text"
    shown = "; ".join(reasons[:3])
    more = f" (and {len(reasons) - 3} more)" if len(reasons) > 3 else ""
    return f"{tried} fragment{'s' if tried != 1 else ''} tried: {shown}{more}"
