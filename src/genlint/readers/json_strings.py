"""JSON: every string value is a segment, with its JSON pointer; keys and numbers that could
hold personal data (a phone number as a key or stored as a number) are segments that only the
``sensitive`` pack reads (docs/commands/check.md "What the readers see": every place a file keeps text: they are data, not prose).

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
    hidden: list[tuple[str, str, int, int]] = []
    segments = [
        Segment(value, pointer=pointer, locate=_locator(lines, start, end))
        for pointer, value, start, end in string_values(raw, hidden)
        if value.strip()
    ]
    segments.extend(
        Segment(value, pointer=pointer, locate=_locator(lines, start, end), packs=PERSONAL_ONLY)
        for pointer, value, start, end in hidden
    )
    return Document(
        path=path,
        kind="json",
        segments=segments,
        encoding=decoded.encoding,
        warnings=decoded.warnings,
    )


# Keys and numbers are read for personal data only, and only those that could hold a value the
# pack finds without a label (a label is prose, and keys and numbers have none): a key with an
# at sign or seven digits or more, a number written as a mobile (11 digits 1[3-9]…), a legacy
# or current ID (15 or 18 digits) or a card (16–19 digits). Each read item is a segment of its
# own, so the test keeps a file with 50,000 "amount": 1234567890 as fast as it was.
PERSONAL_ONLY = frozenset({"sensitive"})
_KEY_MAY_HOLD = re.compile("[@＠]|[0-9０-９](?:[^0-9０-９]*[0-9０-９]){6}")
_NUMBER_MAY_HOLD = re.compile("1[3-9][0-9]{9}|[0-9]{15,19}")


def string_values(
    raw: str, hidden: list[tuple[str, str, int, int]] | None = None
) -> Iterator[tuple[str, str, int, int]]:
    """Every string value (not keys) of valid JSON text: its JSON pointer, its decoded value,
    and where its body (between the quotes) starts and ends in ``raw``. With ``hidden``, the
    keys and numbers that may hold personal data are added to it in the same shape (a key's
    pointer names its member; a number's "value" is its token as written)."""
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
            if hidden is not None and _KEY_MAY_HOLD.search(top[2]):
                hidden.append((_value_path(top), top[2], m.start() + 1, m.end() - 1))
            continue
        if tok.startswith('"'):
            yield _value_path(top), _string(tok), m.start() + 1, m.end() - 1
        elif hidden is not None and _NUMBER_MAY_HOLD.fullmatch(tok):
            hidden.append((_value_path(top), tok, m.start(), m.end()))
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
