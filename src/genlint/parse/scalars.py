"""A bare scalar with defects: "abc, 'abc', “abc”, 2., .3, True, callback(2);.

json-repair answers "" for any top-level scalar, so when the caller's schema admits scalars the
repaired step falls back to this. Without a schema a scalar is never an acceptable answer and
this module is not used.
"""

from __future__ import annotations

import json
import re
from typing import Any

from .direct import NotJSON, load_strict

_WRAPPER = re.compile(r"\A\s*[A-Za-z_$][\w$.]*\s*\((.*)\)\s*;?\s*\Z", re.DOTALL)
_OPEN_QUOTES = "\"'“‘`´"
_CLOSE_QUOTES = "\"'”’´`"
_NUMBERISH = re.compile(r"\A[+-]?(?:\d+\.?\d*|\.\d+|)(?:[eE][+-]?\d*)?\Z")
_PYTHON = {"True": True, "False": False, "None": None, "undefined": None, "NaN": None}
_CONCAT = re.compile(
    r"""\A(?:\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\+)+\s*(?:"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\Z""",
    re.DOTALL,
)
_PIECE = re.compile(r""""((?:[^"\\]|\\.)*)"|'((?:[^'\\]|\\.)*)'""", re.DOTALL)


# No model answers with a megabyte-long bare string; the patterns below need not see one.
MAX_SCALAR_CHARS = 100_000


def repair_scalar(text: str) -> tuple[Any, list[str]]:
    """``(value, repairs)`` of a top-level scalar; NotJSON when the text is not one."""
    if len(text) > MAX_SCALAR_CHARS:
        raise NotJSON(f"{len(text)} chars is too long for a scalar (limit {MAX_SCALAR_CHARS})")
    stripped = text.strip().rstrip(",").strip()
    if not stripped:
        raise NotJSON("empty")
    try:
        return load_strict(stripped), []
    except NotJSON:
        pass
    wrapped = _WRAPPER.match(stripped)
    if wrapped and not stripped.startswith(("'", '"')):
        value, notes = repair_scalar(wrapped.group(1))
        return value, ["removed a function-call wrapper", *notes]
    if stripped in _PYTHON:
        return _PYTHON[stripped], [f"read {stripped} as a JSON literal"]
    if _CONCAT.match(stripped):
        pieces = [_unescape(a if a is not None else b) for a, b in _PIECE.findall(stripped)]
        return "".join(pieces), ["joined concatenated strings"]
    if stripped[0] in _OPEN_QUOTES or stripped.startswith('\\"'):
        return _quoted(stripped), ["repaired a quoted string"]
    if _NUMBERISH.match(stripped) or stripped == ".":
        return _number(stripped), ["completed a number"]
    if stripped[0] in "{[(":
        raise NotJSON("not a scalar")
    if "\n" in stripped or "```" in stripped:
        raise NotJSON("several lines of prose are not one scalar")
    # A bare word or phrase: the caller admits scalars, so the text is the string it meant.
    return stripped, ["read unquoted text as a string"]


def _quoted(text: str) -> str:
    if text.startswith('\\"'):
        inner = text[2:]
        inner = inner[:-2] if inner.endswith('\\"') else inner.rstrip("\\")
        return _unescape(inner.replace('\\\\"', '\\"'))
    body = text[1:]
    if body and body[-1] in _CLOSE_QUOTES and not body.endswith('\\"'):
        body = body[:-1]
    return _unescape(body)


def _unescape(body: str) -> str:
    try:
        value = json.loads(
            '"' + re.sub(r'(?<!\\)((?:\\\\)*)"', r'\1\\"', body).replace("\\'", "'") + '"',
            strict=False,
        )
        return value if isinstance(value, str) else body
    except ValueError:
        # Unknown escapes (\a) and a cut \u sequence: drop the backslash or the stub.
        cleaned = re.sub(r"\\u[0-9a-fA-F]{0,3}\Z", "", body)
        cleaned = re.sub(r"\\(.)", r"\1", cleaned, flags=re.DOTALL)
        return cleaned.rstrip("\\")


def _number(text: str) -> int | float | str:
    if re.match(r"\A[+-]?0\d", text):
        return text  # a leading zero: an identifier such as "-05", not a number
    cut_exponent = text[-1] in "eE+-" and ("e" in text.lower())
    body = text.rstrip("eE+-") if text[-1] in "eE+-" and len(text) > 1 else text
    if body in ("", "+", "-", ".", "-.", "+."):
        return 0 if "." not in body else 0.0
    if body.endswith("."):
        body += "0"
    if body.startswith(("+.", "-.", ".")):
        body = body.replace(".", "0.", 1)
    body = body.lstrip("+")
    try:
        value = load_strict(body)
    except NotJSON:
        try:
            return float(body)
        except ValueError:
            return text  # "e", "2e3.4": text that only looks numeric
    if cut_exponent:
        return float(value)
    return value if isinstance(value, int | float) else float(body)
