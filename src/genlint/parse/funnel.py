"""The funnel: direct → repaired → extracted → fields, stopping at the first acceptable value."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from .._gc import gc_paused
from .accept import Acceptor
from .budget import Deadline
from .candidates import cut_in_reasoning, reasoning_spans
from .closing import MAX_DEPTH, too_deep
from .completeness import loss_note
from .direct import NotJSON, load_strict
from .extracted import NothingExtracted, extract
from .fields import FieldsNotFound, extract_fields
from .repaired import RepairFailed, repair
from .result import GUESS_NOTE, ParseResult
from .scalars import repair_scalar

# How a JSON document can start. The repaired step leaves any other reply (prose, a code fence,
# a reasoning block) to extraction, because json-repair would glue every fragment of it into
# one array, or keep the last one.
_JSON_START = re.compile(r"""\s*(?:[{\[｛［("'\-\d]|/[*/]|(?:true|false|null|True|False|None)\b)""")
_CONTAINER = re.compile(r"[{\[｛［]")


def parse_json(
    text: str | bytes,
    schema: Any = None,
    fields: Sequence[str] | None = None,
) -> ParseResult:
    """Turn an LLM reply into the JSON value it meant.

    Tries ``direct`` (strict JSON), ``repaired`` (json-repair), ``extracted`` (the first
    acceptable fragment in fences or prose, after any reasoning block) and ``fields`` (named
    fields by pattern), stopping at the first acceptable value. ``schema`` is a pydantic model
    class (``value`` is then an instance) or a JSON Schema dict; ``fields`` names keys the value
    must hold. With neither, any valid JSON document is accepted directly and later steps must
    find an object or array. Never raises on a string; a bad ``schema`` raises InputError.
    """
    if type(text) is str and schema is None and not fields:
        # The hot path: with nothing to validate, a valid reply is the answer (one orjson call).
        try:
            return ParseResult(True, load_strict(text), "direct", [], [])
        except NotJSON as exc:
            return _funnel(text, Acceptor(None, None), f"direct: {exc}")
    decoded: list[str] = []
    if isinstance(text, bytes | bytearray):
        from .encoding import decode

        text, decoded = decode(bytes(text))
    elif not isinstance(text, str):
        raise TypeError(f"parse_json() needs str or bytes, not {type(text).__name__}")
    result = _funnel(text, Acceptor(schema, fields))
    if decoded and result.ok:
        result.repairs[:0] = decoded
    return result


def _repaired_step(text: str, acceptor: Acceptor, deadline: Deadline) -> ParseResult | str:
    """The repaired result, or why there is none."""
    if not text.strip():
        return "the reply is empty"
    has_container = _CONTAINER.search(text) is not None
    if not has_container and not acceptor.admits_scalars:
        return "no object or array in the text"
    why = "the reply does not start like JSON; left to extraction"
    if _JSON_START.match(text):
        try:
            value, repairs = repair(text, deadline)
        except RepairFailed as exc:
            why = str(exc)
        else:
            accepted, converted, why = acceptor.check(value)
            if accepted:
                return ParseResult(True, converted, "repaired", [], repairs)
            why = f"not acceptable: {why}"
    if acceptor.admits_scalars and (not has_container or text.lstrip()[:1] in "\"'“‘"):
        try:
            value, repairs = repair_scalar(text)
        except NotJSON:
            return why
        accepted, converted, _ = acceptor.check(value)
        if accepted:
            return ParseResult(True, converted, "repaired", [], repairs)
    return why


def _funnel(text: str, acceptor: Acceptor, direct_error: str | None = None) -> ParseResult:
    """The steps after ``direct``; ``direct_error`` is given when the caller already tried it."""
    errors: list[str] = []
    if direct_error is not None:
        errors.append(direct_error)
    else:
        try:
            value = load_strict(text)
        except NotJSON as exc:
            errors.append(f"direct: {exc}")
        else:
            accepted, converted, why = acceptor.check(value, any_json=True)
            if accepted:
                return ParseResult(True, converted, "direct", errors, [])
            errors.append(f"direct: valid JSON but not acceptable: {why}")

    if too_deep(text):
        errors.append(f"refused: brackets nest deeper than {MAX_DEPTH} levels")
        return ParseResult(False, None, "none", errors, [])
    # the budget is for this reply's work: a collection of the whole heap (seconds in a large
    # process) must not fall inside it and fail a reply that parses in a millisecond
    with gc_paused():
        return _slow_steps(text, acceptor, errors)


def _slow_steps(text: str, acceptor: Acceptor, errors: list[str]) -> ParseResult:
    """repaired, extracted and fields, sharing one time budget."""
    deadline = Deadline()
    outcome = _repaired_step(text, acceptor, deadline)
    if isinstance(outcome, ParseResult):
        outcome.errors[:0] = errors
        return outcome
    errors.append(f"repaired: {outcome}")

    try:
        value, repairs, without_others = extract(text, acceptor.check, deadline)
    except NothingExtracted as exc:
        errors.append(f"extracted: {exc}")
    else:
        if any(n.startswith(f"{GUESS_NOTE} that the draft") for n in repairs):
            # the final answer after the reasoning wins over a draft inside it, in fields form too
            # (docs/commands/parse.md "Reasoning blocks")
            final = _fields(text[reasoning_spans(text)[-1][1] :], acceptor, [])
            if final is not None:
                final.errors[:0] = errors
                final.repairs.append(
                    f"{GUESS_NOTE} that the fields after the reasoning block are the answer, not "
                    "the draft inside it"
                )
                return final
        if _JSON_START.match(text) and isinstance(value, dict | list):
            # the whole reply looks like one JSON document: a fragment of it must not pass for
            # all of it (docs/commands/parse.md "Never a silent loss")
            lost = loss_note(without_others, value)
            if lost:
                repairs.append(lost)
        return ParseResult(True, value, "extracted", errors, repairs)

    cut_at = cut_in_reasoning(text)
    # fields are not read from a reasoning block the reply never closed: it holds no answer
    found = _fields(text if cut_at is None else text[:cut_at], acceptor, errors)
    return found or ParseResult(False, None, "none", errors, [])


def _fields(text: str, acceptor: Acceptor, errors: list[str]) -> ParseResult | None:
    """The fields step's result, or None with why appended to ``errors``."""
    names = acceptor.field_names()
    if not names:
        errors.append("fields: no field names given")
        return None
    try:
        value, repairs = extract_fields(text, names, acceptor.field_types)
    except FieldsNotFound as exc:
        errors.append(f"fields: {exc}")
        return None
    accepted, converted, why = acceptor.check(value)
    if accepted:
        return ParseResult(True, converted, "fields", errors, repairs)
    errors.append(f"fields: not acceptable: {why}")
    return None
