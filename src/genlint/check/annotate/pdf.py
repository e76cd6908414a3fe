"""A PDF review copy: a highlight annotation over each finding's characters with a popup note
holding its text; the pages' content is not changed (pypdf adds annotations only).

Where the characters are: PDFium's character boxes (``FPDFText_GetCharBox``). The check reads a
page with pypdf, so a finding's text is looked up in PDFium's text of the same page ignoring
white space (the extractors space text differently), the k-th finding of one text on a page at
the k-th place PDFium has it. A scanned page's finding carries the OCR line's ``bbox`` (PDF
points from the page's top left) and is highlighted there. Findings in places a page does not
show (metadata, links, form fields) and any text PDFium does not hold are listed in one note at
the top of the first page, never dropped.
"""

from __future__ import annotations

import io
from collections import defaultdict
from typing import Any

from ...errors import InputError, require
from .crops import span_box
from .notes import AUTHOR, Noted, hidden_summary

_YELLOW = "ffeb3b"
_NOTE_SIZE = (18.0, 18.0)
_POPUP_SIZE = (220.0, 90.0)


def annotate_pdf(path: str, data: bytes, items: list[Noted], lang: str) -> tuple[bytes, int]:
    """The review copy of ``data`` and how many notes it holds."""
    require("pypdfium2", "docs")
    import pypdfium2 as pdfium
    from pypdf import PdfReader, PdfWriter
    from pypdf.errors import PyPdfError

    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted:
            raise InputError(f"{path}: encrypted PDF; decrypt it before annotating")
        writer = PdfWriter(clone_from=reader)
        pdf = pdfium.PdfDocument(data)
    except (PyPdfError, pdfium.PdfiumError, ValueError) as exc:
        raise InputError(f"{path}: cannot open for annotating ({type(exc).__name__})") from None
    hidden: list[Noted] = []
    notes = 0
    try:
        by_page: dict[int, list[Noted]] = defaultdict(list)
        for item in items:
            f = item.finding
            if f.page is None or "field" in (f.location or {}) or not 1 <= f.page <= len(pdf):
                hidden.append(item)
            else:
                by_page[f.page].append(item)
        for number, page_items in sorted(by_page.items()):
            page = pdf[number - 1]
            placed = _place(page, page_items)
            for item, rects in placed:
                if not rects:
                    hidden.append(item)
                    continue
                _highlight(writer, number - 1, rects, item.note)
                notes += 1
    except pdfium.PdfiumError as exc:
        raise InputError(f"{path}: PDFium cannot read a page ({exc})") from None
    finally:
        pdf.close()
    if hidden:
        _sticky(writer, hidden_summary(hidden, lang))
        notes += len(hidden)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue(), notes


Rect = tuple[float, float, float, float]


def _place(page: Any, items: list[Noted]) -> list[tuple[Noted, list[Rect]]]:
    """Each item with the rectangles (one per text line) its span covers on ``page``."""
    textpage = page.get_textpage()
    count = textpage.count_chars()
    chars = [textpage.get_text_range(i, 1)[:1] or "\0" for i in range(count)] if count else []
    keep = [i for i, ch in enumerate(chars) if not ch.isspace() and ch != "\0"]
    squeezed = "".join(chars[i] for i in keep)
    _left, _bottom, _right, top = page.get_cropbox()
    left = _left
    seen: dict[str, int] = {}
    out: list[tuple[Noted, list[Rect]]] = []
    for item in items:
        f = item.finding
        bbox = span_box(f)
        if bbox is not None:  # OCR: the span's part of the recognised line's box
            x0, y0, x1, y1 = bbox
            out.append((item, [(left + x0, top - y1, left + x1, top - y0)]))
            continue
        needle = "".join(f.text.split())
        at = -1
        if needle:
            # the k-th finding of one text at its k-th place: search on from the last one
            at = squeezed.find(needle, seen.get(needle, -1) + 1)
            seen[needle] = at if at >= 0 else len(squeezed)
        if at < 0:
            out.append((item, []))
            continue
        boxes = [textpage.get_charbox(keep[i]) for i in range(at, at + len(needle))]
        out.append((item, _lines(boxes)))
    return out


def _lines(boxes: list[Rect]) -> list[Rect]:
    """Character boxes merged into one rectangle per line of text."""
    lines: list[list[float]] = []
    for x0, y0, x1, y1 in boxes:
        last = lines[-1] if lines else None
        # same line: the vertical ranges overlap by at least half the smaller height
        if last is not None and min(last[3], y1) - max(last[1], y0) > 0.5 * min(
            last[3] - last[1], y1 - y0
        ):
            last[0], last[1] = min(last[0], x0), min(last[1], y0)
            last[2], last[3] = max(last[2], x1), max(last[3], y1)
        else:
            lines.append([x0, y0, x1, y1])
    return [(a, b, c, d) for a, b, c, d in lines]


def _highlight(writer: Any, index: int, rects: list[Rect], note: str) -> None:
    from pypdf.annotations import Highlight, Popup
    from pypdf.generic import ArrayObject, FloatObject, NameObject, TextStringObject

    quads: list[float] = []
    for x0, y0, x1, y1 in rects:
        # upper left, upper right, lower left, lower right: the order viewers draw
        quads += [x0, y1, x1, y1, x0, y0, x1, y0]
    union = (
        min(r[0] for r in rects),
        min(r[1] for r in rects),
        max(r[2] for r in rects),
        max(r[3] for r in rects),
    )
    highlight = Highlight(
        rect=union,
        quad_points=ArrayObject(FloatObject(v) for v in quads),
        highlight_color=_YELLOW,
        printing=True,
    )
    highlight[NameObject("/Contents")] = TextStringObject(note)
    highlight[NameObject("/T")] = TextStringObject(AUTHOR)
    added = writer.add_annotation(page_number=index, annotation=highlight)
    x1, y1 = union[2], union[3]
    popup = Popup(rect=(x1, y1 - _POPUP_SIZE[1], x1 + _POPUP_SIZE[0], y1), parent=added, open=False)
    popup_added = writer.add_annotation(page_number=index, annotation=popup)
    added.get_object()[NameObject("/Popup")] = popup_added.indirect_reference


def _sticky(writer: Any, note: str) -> None:
    """A note icon at the top left of the first page."""
    from pypdf.annotations import Text
    from pypdf.generic import NameObject, TextStringObject

    box = writer.pages[0].cropbox
    x, y = float(box.left) + 4, float(box.top) - 4
    sticky = Text(rect=(x, y - _NOTE_SIZE[1], x + _NOTE_SIZE[0], y), text=note, open=False)
    sticky[NameObject("/T")] = TextStringObject(AUTHOR)
    writer.add_annotation(page_number=0, annotation=sticky)
