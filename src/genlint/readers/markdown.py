"""Markdown: text like .txt, plus the spans of code (fences and inline code).

Rules that check prose (placeholders, citation markers) skip code: ``{name}`` in a code fence
is code, not an unfilled slot. Personal data is flagged everywhere.
"""

from __future__ import annotations

import re

from . import Document, Segment
from .text import decode_text

# A fence line opens with ``` or ~~~ (3+); it closes on a line of the same character, at least as
# long. One finder for every command: check skips code for prose rules, cite leaves markers in
# code alone, and the two must agree on what code is.
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})[^\n]*$", re.MULTILINE)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)[^\n]+?(?<!`)\1(?!`)")


def code_ranges(text: str) -> list[tuple[int, int]]:
    """Sorted, disjoint ``(start, end)`` spans of fenced code blocks and inline code spans.

    A fence closes on a line of the same character at least as long as its opener; an
    unclosed fence runs to the end of the text (as CommonMark has it)."""
    regions: list[tuple[int, int]] = []
    fence_start = -1
    fence = ""
    gap_start = 0
    for m in _FENCE.finditer(text) if ("```" in text or "~~~" in text) else ():
        run = m.group(1)
        if fence_start < 0:
            fence_start, fence = m.start(), run
            regions.extend(_code_spans(text, gap_start, fence_start))
        elif run[0] == fence[0] and len(run) >= len(fence) and not m.group(0).strip()[len(run) :]:
            end = m.end() + 1 if m.end() < len(text) else m.end()
            regions.append((fence_start, end))
            fence_start, gap_start = -1, end
    if fence_start >= 0:
        regions.append((fence_start, len(text)))
    else:
        regions.extend(_code_spans(text, gap_start, len(text)))
    return regions


def _code_spans(text: str, start: int, end: int) -> list[tuple[int, int]]:
    if "`" not in text[start:end]:
        return []
    return [m.span() for m in _CODE_SPAN.finditer(text, start, end)]


def read(path: str, data: bytes) -> Document:
    decoded = decode_text(data, path)
    del data
    text = decoded.text
    return Document(
        path=path,
        kind="md",
        segments=[Segment(text, code_ranges=code_ranges(text))],
        encoding=decoded.encoding,
        warnings=decoded.warnings,
    )
