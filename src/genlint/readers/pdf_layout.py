"""Labels whose value the PDF's layout puts elsewhere (docs/commands/check.md, "a label whose value the layout
puts elsewhere"): an invoice generator often draws every label of a block first and every value
afterwards, or prints a column header (``Invoice Date:``) with its value in the box below, so
the text layer reads ``名称：`` at the end of a line while the name stands beside it on the page.
The text alone cannot tell that label from an empty form field; the positions can.

:func:`labels_with_values` looks at every colon of a text-layer page that ends its line in the
text (nothing but blanks after it), and asks PDFium where the characters around it are drawn.
The label has a value when, in the same region of the page,

- the nearest run of text to the right on the same line is not itself a label (``Name:`` beside
  ``Date:`` in a form is two empty fields, beside ``Sanjay`` one filled one), or
- the nearest line below, starting under the label, is not a label (a column header with its
  value in the box below), or
- the text that follows the colon in drawing order is the next line of the same paragraph (a
  value wrapped to the next line).

A run made only of rule characters (``____``, ``……``) is a line to write on, not a value, so a
blank form stays a blank form. Colons are matched back to the reader's (pypdf's) text by the
label before them, in order on the page. Without pypdfium2, or on a page too large to measure,
nothing is reported: the rules then decide from the text alone, as before.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = ["labels_with_values"]

# a page with more characters than this is not measured (bounded time on crafted files)
_MAX_CHARS = 40_000
# candidate colons measured per page at most (a page of nothing but labels)
_MAX_COLONS = 400
# characters measured per document at most: the pages after that are decided from the text
_MAX_TOTAL = 200_000
_LABEL_MOST = 24  # characters before a label's colon at most
_KEY = 12  # characters of a label compared when matching PDFium's colons to pypdf's
_COLONS = "：:"
_RULE_CHARS = frozenset("_＿-—－–.…·")
_BLANKS = " \t\u3000\xa0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
# a colon that ends its line in the reader's text (only blanks after it)
_LINE_END_COLON = re.compile(f"[{_COLONS}][{_BLANKS}]*(?=\r?\n|$)")


def labels_with_values(
    data: bytes, pages: Sequence[str], starts: Sequence[int], skip: Iterable[int] = ()
) -> frozenset[int]:
    """Offsets (into the pages joined as the reader joins them, ``starts`` their first
    offsets) of the colons that end a line of ``pages`` while the page shows the label's
    value elsewhere; ``skip``: 0-based pages not to measure (read by OCR)."""
    skipped = set(skip)
    wanted = {
        i: [m.start() for m in _LINE_END_COLON.finditer(text)]
        for i, text in enumerate(pages)
        if i not in skipped and (":" in text or "：" in text)
    }
    wanted = {i: found for i, found in wanted.items() if found}
    if not wanted:
        return frozenset()
    try:
        import pypdfium2 as pdfium
    except ImportError:
        return frozenset()
    out: set[int] = set()
    try:
        pdf = pdfium.PdfDocument(data)
    except Exception:  # PDFium refuses some files pypdf reads: decide from the text alone
        return frozenset()
    budget = _MAX_TOTAL
    try:
        for index, colons in wanted.items():
            if index >= len(pdf) or budget <= 0:
                break
            filled, measured = _page_filled(pdf[index], budget)
            budget -= measured
            if not filled:
                continue
            for offset in _match(pages[index], colons, filled):
                out.add(starts[index] + offset)
    except Exception:  # a damaged page: what was measured stands, the rest is text-only
        pass
    finally:
        pdf.close()
    return frozenset(out)


class _Char:
    __slots__ = ("bottom", "ch", "left", "right", "top")

    def __init__(self, ch: str, box: tuple[float, float, float, float]) -> None:
        self.ch = ch
        self.left, self.bottom, self.right, self.top = box

    @property
    def height(self) -> float:
        return max(self.top - self.bottom, 1.0)

    @property
    def middle(self) -> float:
        return (self.top + self.bottom) / 2


def _page_filled(page: Any, budget: int) -> tuple[list[tuple[str, bool]], int]:
    """Every colon of the page in drawing order: its label key and whether the layout shows
    a value for it (the reader may order the text differently: every colon is measured), and
    how many characters the page has (none measured beyond ``budget``)."""
    textpage = page.get_textpage()
    try:
        n = textpage.count_chars()
        if n == 0 or n > min(_MAX_CHARS, budget):
            return [], n
        text = textpage.get_text_range(0, n)
        if len(text) != n:  # PDFium merged or split characters: offsets would not line up
            return [], n
        import ctypes

        import pypdfium2 as pdfium

        x, y = ctypes.c_double(), ctypes.c_double()
        origin, font_size, raw = (
            pdfium.raw.FPDFText_GetCharOrigin,
            pdfium.raw.FPDFText_GetFontSize,
            textpage.raw,
        )
        refs = (ctypes.byref(x), ctypes.byref(y))
        chars: list[_Char | None] = []
        for i, ch in enumerate(text):
            if ch.isspace():
                chars.append(None)
                continue
            box = textpage.get_charbox(i, loose=True)
            size = float(font_size(raw, i))
            chars.append(_char(ch, box, size, y.value if origin(raw, i, *refs) else None))
        width = page.get_width()
    finally:
        textpage.close()
    layout = _Layout([c for c in chars if c is not None])
    out: list[tuple[str, bool]] = []
    for i, ch in enumerate(text):
        if ch not in _COLONS or chars[i] is None:
            continue
        j = i + 1
        while j < n and text[j] in _BLANKS:
            j += 1
        if len(out) >= _MAX_COLONS:
            break
        colon = chars[i]
        assert colon is not None
        label = layout.run_left_of(colon)
        key = _key("".join(c.ch for c in label[:-1]))
        out.append((key, _has_value(layout, label, colon, chars, j, width)))
    return out, n


def _char(
    ch: str, box: tuple[float, float, float, float], size: float, baseline: float | None
) -> _Char:
    """A character's box on its line: its horizontal extent as drawn, and vertically the
    line its baseline and font size make (a glyph's own box is too small for punctuation and
    for fonts without metrics, which would put ``：`` off its line)."""
    left, bottom, right, top = box
    size = max(size if size > 1.0 else 0.0, top - bottom, 1.0)
    if baseline is not None:
        bottom, top = baseline - 0.25 * size, baseline + 0.85 * size
    return _Char(ch, (left, bottom, right, top))


def _has_value(
    layout: _Layout,
    label: list[_Char],
    colon: _Char,
    chars: list[_Char | None],
    after: int,
    width: float,
) -> bool:
    size = colon.height
    right = layout.run_right_of(colon, limit=colon.right + 0.35 * width)
    if right and (_is_value(right) or not _is_label(right)):
        return _is_value(right)  # a value, or a rule line to write on
    # nothing beside it, or the next label (a header row: the values may stand below)
    below = layout.run_below(label[0].left - size, colon.right + 6 * size, colon, size)
    if below:
        return _is_value(below)
    # drawing order: the next character drawn is on the next line (a wrapped value)
    nxt = next((c for c in chars[after:] if c is not None), None)
    if nxt is not None and colon.bottom - 2.2 * size <= nxt.middle < colon.bottom:
        return _is_value(layout.run_from(nxt))
    return False


def _is_label(run: list[_Char]) -> bool:
    """A run that starts with a short label and its colon (``Due Date:``, ``纳税人识别号：…``):
    the next field, not this label's value, whatever stands after its colon; a line of text
    that only ends in a colon, or a time (``10:30``), is not one."""
    text = "".join(c.ch for c in run).strip()
    first = min((i for i in (text.find(":"), text.find("：")) if i >= 0), default=-1)
    if not 0 < first <= _LABEL_MOST or text[first - 1].isdigit():
        return False
    return any(ch.isalpha() for ch in text[:first])


def _is_value(run: list[_Char]) -> bool:
    text = "".join(c.ch for c in run).strip()
    if not text or all(ch in _RULE_CHARS for ch in text):
        return False  # a rule line to write on
    return not _is_label(run)  # the next label: this one has no value


def _key(label: str) -> str:
    return "".join(ch for ch in label if not ch.isspace() and ch not in _BLANKS)[-_KEY:]


class _Layout:
    """The page's drawn characters sorted by their vertical middle, for band queries."""

    def __init__(self, chars: list[_Char]) -> None:
        self.chars = sorted(chars, key=lambda c: c.middle)
        self.middles = [c.middle for c in self.chars]

    def _band(self, low: float, high: float) -> list[_Char]:
        lo = bisect.bisect_left(self.middles, low)
        hi = bisect.bisect_right(self.middles, high)
        return self.chars[lo:hi]

    def _line_of(self, char: _Char) -> list[_Char]:
        """The characters on ``char``'s line (their middles within its box), left to right."""
        line = [c for c in self._band(char.bottom, char.top) if c.bottom <= char.middle <= c.top]
        return sorted(line, key=lambda c: c.left)

    def run_left_of(self, colon: _Char) -> list[_Char]:
        """The run of characters ending with ``colon``: going left while the gaps stay under
        a character's height (a wider gap separates columns)."""
        line = [c for c in self._line_of(colon) if c.left < colon.left or c is colon]
        run = [colon]
        for c in reversed(line):
            if c is colon or c.left >= run[0].left:
                continue  # overlapping boxes (kerning, fake bold): one character at a time
            if c.right < run[0].left - colon.height * 1.2:
                break
            run.insert(0, c)
        return run

    def run_right_of(self, colon: _Char, limit: float) -> list[_Char]:
        line = [c for c in self._line_of(colon) if c.left >= colon.right - 0.5 and c is not colon]
        if not line or line[0].left > limit:
            return []
        return self._run(line, colon.height)

    def run_below(self, left: float, right: float, colon: _Char, size: float) -> list[_Char]:
        """The first line below ``colon`` (within two line heights) with text between
        ``left`` and ``right``: the run starting nearest the label's left edge."""
        cands = [
            c
            for c in self._band(colon.bottom - 2.2 * size, colon.bottom - 0.3 * size)
            if c.right > left and c.left < right
        ]
        if not cands:
            return []
        top = max(cands, key=lambda c: c.middle)
        line = self._line_of(top)
        start = min((c for c in line if c.right > left), key=lambda c: c.left, default=None)
        if start is None:
            return []
        return self._run([c for c in line if c.left >= start.left], size)

    def run_from(self, char: _Char) -> list[_Char]:
        return self._run([c for c in self._line_of(char) if c.left >= char.left], char.height)

    @staticmethod
    def _run(line: list[_Char], size: float) -> list[_Char]:
        run = [line[0]]
        for c in line[1:]:
            if c.left > run[-1].right + size * 1.2:
                break
            run.append(c)
        return run


def _match(text: str, colons: list[int], measured: list[tuple[str, bool]]) -> list[int]:
    """The offsets among ``colons`` (line-ending colons of the reader's page text) whose
    label, matched in order to PDFium's line-ending colons, has a value in the layout."""
    out: list[int] = []
    pos = 0  # the measured colons are consumed in order: the k-th label to the k-th
    for colon in colons:
        line_start = text.rfind("\n", 0, colon) + 1
        before = re.split(r"[：:]| {2,}|\t", text[line_start:colon])[-1]
        key = _key(before)
        if not key:
            continue
        for k in range(pos, len(measured)):
            other, filled = measured[k]
            if other and (other.endswith(key) or key.endswith(other)):
                pos = k + 1
                if filled:
                    out.append(colon)
                break
    return out
