"""Table cells as form fields: a label cell followed by an empty cell (docs/commands/check.md, "Table cells are
fields"), in Markdown pipe tables (``| Name | |``) and HTML tables
(``<td>Name</td><td>&nbsp;</td>``).

A label cell with its colon (``| 姓名： | |``) is found by the colon rule of :mod:`.fields`; this
module finds the label cells without one. A Markdown header row (the row above the ``|---|``
line) names columns, so its empty cells are not fields; nor is a cell that holds a sentence or a
number. DOCX tables reach the rules as one line per cell paragraph; the reader's places say
which cell a line is in, so :func:`docx_cells` finds a bare label beside an empty cell and
:class:`CellSpans` lets the colon rule see that a label ends its cell with nothing beside it.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator, Mapping, Sequence
from itertools import pairwise
from typing import Any

from .... import _lazy_re as lazy_re
from .. import Hit
from .blanks import BLANK_CHARS, BLANK_CLASS, BLANK_SET
from .field_labels import GROUP_ENDINGS, is_label
from .signature import signature_label

# an empty cell, | |: rows are looked at only around one (a literal first: re skips to it fast)
_EMPTY_CELL = lazy_re.compile(rf"\|[{BLANK_CLASS}]*(?:&nbsp;)?[{BLANK_CLASS}]*\|")
_ROW_REACH = 4000
_SEPARATOR = lazy_re.compile(
    r"[ \t]*\|?[ \t]*:?-{3,}:?[ \t]*(?:\|[ \t]*:?-{3,}:?[ \t]*)*\|?[ \t\r]*$"
)
_HTML_PAIR = lazy_re.compile(
    r"<t([dh])\b[^<>]{0,200}>([^<>\n]{1,60})</t[dh]>[ \t\r\n]*"
    rf"<td\b[^<>]{{0,200}}>(?:[{BLANK_CLASS}]|&nbsp;|&#160;|<br ?/?>)*</td>",
)


def _blank(cell: str) -> bool:
    stripped = cell.replace("&nbsp;", "").replace("&#160;", "").replace("<br>", "")
    return all(ch in BLANK_SET for ch in stripped)


def empty_cells(text: str) -> Iterator[Hit]:
    """Label cells followed by an empty cell; a label is what the colon rule takes for one
    (:func:`.field_labels.is_label`)."""
    yield from _markdown(text)
    for m in _HTML_PAIR.finditer(text):
        label = m.group(2).strip()
        if (
            label
            and not label.endswith(("：", ":"))
            and is_label(label)
            and not signature_label("".join(label.split()))
        ):
            start = m.start(2) + (len(m.group(2)) - len(m.group(2).lstrip()))
            yield Hit(start, start + len(label), message=f"empty table field '{label}'")


def _markdown(text: str) -> Iterator[Hit]:
    n = len(text)
    done = -1  # the start of the last row looked at: a row with two empty cells once
    for empty in _EMPTY_CELL.finditer(text):
        # a table row is a line of bounded length: a bar in a huge line costs its reach only
        lo = max(0, empty.start() - _ROW_REACH)
        row_start = text.rfind("\n", lo, empty.start()) + 1
        if row_start == done or (row_start == 0 and lo > 0):
            continue
        done = row_start
        line_end = text.find("\n", empty.end(), empty.end() + _ROW_REACH)
        if line_end < 0:
            if n - empty.end() > _ROW_REACH:
                continue
            line_end = n
        row = text[row_start:line_end].strip(" \t\r")
        if not (row.startswith("|") and row.endswith("|")):
            continue  # a bar in prose, not a table row
        nxt_end = text.find("\n", line_end + 1, line_end + 1 + _ROW_REACH)
        nxt_end = min(n, line_end + 1 + _ROW_REACH) if nxt_end < 0 else nxt_end
        if _SEPARATOR.match(text, row_start, line_end) or _SEPARATOR.match(
            text, min(line_end + 1, n), nxt_end
        ):
            continue  # the separator itself, or the header row above it
        first_bar = text.index("|", row_start, line_end)
        cells: list[tuple[int, int]] = []
        pos = first_bar + 1
        while True:
            bar = text.find("|", pos, line_end)
            if bar < 0:
                break
            if bar > 0 and text[bar - 1] == "\\":
                pos = bar + 1
                continue  # an escaped bar is cell content
            cells.append((pos, bar))
            pos = bar + 1
        for (a, b), (c, d) in pairwise(cells):
            cell = text[a:b]
            label = cell.strip()
            if not label or label.endswith(("：", ":")) or not _blank(text[c:d]):
                continue
            core = label.replace("**", "").strip()
            # a Signature | | row is where the signer signs (signature.signature_label)
            if core and is_label(core) and not signature_label("".join(core.split())):
                start = a + cell.index(label)
                yield Hit(start, start + len(label), message=f"empty table field '{label}'")


class CellSpans:
    """The DOCX table cells of a text, from the reader's places: which cell holds an offset,
    and whether the rest of that cell and the row's next cell are empty."""

    def __init__(self, places: Sequence[tuple[int, Mapping[str, Any]]], length: int) -> None:
        self.cells = _cells(places, length)
        self.starts = [start for _, _, start, _ in self.cells]

    def column_above(self, pos: int, rows: int) -> list[tuple[int, int]]:
        """(start, end) of the cells above the one holding ``pos`` in its column (same table, same
        cell number), nearest last, at most ``rows`` of them; [] outside a table."""
        k = bisect.bisect_right(self.starts, pos) - 1
        if k < 0 or self.cells[k][1] is None or pos > self.cells[k][3]:
            return []
        (part, table, row), cell = self.cells[k][0], self.cells[k][1]
        above: list[tuple[int, int]] = []
        for j in range(k - 1, -1, -1):
            (part2, table2, row2), cell2, start2, end2 = self.cells[j]
            if (part2, table2) != (part, table) or row2 is None:
                break
            if cell2 == cell and row2 != row:
                above.append((start2, end2))
                if len(above) >= rows:
                    break
        return above[::-1]

    def in_cell(self, pos: int) -> bool:
        """Whether ``pos`` lies in a table cell (not a body paragraph)."""
        k = bisect.bisect_right(self.starts, pos) - 1
        return k >= 0 and self.cells[k][1] is not None and pos <= self.cells[k][3]

    def empty_after(self, text: str, pos: int, blanks: str) -> bool:
        k = bisect.bisect_right(self.starts, pos) - 1
        if k < 0:
            return False
        row, cell, _, end = self.cells[k]
        if cell is None or pos > end or text[pos:end].strip(blanks + "\r\n"):
            return False  # not in a cell, or the cell goes on after it
        if k + 1 < len(self.cells):
            row2, cell2, start2, end2 = self.cells[k + 1]
            if row2 == row and cell2 == cell + 1 and text[start2:end2].strip(blanks + "\r\n"):
                return False  # the value stands in the next cell
        return True


def _cells(
    places: Sequence[tuple[int, Mapping[str, Any]]], length: int
) -> list[tuple[tuple[Any, ...], Any, int, int]]:
    """(row key, cell number or None, start, end) per cell or body paragraph run, in order;
    the paragraphs of one cell are consecutive places and make one entry."""
    cells: list[tuple[tuple[Any, ...], Any, int, int]] = []
    for i, (offset, fields) in enumerate(places):
        end = places[i + 1][0] if i + 1 < len(places) else length
        cell = fields.get("cell")
        row = (fields.get("part"), fields.get("table"), fields.get("row"))
        if cells and cells[-1][0] == row and cells[-1][1] == cell and cell is not None:
            cells[-1] = (row, cell, cells[-1][2], end)
        else:
            cells.append((row, cell, offset, end))
    return cells


def docx_cells(text: str, spans: CellSpans) -> Iterator[Hit]:
    """DOCX table rows: a cell holding only a label (no colon: the colon rule has those)
    beside an empty cell of the same row. The reader's places (``spans``) tell cells from
    lines. A label naming a group (当事人信息) heads the cells below it, not a value."""
    for (row, cell, start, end), (row2, cell2, start2, end2) in pairwise(spans.cells):
        if cell is None or row2 != row or cell2 != cell + 1:
            continue
        label = text[start:end].strip(_STRIP)
        if not label or "\n" in label or "：" in label or ":" in label or label[-1] in _BOXES:
            continue  # several lines, a field with its colon (the colon rule's), a tick box
        if text[start2:end2].strip(_STRIP):
            continue  # the value is there
        core = label.replace("**", "")
        if is_label(core) and not core.endswith(GROUP_ENDINGS):
            at = start + text[start:end].index(label)
            yield Hit(at, at + len(label), message=f"empty table field '{label}'")


_BOXES = frozenset("□☐■☑☒")
_STRIP = BLANK_CHARS + "\r\n"
