"""Step 3: a JSON fragment inside chatty text; the first acceptable one is the answer.

json-repair, given a reply with several JSON objects, keeps the last; a judge that writes a
draft and then "the final answer is…" is handled by reasoning blocks, while a reply listing the
answer first and examples after it needs the first. Each fragment is tried strictly, then with
full-width syntax normalised, then repaired.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from .budget import Deadline
from .candidates import Candidate, cut_in_reasoning, find_candidates, reasoning_spans
from .direct import NotJSON, load_strict
from .repaired import RepairFailed, repair
from .result import GUESS_NOTE

Check = Callable[[Any], tuple[bool, Any, str]]


class NothingExtracted(ValueError):
    """No fragment gave an acceptable value; the message summarises why."""


def extract(text: str, check: Check, deadline: Deadline) -> tuple[Any, list[str], str]:
    """``(accepted value, repairs, the text without the other values)`` of the first acceptable
    fragment of ``text``; the last is what the value must be measured against for lost data.

    Fragments are taken tier by tier (the answer, then citation-like brackets, then reasoning
    blocks), in order of position within a tier; each is parsed as written, else repaired when
    it looks like broken JSON. A slot in the prose (``{name}``, ``[Company Name]``) does not:
    json-repair would turn it into an object or array that wins over the answer after it.
    """
    candidates = [c for c in find_candidates(text, deadline) if c.text_of(text) != text]
    if not candidates:
        raise NothingExtracted("no code fence or bracketed fragment besides the whole text")
    reasons: list[str] = []
    cut_at = cut_in_reasoning(text)
    if cut_at is not None:
        # cut off while still reasoning: a draft in the open block is not the answer, whatever
        # it holds (docs/commands/parse.md "Reasoning blocks")
        inside = [c for c in candidates if c.start >= cut_at]
        if inside:
            reasons.append(
                f"the reply is cut off inside the reasoning block opened at char {cut_at}: "
                f"{len(inside)} draft fragment(s) there are not the answer"
            )
        candidates = [c for c in candidates if c.start < cut_at]
    for tried, candidate in enumerate(candidates):
        if deadline.expired():
            # Even a failing orjson call reads its whole input, so many long fragments add up.
            reasons.append(
                f"time budget of {deadline.seconds:g} s used up after {tried} of "
                f"{len(candidates)} fragments"
            )
            break
        fragment = candidate.text_of(text)
        notes: list[str] = []
        try:
            value = load_strict(fragment)
        except NotJSON:
            if not _worth_repairing(candidate, fragment):
                continue
            try:
                value, notes = repair(fragment, deadline)
            except RepairFailed as exc:
                reasons.append(f"{_where(candidate)}: {exc}")
                continue
        accepted, converted, why = check(value)
        if accepted:
            took = f"took the fragment at chars {candidate.start}-{candidate.end}"
            if candidate.tier >= 2 and text[_reasoning_end(text, candidate) :].strip():
                notes.append(
                    f"{GUESS_NOTE} that the draft in the reasoning block at char "
                    f"{candidate.start} is the answer: the text after the block holds no "
                    "acceptable value"
                )
            others = _other_values(text, candidates, candidate)
            if others:
                where = ", ".join(str(c.start) for c in others[:5])
                notes.append(
                    f"{GUESS_NOTE} that the first acceptable of {len(others) + 1} values is the "
                    f"answer (the others start at chars {where}{'…' if len(others) > 5 else ''})"
                )
            rest = text
            for other in reversed(others):
                rest = rest[: other.start] + rest[other.end :]
            return converted, [took, *notes], rest
        reasons.append(f"{_where(candidate)}: {why}")
    raise NothingExtracted(_summary(reasons, len(candidates)))


# What a broken JSON fragment starts with: a key or a closer after "{", a value after "[".
# A bracket at the very end (a reply cut right after it) counts as a start as well.
# A comment or a Python literal may come first: `{ // the verdict`, `[None, True]`.
_OBJECT_START = re.compile(r"""[{｛]\s*(?:["'“‘}｝]|[\w$-]+\s*[:：]|/[/*]|\Z)""")
_ARRAY_START = re.compile(
    r"""[\[［]\s*(?:["'“‘{｛\[［\]］\d+-]|\.\d|/[/*]|(?:true|false|null|True|False|None)\b|\Z)"""
)


def _worth_repairing(candidate: Candidate, fragment: str) -> bool:
    if candidate.source == "fence":
        return True
    return bool(_OBJECT_START.match(fragment) or _ARRAY_START.match(fragment))


_MAX_OTHERS = 20
# What separates the pieces of one document (not two values): commas and closers.
_SAME_DOCUMENT = re.compile(r"[\s\]}]*,[\s,]*")


def _reasoning_end(text: str, candidate: Candidate) -> int:
    """Where the reasoning block holding ``candidate`` ends."""
    return next((b for a, b in reasoning_spans(text) if a <= candidate.start < b), len(text))


def _other_values(text: str, candidates: list[Candidate], chosen: Candidate) -> list[Candidate]:
    """Values in the answer besides ``chosen``: outermost fragments outside it that are JSON.
    Citation markers in prose and reasoning drafts are not values of the answer."""
    others: list[Candidate] = []
    end = -1
    after = chosen.end  # where the last value after the chosen one ends
    for c in sorted((c for c in candidates if c.tier == 0), key=lambda c: (c.start, -c.end)):
        if c.start < end or (chosen.start <= c.start < chosen.end):
            continue
        if c.start >= chosen.end:
            if _SAME_DOCUMENT.fullmatch(text, after, c.start):
                break  # `}, {`: the rest of a broken document, not a value of its own
            after = c.end
        end = c.end
        try:
            load_strict(c.text_of(text))
        except NotJSON:
            continue  # a slot such as {key: value} in the prose, or broken: not counted
        others.append(c)
        if len(others) >= _MAX_OTHERS:
            break
    return others


def _where(candidate: Candidate) -> str:
    return f"{candidate.source} at char {candidate.start}"


def _summary(reasons: list[str], tried: int) -> str:
    if not reasons:
        return f"{tried} bracketed fragment{'s' if tried != 1 else ''} found, none looks like JSON"
    shown = "; ".join(reasons[:3])
    more = f" (and {len(reasons) - 3} more)" if len(reasons) > 3 else ""
    return f"{tried} fragment{'s' if tried != 1 else ''} found: {shown}{more}"
