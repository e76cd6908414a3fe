"""JSON: every string value (not keys) is a segment, with its JSON pointer.

Finding offsets are code points into the decoded string value (what the generated text says);
``line``/``column`` point at the finding in the file, so an editor jumps to the right spot even
when the string holds escapes.
"""

from __future__ import annotations

import bisect
import json
import re
from array import array
from collections.abc import Callable, Iterator

from ..errors import InputError
from . import Document, Segment
from .text import decode_text

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\]:,]|[^\s{}\[\]:,"]+', re.S)
_ESCAPE = re.compile(r"\\u[0-9a-fA-F]{4}|\\.|[^\\]", re.S)


def _pointer_token(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


class _Lines:
    """Line and column of a file offset, from a table of line starts built on first use."""

    def __init__(self, raw: str) -> None:
        self.raw = raw
        self.starts: array[int] | None = None

    def line_col(self, pos: int) -> tuple[int, int]:
        if self.starts is None:
            self.starts = array("q", [0])
            self.starts.extend(m.end() for m in re.finditer("\n", self.raw))
        i = bisect.bisect_right(self.starts, pos) - 1
        return i + 1, pos - self.starts[i] + 1


def _locator(lines: _Lines, body_start: int, body_end: int) -> Callable[[int], tuple[int, int]]:
    """Map an offset in the decoded string to (line, column) of the file."""
    raw = lines.raw
    if raw.find("\\", body_start, body_end) < 0:
        # no escapes: the decoded string is the raw text
        return lambda offset: lines.line_col(body_start + offset)
    # Escapes: walk the raw string, continuing from the last offset asked for (findings come in
    # order), so many findings in one long string cost one walk, not one each.
    state = [0, body_start]  # decoded offset reached, raw position reached

    def locate(offset: int) -> tuple[int, int]:
        decoded, pos = state if offset >= state[0] else (0, body_start)
        for m in _ESCAPE.finditer(raw, pos, body_end):
            if decoded >= offset:
                break
            tok = m.group()
            pos = m.end()
            if tok.startswith("\\u") and 0xD800 <= int(tok[2:], 16) < 0xDC00:
                continue  # the high half of a surrogate pair: the low half completes the char
            decoded += 1
        state[0], state[1] = decoded, pos
        return lines.line_col(pos)

    return locate


def read(path: str, data: bytes) -> Document:
    decoded = decode_text(data, path)
    raw = decoded.text
    try:
        # validated only (the strings are read below): a number stays text, so a 5,000-digit
        # integer is no ValueError and costs no quadratic conversion
        json.loads(raw, parse_int=len, parse_float=len, parse_constant=len)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from None
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply to read") from None
    lines = _Lines(raw)
    segments = [
        Segment(value, pointer=pointer, locate=_locator(lines, start, end))
        for pointer, value, start, end in string_values(raw)
        if value.strip()
    ]
    return Document(
        path=path,
        kind="json",
        segments=segments,
        encoding=decoded.encoding,
        warnings=decoded.warnings,
    )


def string_values(raw: str) -> Iterator[tuple[str, str, int, int]]:
    """Every string value (not keys) of valid JSON text: its JSON pointer, its decoded value,
    and where its body (between the quotes) starts and ends in ``raw``."""
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
            top[2] = _string(tok)
            continue
        if tok.startswith('"'):
            yield _value_path(top), _string(tok), m.start() + 1, m.end() - 1
        _advance(top)


def _string(token: str) -> str:
    """A string token's value: its body when it holds no escape (the text is valid JSON, so
    the body holds no control character), else decoded by json."""
    return token[1:-1] if "\\" not in token else json.loads(token)


def _value_path(top: list | None) -> str:
    if top is None:
        return ""
    return f"{top[1]}/{_pointer_token(top[2])}"


def _advance(top: list | None) -> None:
    if top is not None and top[0] == "[":
        top[2] += 1
