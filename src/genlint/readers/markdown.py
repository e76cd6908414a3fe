"""Markdown: text like .txt, plus the spans of code (fences and inline code).

Rules that check prose (placeholders, citation markers) skip code: ``{name}`` in a code fence
is code, not an unfilled slot. Personal data is flagged everywhere.
"""

from __future__ import annotations

import re

from . import Document, Segment
from .text import decode

# a fence opens with ``` or ~~~ (3+) and closes with the same character, at least as long
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})[^\n]*\n(?:.*?\n)??[ ]{0,3}\1[`~]*[ \t]*$", re.M | re.S)
_UNCLOSED_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})[^\n]*$", re.M)
_INLINE = re.compile(r"(?<!`)(`+)(?!`)[^\n]*?(?<!`)\1(?!`)")


def code_ranges(text: str) -> list[tuple[int, int]]:
    """Spans of fenced code blocks and inline code spans."""
    if "`" not in text and "~~~" not in text:
        return []
    ranges: list[tuple[int, int]] = []
    pos = 0
    while True:
        m = _FENCE.search(text, pos)
        opener = _UNCLOSED_FENCE.search(text, pos)
        if opener is not None and (m is None or opener.start() < m.start()):
            # an unclosed fence runs to the end of the document
            ranges.append((opener.start(), len(text)))
            break
        if m is None:
            break
        ranges.append(m.span())
        pos = m.end()
    inline: list[tuple[int, int]] = []
    for m in _INLINE.finditer(text):
        if not any(s <= m.start() < e for s, e in ranges):
            inline.append(m.span())
    return sorted(ranges + inline)


def read(path: str, data: bytes) -> Document:
    text = decode(data, path)
    del data
    return Document(path=path, kind="md", segments=[Segment(text, code_ranges=code_ranges(text))])
