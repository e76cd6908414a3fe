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

from .. import _lazy_re as lazy_re
from ..readers.markdown import code_ranges

Token = int | str
Kind = Literal["tag", "open", "stray", "inline", "plain"]

_SEP = r"(?:[,，、;；]|[-–~])"
_SOURCE_WORD = r"(?:sources?|src|ref)\s*[:：#]?\s*"
# `[1](https://…)`, `[Source 2](#ref)`: a markdown link, not a citation.
_NOT_LINK = r"(?!\((?:[a-z][a-z0-9+.-]*:|www\.|#|/|\.))"
_MARKER = lazy_re.compile(
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
# Where a marker may start: "<", "[" or "［". Every alternative begins with one of those
# literals, so `re` skips ahead with its prefix check instead of trying each IGNORECASE
# branch of _MARKER at every position. The spelling models use almost always is matched
# whole right here (group 1: its body); at any other hit _MARKER is tried.
_SCAN = lazy_re.compile(r"<(?:sources>(\[[0-9, ]{0,200}\])</sources>)?|\[|［")
_BODY_STRIP = str.maketrans("", "", "[]\"'“”‘’()")
_ID_TOKEN = lazy_re.compile(
    r"(?:sources?|src|ref)?\s*[:#]?\s*(\d+)(?:\s*[-–~]\s*(?:sources?|src|ref)?\s*[:#]?\s*(\d+))?",
    re.IGNORECASE,
)
_SPACED_IDS = lazy_re.compile(r"\d+(?:\s+\d+)+")
# The body models write almost always: ASCII digits, commas and spaces in brackets.
_PLAIN_BODY = lazy_re.compile(r"\[[0-9, ]*\]")
_MAX_RANGE = 100
_new = tuple.__new__  # builds a Marker without its Python-level __new__ (hot loop)


class Marker(NamedTuple):
    kind: Kind
    start: int
    end: int
    tokens: tuple[Token, ...]


def in_regions(pos: int, regions: list[tuple[int, int]], starts: list[int]) -> bool:
    i = bisect_right(starts, pos) - 1
    return i >= 0 and pos < regions[i][1]


def find_markers(text: str, regions: list[tuple[int, int]] | None = None) -> list[Marker]:
    """Every marker outside code, in text order."""
    return list(iter_markers(text, regions))


def iter_markers(text: str, regions: list[tuple[int, int]] | None = None) -> Iterator[Marker]:
    """Every marker outside code, in text order, as it is found."""
    if regions is None:
        regions = code_ranges(text)
    for kind, start, end, body in scan_markers(text, regions):
        tokens = (int(body),) if kind == "plain" else parse_body(body)
        yield _new(Marker, (kind, start, end, tokens))


def scan_markers(text: str, regions: list[tuple[int, int]]) -> Iterator[tuple[Kind, int, int, str]]:
    """``(kind, start, end, body)`` of every marker outside ``regions``, in text order.
    ``body`` is the raw id list (``parse_body`` reads it; the digits for a plain ``[n]``,
    empty for a stray tag): callers that see the same body many times parse it once."""
    starts = [r[0] for r in regions]
    search = lazy_re.compiled(_SCAN).search
    match = lazy_re.compiled(_MARKER).match
    pos = 0
    while (m := search(text, pos)) is not None:
        start = m.start()
        body = m[1]
        if body is not None:
            # The spelling models use almost always, matched whole by the scan (the general
            # pattern would match the same span with the same body).
            kind: str | None = "tag"
        else:
            m = match(text, start)
            if m is None:
                pos = start + 1
                continue
            kind = m.lastgroup
        if regions and in_regions(start, regions, starts):
            # Every later candidate inside this code region is skipped too: jump past it.
            pos = regions[bisect_right(starts, start) - 1][1]
            continue
        end = pos = m.end()
        if kind == "tag":
            yield "tag", start, end, body if body is not None else m["body"]
        elif kind == "num":
            # `[1]: https://…` at the start of a line is a link definition, not a citation (it
            # needs a destination: `[1]:` alone at the end of a line is a citation).
            if (start == 0 or text[start - 1] == "\n") and _LINK_DEFINITION.match(text, end):
                pos = start + 1
                continue
            yield "plain", start, end, m["num"]
        elif kind == "stray":
            yield "stray", start, end, ""
        elif kind == "open":
            yield "open", start, end, m["obody"]
        else:
            yield "inline", start, end, m["ibody"]


_LINK_DEFINITION = lazy_re.compile(r":[ \t]*[^\s]")


@lru_cache(maxsize=4096)
def parse_body(body: str) -> tuple[Token, ...]:
    """The ids a marker names, in order: numbers as int, anything else as its trimmed text.

    ``"[1, 2]"`` → (1, 2); ``"［1，web］"`` → (1, "web"); ``"Source 3"`` → (3,);
    ``"1-3"`` → (1, 2, 3); ``"1 2"`` → (1, 2); ``"[]"`` → ()."""
    if _PLAIN_BODY.fullmatch(body):
        return parse_plain(body)
    return parse_any_body(body)


def parse_plain(body: str) -> tuple[int, ...]:
    """``parse_body`` of a body that ``_PLAIN_BODY`` matches whole: what parse_any_body gives
    for it (each comma-separated part is a number, or numbers separated by spaces; empty parts
    are skipped), without normalising and matching each token."""
    return tuple(map(int, body[1:-1].replace(",", " ").split()))


def parse_any_body(body: str) -> tuple[Token, ...]:
    """``parse_body`` for any spelling (tests hold the plain-body shortcut to it)."""
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
