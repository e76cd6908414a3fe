"""Finding citation markers and the code they must not be looked for in.

Five kinds of marker, all found by one compiled pattern:

``tag``     ``<sources>[1, 2]</sources>`` — spaces anywhere inside, full-width ``［］，``, ``、``,
            any tag case, ``<source>`` too; the body may also say ``Source 1`` or ``1-3``.
``open``    ``<sources>[1]`` with its closing tag missing (or written ``<sources>``): the id
            list says what was meant, so it is a marker all the same.
``stray``   a lone ``<sources>`` or ``</sources>``: markup debris, an empty marker.
``inline``  ``[Source 1]`` / ``[Sources 1, 2]`` written in the text by the model.
``plain``   ``[3]``, a citation already in final form; it is never moved or dropped, only
            renumbered (or pointed at the source it was merged into).

Markers inside fenced code blocks and inline code spans are not markers.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from collections.abc import Iterator
from functools import lru_cache
from typing import Literal, NamedTuple

Token = int | str
Kind = Literal["tag", "open", "stray", "inline", "plain"]

_SEP = r"(?:[,，、;；]|[-–~])"
_SOURCE_WORD = r"(?:sources?|src|ref)\s*[:：#]?\s*"
# `[1](https://…)`, `[Source 2](#ref)`: a markdown link, not a citation.
_NOT_LINK = r"(?!\((?:[a-z][a-z0-9+.-]*:|www\.|#|/|\.))"
_MARKER = re.compile(
    r"(?P<tag><\s*sources?\s*>(?P<body>[^<>\n]{0,200}?)<\s*/\s*sources?\s*>)"
    # An id list after an opening tag whose closing tag is missing or lacks its slash.
    r"|(?P<open><\s*sources?\s*>[ \t]*(?P<obody>[\[［][^\[\]［］<>\n]{0,400}[\]］])"
    r"(?:[ \t]*<\s*/?\s*sources?\s*>)?)"
    # A stray opening or closing tag: markup debris, removed like an empty marker.
    r"|(?P<stray><\s*/?\s*sources?\s*>)"
    r"|(?P<inline>[\[［]\s*" + _SOURCE_WORD + r"(?P<ibody>\d+(?:\s*" + _SEP + r"\s*(?:"
    r"" + _SOURCE_WORD + r")?\d+)*)\s*[\]］]" + _NOT_LINK + ")"
    # A plain [n], unless it is a markdown link `[1](…)`.
    r"|\[(?P<num>[0-9]{1,6})\]" + _NOT_LINK,
    re.IGNORECASE,
)
_CANONICAL = re.compile(r"<sources>(\[[0-9, ]{0,200}\])</sources>")
_FENCE = re.compile(r"^[ ]{0,3}(`{3,}|~{3,})[^\n]*$", re.MULTILINE)
_CODE_SPAN = re.compile(r"(?<!`)(`+)(?!`)[^\n]+?(?<!`)\1(?!`)")
_BODY_STRIP = str.maketrans("", "", "[]\"'“”‘’()")
_ID_TOKEN = re.compile(
    r"(?:sources?|src|ref)?\s*[:#]?\s*(\d+)(?:\s*[-–~]\s*(?:sources?|src|ref)?\s*[:#]?\s*(\d+))?",
    re.IGNORECASE,
)
_SPACED_IDS = re.compile(r"\d+(?:\s+\d+)+")
_MAX_RANGE = 100
_new = tuple.__new__  # builds a Marker without its Python-level __new__ (hot loop)


class Marker(NamedTuple):
    kind: Kind
    start: int
    end: int
    tokens: tuple[Token, ...]


def code_regions(text: str) -> list[tuple[int, int]]:
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


def in_regions(pos: int, regions: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect_right(starts, pos) - 1
    return i >= 0 and pos < regions[i][1]


def find_markers(text: str, regions: list[tuple[int, int]] | None = None) -> list[Marker]:
    """Every marker outside code, in text order."""
    return list(iter_markers(text, regions))


def iter_markers(text: str, regions: list[tuple[int, int]] | None = None) -> Iterator[Marker]:
    """Every marker outside code, in text order, as it is found."""
    if regions is None:
        regions = code_regions(text)
    starts = [r[0] for r in regions]
    match = _MARKER.match
    canonical = _CANONICAL.match
    cursor = 0
    # A marker starts at "<", "[" or "［": str.find jumps between those far faster than the
    # regex engine scans every position, and the pattern is then tried only there.
    for pos in _candidates(text):
        if pos < cursor:
            continue
        m = canonical(text, pos)
        if m is not None:
            # The spelling models use almost always: a stricter, cheaper pattern (the general
            # one would match the same span with the same body).
            if regions and in_regions(pos, regions, starts):
                continue
            cursor = end = m.end()
            yield _new(Marker, ("tag", pos, end, parse_body(m.group(1))))
            continue
        m = match(text, pos)
        if m is None:
            continue
        if regions and in_regions(pos, regions, starts):
            continue
        cursor = end = m.end()
        kind = m.lastgroup
        if kind == "tag":
            yield _new(Marker, ("tag", pos, end, parse_body(m.group("body"))))
        elif kind == "num":
            # `[1]: https://…` at the start of a line is a link definition, not a citation.
            if text.startswith(":", end) and (pos == 0 or text[pos - 1] == "\n"):
                continue
            yield _new(Marker, ("plain", pos, end, (int(m.group("num")),)))
        elif kind == "stray":
            yield _new(Marker, ("stray", pos, end, ()))
        elif kind == "open":
            yield _new(Marker, ("open", pos, end, parse_body(m.group("obody"))))
        else:
            yield _new(Marker, ("inline", pos, end, parse_body(m.group("ibody"))))


def _candidates(text: str) -> list[int]:
    found: list[int] = []
    for ch in "<[［":
        find = text.find
        i = find(ch)
        while i >= 0:
            found.append(i)
            i = find(ch, i + 1)
    found.sort()
    return found


@lru_cache(maxsize=4096)
def parse_body(body: str) -> tuple[Token, ...]:
    """The ids a marker names, in order: numbers as int, anything else as its trimmed text.

    ``"[1, 2]"`` → (1, 2); ``"［1，web］"`` → (1, "web"); ``"Source 3"`` → (3,);
    ``"1-3"`` → (1, 2, 3); ``"1 2"`` → (1, 2); ``"[]"`` → ()."""
    text = unicodedata.normalize("NFKC", body).replace("、", ",").translate(_BODY_STRIP)
    tokens: list[Token] = []
    for raw in re.split(r"[,;]", text):
        token = " ".join(raw.split())
        if not token:
            continue
        m = _ID_TOKEN.fullmatch(token)
        if m and m.group(2) is None:
            tokens.append(int(m.group(1)))
        elif m and 0 <= int(m.group(2)) - int(m.group(1)) <= _MAX_RANGE:
            tokens.extend(range(int(m.group(1)), int(m.group(2)) + 1))
        elif _SPACED_IDS.fullmatch(token):
            tokens.extend(int(part) for part in token.split())
        else:
            tokens.append(token)
    return tuple(tokens)
