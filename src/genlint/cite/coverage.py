"""Citation coverage: the share of sentences that carry at least one citation.

Sentences end at Chinese 。！？, at English ``.!?`` followed by a space, a line end, a closing
quote or a citation, and at every line end (list items and table rows have no full stop).
A full stop is not an end inside a number (``1.8T``), a domain or version (``example.com``,
``v1.2``), after a known abbreviation (``e.g.``, ``Dr.``, ``et al.``), after an initial
(``J. Smith``, ``U.S.``), after a list number at the start of a line (``1. ``), or when a
lower-case word follows. A citation right after the end mark belongs to the sentence it
closes (``…增长。[1]``). Headings, code, and lines with no letters are not sentences.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

from .markers import code_regions

_TERMINATOR = re.compile(r"[。！？]+|[!?]+|\.+|…+")
_CLOSE = re.compile(r"[”’」』）)\"'\]】]*(?:[ \t]?(?:\[\d+\])+)?")
_LETTER = re.compile(r"[^\W\d_]")
_HEADING = re.compile(r"\s*#{1,6}(?:\s|$)")
_WORD_BEFORE = re.compile(r"([A-Za-z]+)$")
_LIST_NUMBER = re.compile(r"\s*\d{1,9}$")
_ABBREVIATIONS = frozenset(
    [
        "e.g",
        "eg",
        "i.e",
        "ie",
        "al",
        "fig",
        "figs",
        "dr",
        "mr",
        "mrs",
        "ms",
        "prof",
        "vs",
        "no",
        "nos",
        "vol",
        "vols",
        "pp",
        "p",
        "ed",
        "eds",
        "inc",
        "ltd",
        "co",
        "corp",
        "jr",
        "sr",
        "st",
        "approx",
        "ca",
        "cf",
        "eq",
        "eqs",
        "ref",
        "refs",
        "sec",
        "ch",
        "chap",
        "jan",
        "feb",
        "mar",
        "apr",
        "jun",
        "jul",
        "aug",
        "sep",
        "sept",
        "oct",
        "nov",
        "dec",
        "est",
        "dept",
        "univ",
        "min",
        "max",
        "resp",
    ]
)


@dataclass(frozen=True, slots=True)
class Coverage:
    """``cited`` of ``sentences`` carry a citation; ``uncited`` are the others' spans."""

    sentences: int
    cited: int
    uncited: list[tuple[int, int]] = field(default_factory=list)

    @property
    def ratio(self) -> float:
        return round(self.cited / self.sentences, 4) if self.sentences else 0.0

    def to_dict(self, text: str | None = None) -> dict[str, object]:
        out: dict[str, object] = {
            "sentences": self.sentences,
            "cited_sentences": self.cited,
            "ratio": self.ratio,
        }
        if text is not None:
            out["uncited"] = [
                {"start": s, "end": e, "text": text[s:e].strip()} for s, e in self.uncited
            ]
        return out


def sentence_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every sentence, in order (headings and code excluded)."""
    regions = code_regions(text)
    region_starts = [r[0] for r in regions]
    spans: list[tuple[int, int]] = []
    offset = 0
    for line in text.split("\n"):
        start = offset
        offset += len(line) + 1
        if not line.strip() or _HEADING.match(line):
            continue
        if regions:
            i = bisect_right(region_starts, start) - 1
            if i >= 0 and start < regions[i][1] and regions[i][1] - regions[i][0] > len(line):
                continue  # a line of a fenced block
        _split_line(line, start, spans)
    return spans


def _split_line(line: str, base: int, spans: list[tuple[int, int]]) -> None:
    begin = 0
    for m in _TERMINATOR.finditer(line):
        if m.start() < begin or not _is_end(line, m):
            continue
        end = _CLOSE.match(line, m.end())
        stop = end.end() if end else m.end()
        if _LETTER.search(line, begin, stop):
            spans.append((base + begin, base + stop))
        begin = stop
    if _LETTER.search(line, begin):
        spans.append((base + begin, base + len(line.rstrip())))


def _is_end(line: str, m: re.Match[str]) -> bool:
    mark = m.group()
    if mark[0] in "。！？…":
        return True
    after = line[m.end()] if m.end() < len(line) else ""
    if after and not (after.isspace() or after in "\"'”’)）]」』】" or ord(after) > 0x2E7F):
        return False  # 1.8T, example.com, v1.2, a?b=1
    if mark[0] != ".":
        return True
    rest = line[m.end() :].lstrip()
    if rest[:1].islower():
        return False
    if len(mark) > 1:
        return True
    before = line[: m.start()]
    word = _WORD_BEFORE.search(before)
    if word:
        w = word.group(1)
        if len(w) == 1 and w.isupper():
            return False  # an initial: J. Smith, U.S.
        if w.lower() in _ABBREVIATIONS or before.lower().endswith(("e.g", "i.e")):
            return False
    return not _LIST_NUMBER.fullmatch(before)


def measure(text: str, citations: Sequence[tuple[int, int]]) -> Coverage:
    """Coverage of ``text`` whose citations sit at the sorted ``(start, end)`` spans given."""
    starts = [s for s, _ in citations]
    ends = [e for _, e in citations]
    sentences = sentence_spans(text)
    uncited: list[tuple[int, int]] = []
    for s, e in sentences:
        i = bisect_right(starts, e - 1) - 1  # last citation starting inside or before
        if not (i >= 0 and ends[i] > s):
            uncited.append((s, e))
    return Coverage(len(sentences), len(sentences) - len(uncited), uncited)
