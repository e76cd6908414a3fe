"""Step 1: the reply is already strict JSON."""

from __future__ import annotations

import json
from typing import Any

import orjson

# Maps every byte to "0" for an ASCII digit and " " otherwise, so a run of 19+ digits (an
# integer orjson would turn into a float) is found with one C-speed translate and substring search.
_DIGIT_MASK = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_RUN = b"0" * 19


class NotJSON(ValueError):
    """The text is not one strict JSON document; the message says where."""


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def may_hold_big_integer(text: str) -> bool:
    """True when ``text`` has 19 or more digits in a row: orjson reads integers beyond 64 bits
    as floats, losing digits, so such text goes through the exact stdlib parser."""
    return _LONG_RUN in text.encode("utf-8", "surrogatepass").translate(_DIGIT_MASK)


def load_exact(text: str) -> Any:
    """orjson's value of ``text`` (raising orjson.JSONDecodeError), with integers beyond 64 bits
    kept exact: for the repairs, which parse the same large text many times and must not pay
    for the stdlib parser on each failed attempt."""
    value = orjson.loads(text)
    if len(text) >= 19 and may_hold_big_integer(text):
        try:
            return json.loads(text)
        except RecursionError:  # deeper than the stdlib parser goes: orjson's floats it is
            return value
    return value


def load_strict(text: str) -> Any:
    """Parse one strict JSON document (RFC 8259), raising NotJSON with the reason."""
    try:
        value = orjson.loads(text)
    except orjson.JSONDecodeError as exc:
        first_error = str(exc)
    else:
        if len(text) < 19 or not may_hold_big_integer(text):
            return value
        first_error = ""
    # The stdlib parser also takes what orjson refuses but RFC 8259 allows: escaped lone
    # surrogates ("\ud800"), which json.dumps writes. NaN and Infinity it would take too, so
    # they are refused explicitly.
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except (ValueError, RecursionError) as exc:
        raise NotJSON(first_error or str(exc)) from None
