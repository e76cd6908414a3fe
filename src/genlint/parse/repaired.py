"""Step 2: the reply is JSON with defects; json-repair fixes them, within a time bound."""

from __future__ import annotations

import logging
from typing import Any

import orjson

from . import cleanup, fullwidth
from .budget import Deadline
from .candidates import value_then_more
from .closing import close_truncated, open_at_end
from .completeness import loss_note, size
from .direct import NotJSON, load_strict
from .guesses import reply_cut_note, string_guesses
from .guided import guided_repair
from .result import GUESS_NOTE, TRUNCATED_NOTE
from .strings import protect, requote, restore

logger = logging.getLogger(__name__)

# json-repair costs about 2 µs per character (more on garbage), so the time budget decides how
# much text it may see. Above REPAIR_MAX_CHARS the linear repairs go first (guided by the strict
# parser's error, then closing what a cut left open); json-repair still gets text up to
# LARGE_REPAIR_MAX_CHARS when they fail and the budget allows.
REPAIR_MAX_CHARS = 12_000
LARGE_REPAIR_MAX_CHARS = 100_000
# json-repair's words for a quote it could not place
_QUOTE_TROUBLE = ("misplaced quote", "doubled quote")
_STRAY_ESCAPE = "stray escape"
_GLUED = "returned early, checking if there's more json elements"


class RepairFailed(ValueError):
    """No repair gave a JSON value; the message says why."""


def repair(text: str, deadline: Deadline | None = None) -> tuple[Any, list[str]]:
    """``(value, repairs made)`` for JSON text with defects; RepairFailed otherwise.

    A value that evidently lost part of the text says so in its repairs ("lost data: …").
    """
    value, notes, checked = _repair(text, deadline)
    guesses = [] if any(n.startswith(GUESS_NOTE) for n in notes) else string_guesses(text)
    # json-repair closes what a cut left open without saying so in every case; a string misread
    # through a raw quote looks open at the end too, unless the text ends closed
    misread = bool(guesses) and text.rstrip()[-1:] in ("}", "]")
    if not checked and not misread and not any(n.startswith(TRUNCATED_NOTE) for n in notes):
        cut = reply_cut_note(text)
        if cut:
            notes.append(cut)
    notes.extend(guesses)
    # the linear repairs keep every complete element by construction; json-repair may not
    lost = None if checked else loss_note(text, value)
    return (value, [*notes, lost]) if lost else (value, notes)


def _repair(text: str, deadline: Deadline | None) -> tuple[Any, list[str], bool]:
    """(value, notes, whether the value is known to keep every complete element)."""
    normalised, marks = fullwidth.normalise(text)
    notes = [f"replaced {marks} full-width punctuation marks used as JSON syntax"] if marks else []
    if marks:
        try:
            return load_strict(normalised), notes, True
        except NotJSON:
            pass
        # ASCII JSON with a local defect next to a full-width mark that belongs to a value
        # ("name": 记录，5"): the guided repair of the text as written keeps the mark
        try:
            return (*guided_repair(text, deadline), True)
        except NotJSON:
            pass
    requoted, singles, breaks = requote(normalised)
    if singles or breaks:
        guessed = []
        if singles:
            guessed.append(
                f"{GUESS_NOTE} where {len(singles)} single-quoted string(s) end (the first "
                f"starts at char {singles[0]}): an apostrophe inside one could end it"
            )
        if breaks:
            guessed.append(
                f"{GUESS_NOTE} that the line breaks of {len(breaks)} string(s) are inside them "
                f"(the first string starts at char {breaks[0]})"
            )
        read = _linear(requoted, deadline)
        if read is not None:
            return read[0], notes + guessed + read[1], True
    if len(normalised) > REPAIR_MAX_CHARS:
        value, repairs, linear = _repair_large(normalised, deadline)
        return value, notes + repairs, linear
    if _only_cut(normalised):
        # a reply cut off by a token limit: closing what was left open keeps every complete
        # element exactly and drops an incomplete literal, where json-repair may read `"ok": t`
        # as the string "t" or a cut key as an array
        try:
            closed_value, closed = close_truncated(normalised, deadline)
        except NotJSON:
            pass
        else:
            # emptying a container, or closing a string that ends with the closing brackets
            # (`{"key": "value}`: its closing quote may be what is missing), is a reading
            # json-repair may better: those compete below
            if not any(n.startswith(("emptied", GUESS_NOTE)) for n in closed):
                return closed_value, notes + closed, True
    elif open_at_end(normalised) != ("", False):
        # cut, with other defects before the cut (a Python literal, a comment): fixed where the
        # strict parser stops, then closed, so a cut key or escape is dropped as in a plain cut
        try:
            fixed_value, fixed = guided_repair(normalised, deadline, close_at_end=True)
        except NotJSON:
            pass
        else:
            if not any(n.startswith(("emptied", GUESS_NOTE)) for n in fixed):
                return fixed_value, notes + fixed, True
    normalised, cleaned = cleanup.clean(normalised)
    notes += cleaned
    try:
        value, log = _json_repair(normalised)
    except RepairFailed as exc:
        # json-repair recurses: a reply nested a few hundred deep is beyond it, not beyond the
        # linear repairs
        for step in (close_truncated, guided_repair):
            try:
                value, linear_notes = step(normalised, deadline)
            except NotJSON:
                continue
            return value, notes + linear_notes, True
        raise exc from None
    if isinstance(value, list) and normalised.lstrip().startswith("{"):
        # json-repair reads '{"foo' as ["foo"]: an object cut inside its first key. Closing
        # what was left open keeps the object.
        try:
            closed_value, closed = close_truncated(normalised, deadline)
        except NotJSON:
            pass
        else:
            if isinstance(closed_value, dict):
                return closed_value, notes + closed, True
    logged = " ".join(entry.get("text", "") for entry in log if isinstance(entry, dict))
    # (json-repair keeps all values in an array, or only the last: either way it saw several)
    glued = _GLUED in logged
    if glued and (
        value_then_more(normalised, deadline)
        or (isinstance(value, list) and not normalised.lstrip().startswith("["))
    ):
        # json-repair found more than one top-level value and glued them into an array (or
        # kept the last); the first complete value is the answer, and a note or a citation
        # after it is prose: extraction takes the first acceptable value and says so
        raise RepairFailed(
            "the text holds more than one value; extraction picks the first acceptable"
        )
    if value == "" and not _is_empty_string_literal(normalised):
        # json-repair answers "" when it found nothing to build a value from.
        raise RepairFailed("json-repair found no JSON value")
    # json-repair logs some repairs (a trailing comma) without a word; still say one was made.
    best, repairs, linear = value, _describe(log) or ["json-repair fixed the syntax"], False
    if _STRAY_ESCAPE in logged:
        # `\_` may be a Markdown escape of `_` or a backslash kept as text: two readings
        repairs.append(
            f"{GUESS_NOTE} how an escape JSON does not have (such as \\_) was meant: kept as written"
        )
    # The linear repairs keep what json-repair may drop: empty containers before a cut, records
    # around a defect. The candidate keeping the most structure wins; json-repair wins ties.
    for other in (close_truncated, guided_repair):
        try:
            candidate, other_repairs = other(normalised, deadline)
        except NotJSON:
            continue
        if size(candidate) > size(best) or (
            # a quote json-repair could not place, the one defect of the text: the guided repair
            # escapes it where the parser shows it belongs, and keeps the string's text whole
            other is guided_repair
            and len(other_repairs) == 1
            and any(trouble in logged for trouble in _QUOTE_TROUBLE)
            and size(candidate) == size(best)
        ):
            best, repairs, linear = candidate, other_repairs, True
    if cleanup.NONFINITE_MARK in normalised:
        best = cleanup.restore_nonfinite(best)
    return best, notes + repairs, linear


def _linear(text: str, deadline: Deadline | None) -> tuple[Any, list[str]] | None:
    """The value of ``text`` as it is, with its cut closed, or repaired where the strict parser
    stops; None when none of these reads it."""
    try:
        return load_strict(text), []
    except NotJSON:
        pass
    steps = (close_truncated, guided_repair) if _only_cut(text) else (guided_repair,)
    for step in steps:
        try:
            return step(text, deadline)
        except NotJSON:
            continue
    return None


def _only_cut(text: str) -> bool:
    """Whether the strict parser reads ``text`` to its end and only then misses the rest: a
    reply cut off by a token limit with no other defect before the cut."""
    try:
        orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        return exc.msg.startswith("unexpected end of data") and exc.pos >= len(text.rstrip())
    return False


def _repair_large(text: str, deadline: Deadline | None) -> tuple[Any, list[str], bool]:
    """Linear repairs first; json-repair only on text it can finish within the budget."""
    why: list[str] = []
    for step in (guided_repair, close_truncated):
        try:
            return (*step(text, deadline), True)
        except NotJSON as exc:
            why.append(str(exc))
    if len(text) <= LARGE_REPAIR_MAX_CHARS and not (deadline is not None and deadline.expired()):
        text, _ = cleanup.clean(text)
        value, log = _json_repair(text)
        if value != "":
            return value, _describe(log) or ["json-repair fixed the syntax"], False
    raise RepairFailed(
        f"{len(text)} chars: no local edit and no closing of brackets repairs it ({why[-1]}); "
        f"json-repair takes at most {LARGE_REPAIR_MAX_CHARS} chars within the time budget"
    )


def _json_repair(text: str) -> tuple[Any, list[dict[str, str]]]:
    """json-repair's value with every escaped string decoded as RFC 8259 says (:mod:`.strings`)."""
    import json_repair

    protected, originals = protect(text)
    try:
        value, log = json_repair.repair_json(
            protected, return_objects=True, logging=True, skip_json_loads=True
        )
        return restore(value, originals), log
    except Exception as exc:
        # Nesting beyond its recursion limit raises ValueError or RecursionError; anything else
        # is a bug of the library on odd input, which the funnel must survive: it only means
        # "not repaired".
        logger.debug("json-repair failed: %r", exc)
        raise RepairFailed(f"json-repair failed: {type(exc).__name__}: {exc}"[:300]) from None


def _describe(log: list[dict[str, str]]) -> list[str]:
    seen: dict[str, None] = {}
    for entry in log:
        text = entry.get("text", "") if isinstance(entry, dict) else str(entry)
        if text:
            seen.setdefault(text, None)
    return list(seen)


def _is_empty_string_literal(text: str) -> bool:
    return text.strip() in ('""', "''")
