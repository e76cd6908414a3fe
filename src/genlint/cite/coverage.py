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

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .. import _lazy_re as lazy_re
from ..readers.markdown import code_ranges

_MARKS = "\n。！？!?.…"
# A mark and the marks that continue its run: "。！" is one end, so is "?!" or "...".
_RUNS = {
    "\n": "",
    "。": "。！？",
    "！": "。！？",
    "？": "。！？",
    "!": "!?",
    "?": "!?",
    ".": ".",
    "…": "…",
}
_CLOSE = lazy_re.compile(r"[”’」』）)\"'\]】]*(?:[ \t]?(?:\[\d+\])+)?")
_CLOSE_START = frozenset("”’」』）)\"'[]】 \t")
# What may follow an end mark: a space, a closing quote or bracket (or any CJK character).
_AFTER_END = "\"'”’)）]」』】"
_LETTER = lazy_re.compile(r"[^\W\d_]")
_HEADING = lazy_re.compile(r"[ \t]*#{1,6}(?=[ \t\r\n]|$)")
_WORD_BEFORE = lazy_re.compile(r"([A-Za-z]+)$")
_LIST_NUMBER = lazy_re.compile(r"\s*\d{1,9}")
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
    """``(start, end)`` of every sentence, in order (headings and code excluded).

    End marks are located with ``str.find`` (a memchr-speed scan per mark, far faster than a
    regex stepping through every position); only full stops and ASCII ``!?`` need a closer
    look, so the cost is a few steps per sentence."""
    spans: list[tuple[int, int]] = []
    marks = _mark_positions(text)
    # the compiled patterns' methods, not their lazy stand-ins' (a call less per sentence)
    letter = lazy_re.compiled(_LETTER).search
    close_match = lazy_re.compiled(_CLOSE).match
    begin = 0  # start of the sentence being read
    line_start = 0
    skip_to = _heading_end(text, 0)  # a heading line is no sentence
    n = len(text)
    for seg_start, seg_end, after_block in _segments(text):
        if after_block:
            begin = line_start = seg_start
            skip_to = _heading_end(text, seg_start)
        lo = bisect_left(marks, seg_start)
        hi = bisect_left(marks, seg_end, lo)
        run_end = -1
        for s in marks[lo:hi]:
            if s < run_end or s < skip_to:
                continue  # inside a run of marks ("。。", "...") already read, or a heading
            ch = text[s]
            if ch == "\n":
                if s > begin and skip_to <= begin and letter(text, begin, s):
                    end = s
                    while end > begin and text[end - 1] in " \t\r\u3000":
                        end -= 1
                    spans.append((begin, end))
                begin = line_start = s + 1
                # Most lines start with no space or "#": the heading pattern is not tried.
                skip_to = (
                    begin if text[begin : begin + 1] not in " \t#" else _heading_end(text, begin)
                )
                continue
            e = s + 1
            run = _RUNS[ch]
            while e < seg_end and text[e] in run:
                e += 1
            run_end = e
            if ch not in "。！？…":
                # Most full stops are inside a token (1.8T, e.g, example.com): rejected here
                # as _is_end would, without the call.
                after = text[e] if e < n else ""
                if after and not (after.isspace() or after in _AFTER_END or ord(after) > 0x2E7F):
                    continue
                if not _is_end(text, s, e, line_start, n):
                    continue
            stop = e
            if stop < seg_end and text[stop] in _CLOSE_START:
                close = close_match(text, stop, seg_end)
                if close:
                    stop = close.end()
            # (a sentence that starts with a letter has one: no search for it)
            if stop - begin > 1 and (text[begin].isalpha() or letter(text, begin, stop)):
                spans.append((begin, stop))
            begin = stop
    # The text after the last boundary.
    if begin < n and skip_to <= begin and _LETTER.search(text, begin, n):
        end = n
        while end > begin and text[end - 1] in " \t\r\n\u3000":
            end -= 1
        if not _in_block(text, begin):
            spans.append((begin, end))
    return spans


def _segments(text: str) -> list[tuple[int, int, bool]]:
    """Spans of text outside code; ``True`` when the span starts right after a code block
    (a new line begins there)."""
    out: list[tuple[int, int, bool]] = []
    cursor, after_block = 0, False
    for start, end in code_ranges(text):
        if start > cursor:
            out.append((cursor, start, after_block))
        block = "\n" in text[start:end]
        cursor, after_block = end, block or (after_block and start == cursor)
    out.append((cursor, len(text), after_block))
    return out


def _in_block(text: str, pos: int) -> bool:
    return any(start <= pos < end and "\n" in text[start:end] for start, end in code_ranges(text))


def _heading_end(text: str, pos: int) -> int:
    """End of the line at ``pos`` when it is a markdown heading, else ``pos``."""
    if _HEADING.match(text, pos):
        nl = text.find("\n", pos)
        return len(text) if nl < 0 else nl
    return pos


def _mark_positions(text: str) -> list[int]:
    found: list[int] = []
    find = text.find
    for ch in _MARKS:
        i = find(ch)
        while i >= 0:
            found.append(i)
            i = find(ch, i + 1)
    found.sort()
    return found


def _is_end(text: str, s: int, e: int, line_start: int, n: int) -> bool:
    """Whether the run of ``.``, ``!`` or ``?`` at ``text[s:e]`` ends a sentence."""
    mark = text[s:e]
    after = text[e] if e < n else ""
    if after and not (after.isspace() or after in _AFTER_END or ord(after) > 0x2E7F):
        return False  # 1.8T, example.com, v1.2, a?b=1
    if mark[0] != ".":
        return True
    j = e
    while j < n and text[j] in " \t":
        j += 1
    if j < n and text[j].islower():
        return False
    if len(mark) > 1:
        return True
    before = text[max(line_start, s - 24) : s]
    word = _WORD_BEFORE.search(before)
    if word:
        w = word.group(1)
        if len(w) == 1 and w.isupper():
            return False  # an initial: J. Smith, U.S.
        if w.lower() in _ABBREVIATIONS or before.lower().endswith(("e.g", "i.e")):
            return False
    return not (s - line_start < 12 and _LIST_NUMBER.fullmatch(text, line_start, s))


def measure(text: str, citations: Sequence[Sequence[Any]]) -> Coverage:
    """Coverage of ``text`` whose citations sit at the sorted spans given: ``(start, end)``
    pairs, or any tuples that start with those two (a ``rewrite.Span``)."""
    sentences = sentence_spans(text)
    uncited: list[tuple[int, int]] = []
    i, n = 0, len(citations)
    for s, e in sentences:
        # Both lists are sorted: walk the citations along with the sentences.
        while i < n and citations[i][1] <= s:
            i += 1
        if not (i < n and citations[i][0] < e):
            uncited.append((s, e))
    return Coverage(len(sentences), len(sentences) - len(uncited), uncited)
