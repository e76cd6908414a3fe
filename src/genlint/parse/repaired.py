"""Step 2: the reply is JSON with defects; json-repair fixes them, within a time bound."""

from __future__ import annotations

import logging
from typing import Any

from . import cleanup, fullwidth
from .budget import Deadline
from .closing import close_truncated
from .direct import NotJSON, load_strict

logger = logging.getLogger(__name__)

# json-repair's time grows faster than its input on garbage (20 KB of random punctuation takes
# ~0.3 s here, 40 KB over 1 s), so it only sees text up to this size; larger text gets the linear
# close_truncated repair only.
REPAIR_MAX_CHARS = 12_000
_GLUED = "returned early, checking if there's more json elements"


class RepairFailed(ValueError):
    """No repair gave a JSON value; the message says why."""


def repair(text: str, deadline: Deadline | None = None) -> tuple[Any, list[str]]:
    """``(value, repairs made)`` for JSON text with defects; RepairFailed otherwise."""
    normalised, marks = fullwidth.normalise(text)
    notes = [f"replaced {marks} full-width punctuation marks used as JSON syntax"] if marks else []
    if marks:
        try:
            return load_strict(normalised), notes
        except NotJSON:
            pass
    if len(normalised) > REPAIR_MAX_CHARS:
        try:
            value, closed = close_truncated(normalised, deadline)
        except NotJSON as exc:
            raise RepairFailed(
                f"{len(normalised)} chars is over the json-repair limit of {REPAIR_MAX_CHARS} "
                f"(its time grows faster than the input); closing truncated brackets: {exc}"
            ) from None
        return value, notes + closed
    normalised, cleaned = cleanup.clean(normalised)
    notes += cleaned
    value, log = _json_repair(normalised)
    if isinstance(value, list) and normalised.lstrip().startswith("{"):
        # json-repair reads '{"foo' as ["foo"]: an object cut inside its first key. Closing
        # what was left open keeps the object.
        try:
            closed_value, closed = close_truncated(normalised, deadline)
        except NotJSON:
            pass
        else:
            if isinstance(closed_value, dict):
                return closed_value, notes + closed
    if (
        isinstance(value, list)
        and not normalised.lstrip().startswith("[")
        and any(_GLUED in entry.get("text", "") for entry in log if isinstance(entry, dict))
    ):
        # json-repair found more than one top-level value and glued them into an array; the
        # reply meant one of them, which extraction picks.
        raise RepairFailed(
            "the text holds several JSON values; extraction picks the first acceptable"
        )
    if value == "" and not _is_empty_string_literal(normalised):
        # json-repair answers "" when it found nothing to build a value from.
        raise RepairFailed("json-repair found no JSON value")
    # json-repair logs some repairs (a trailing comma) without a word; still say one was made.
    return value, notes + (_describe(log) or ["json-repair fixed the syntax"])


def _json_repair(text: str) -> tuple[Any, list[dict[str, str]]]:
    import json_repair

    try:
        value, log = json_repair.repair_json(
            text, return_objects=True, logging=True, skip_json_loads=True
        )
    except Exception as exc:
        # Nesting beyond its recursion limit raises ValueError; anything else is a bug of the
        # library on odd input, which the funnel must survive: it only means "not repaired".
        logger.debug("json-repair failed: %r", exc)
        raise RepairFailed(f"json-repair failed: {exc}") from None
    return value, log


def _describe(log: list[dict[str, str]]) -> list[str]:
    seen: dict[str, None] = {}
    for entry in log:
        text = entry.get("text", "") if isinstance(entry, dict) else str(entry)
        if text:
            seen.setdefault(text, None)
    return list(seen)


def _is_empty_string_literal(text: str) -> bool:
    return text.strip() in ('""', "''")
