"""JSON: every string value (not keys) is a segment, with its JSON pointer.

Finding offsets are code points into the decoded string value (what the generated text says);
``line``/``column`` point at the finding in the file, so an editor jumps to the right spot even
when the string holds escapes.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable

from ..errors import InputError
from . import Document, Segment
from .text import decode

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)
_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}|\\.|[^\\]", re.S)


def _pointer_token(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _locator(raw: str, body_start: int) -> Callable[[int], tuple[int, int]]:
    """Map an offset in the decoded string to (line, column) of the file."""

    def locate(offset: int) -> tuple[int, int]:
        pos = body_start
        decoded = 0
        for m in _ESCAPE.finditer(raw, body_start):
            if decoded >= offset:
                break
            tok = m.group()
            pos = m.end()
            if tok.startswith("\\u") and 0xD800 <= int(tok[2:], 16) < 0xDC00:
                continue  # the high half of a surrogate pair: the low half completes the char
            decoded += 1
        line = raw.count("\n", 0, pos) + 1
        column = pos - (raw.rfind("\n", 0, pos) + 1) + 1
        return line, column

    return locate


def read(path: str, data: bytes) -> Document:
    raw = decode(data, path)
    try:
        json.loads(raw)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    segments: list[Segment] = []
    # the stack holds, per open container, its path and the key/index of the next value
    stack: list[list] = []  # [kind, path, key, expecting_key]
    for m in _TOKEN.finditer(raw):
        tok = m.group()
        top = stack[-1] if stack else None
        if tok in "{[":
            here = _value_path(top)
            stack.append(["{" if tok == "{" else "[", here, 0 if tok == "[" else None, tok == "{"])
            continue
        if tok in "}]":
            stack.pop()
            _advance(stack[-1] if stack else None)
            continue
        if tok == ":":
            if top is not None:
                top[3] = False
            continue
        if tok == ",":
            if top is not None and top[0] == "{":
                top[3] = True
            continue
        if top is not None and top[0] == "{" and top[3]:
            top[2] = json.loads(tok)
            continue
        if tok.startswith('"'):
            value = json.loads(tok)
            if value.strip():
                segments.append(
                    Segment(value, pointer=_value_path(top), locate=_locator(raw, m.start() + 1))
                )
        _advance(top)
    return Document(path=path, kind="json", segments=segments)


def _value_path(top: list | None) -> str:
    if top is None:
        return ""
    return f"{top[1]}/{_pointer_token(top[2])}"


def _advance(top: list | None) -> None:
    if top is not None and top[0] == "[":
        top[2] += 1
