"""Display columns of a terminal: East Asian wide characters and most emoji take two cells,
combining marks none (wcwidth, the table terminals themselves follow), so text cut to fit a
terminal never wraps and a caret lands under the character it points at."""

from __future__ import annotations

import os
import unicodedata
from collections.abc import Callable

_wcwidth: Callable[[str], int] | None
try:  # a core dependency; the fallback keeps a broken install printing
    from wcwidth import wcwidth as _wcwidth
except ImportError:  # pragma: no cover - wcwidth is installed with genlint
    _wcwidth = None

ELLIPSIS = "…"


def _measure(ch: str) -> int:
    if _wcwidth is not None:
        return max(_wcwidth(ch), 0)  # control characters are replaced before they get here
    if unicodedata.combining(ch) or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in "WF" else 1


class _Widths(dict[str, int]):
    """Cells per character, measured on first sight: ``sum(map(table.__getitem__, text))``
    runs in C, several times faster than a generator over an lru_cache."""

    def __missing__(self, ch: str) -> int:
        self[ch] = width = _measure(ch)
        return width


_WIDTHS = _Widths()
char_cells = _WIDTHS.__getitem__
"""Cells one code point takes (0 for combining marks and zero-width characters)."""


def cells(text: str) -> int:
    """Cells ``text`` takes on a terminal."""
    if text.isascii():
        return len(text)
    return sum(map(char_cells, text))


def fit(text: str, width: int) -> str:
    """The longest prefix of ``text`` that takes at most ``width`` cells (never cutting a
    combining mark off its base)."""
    used = 0
    for index, ch in enumerate(text):
        used += char_cells(ch)
        if used > width:
            while index > 0 and char_cells(text[index]) == 0:
                index -= 1
            return text[:index]
    return text


def fit_end(text: str, width: int) -> str:
    """The longest suffix of ``text`` that takes at most ``width`` cells and does not start with
    a combining mark."""
    used = 0
    start = len(text)
    for index in range(len(text) - 1, -1, -1):
        used += char_cells(text[index])
        if used > width:
            break
        start = index
    while start < len(text) and char_cells(text[start]) == 0:
        start += 1
    return text[start:]


def wrap(text: str, width: int, indent: str = "") -> list[str]:
    """``text`` in lines of at most ``width`` cells (continuation lines start with ``indent``),
    breaking after a space, a path separator or a colon when the line holds one."""
    width = max(width, cells(indent) + 2)
    lines: list[str] = []
    prefix = ""
    while cells(prefix + text) > width:
        room = width - cells(prefix)
        head = fit(text, room)
        # break after the last space, path separator or colon (a path's end, a location's
        # start), so no word or file name is cut while there is one
        cut = max(head.rfind(" "), *(head.rfind(mark) + 1 for mark in ("/", os.sep, ":")))
        if cut > 0:
            head = head[:cut]
        if not head:  # one character wider than the room
            head = text[:1]
        lines.append(prefix + head)
        text = text[len(head) :].lstrip(" ")
        prefix = indent
    lines.append(prefix + text)
    return lines
