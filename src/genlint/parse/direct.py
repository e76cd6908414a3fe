"""Step 1: the reply is already strict JSON."""

from __future__ import annotations

import json
from typing import Any

import orjson


class NotJSON(ValueError):
    """The text is not one strict JSON document; the message says where."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_strict(text: str) -> Any:
    """Parse one strict JSON document (RFC 8259), raising NotJSON with the reason."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        first_error = str(exc)
    # orjson refuses two things RFC 8259 allows: integers beyond 64 bits and escaped lone
    # surrogates ("\ud800"), which json.dumps writes. The stdlib parser takes both; NaN and
    # Infinity it would also take, so they are refused explicitly.
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError):
        raise NotJSON(first_error) from None
