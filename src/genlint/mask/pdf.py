"""PDF: true redaction with PDFium (pypdfium2, Apache-2.0/BSD), not a box over live text.

For every page holding a finding, each text object that draws a character of the value is
removed from the page's content, and an image of exactly that object's area, rendered from the
page before the removal with black boxes over the value's characters, is put in its place. The
page looks as before with boxes where the values were; the rest of the page keeps its text
layer (only the lines that held a value become pixels).

What is redacted is what ``check`` finds in the text pypdf extracts (the reader's text), located
on the page through PDFium's text (the same values, ignoring white space), plus what the pack
finds in PDFium's text itself (a value only one extractor reads is still redacted; one pypdf
reads that PDFium's text cannot place refuses the file, naming the page). The pictures that
replace text are rendered without annotations or form fields, so no hidden value is baked in.

Every hidden place the reader reads (metadata, annotations, links, form fields, outlines,
attachments) is masked in the same pass from the same list (:mod:`.pdf_places`), and the file
is written from its root twice over, so it holds only reachable objects. Afterwards the output
is read again exactly as ``check`` reads it, and every string object in it is checked;
anything found means nothing is written. Refused as bad input: encrypted PDFs and rotated
pages. Pages without a text layer (scans) are redacted in their pixels first, by
:mod:`.scan_pdf`.
"""

from __future__ import annotations

import ctypes
import io
import logging
from typing import Any

from ..errors import GenlintError, InputError, require
from .core import Masker, Replacement
from .files import MaskedFile

__all__ = ["mask_pdf"]

log = logging.getLogger(__name__)

SCALE = 3.0  # render at 216 dpi: the pixels that replace a line of text stay crisp
PAD = 1.0  # points of box above and below a redacted character
PAD_X = 0.2  # … and beside it (neighbours stay readable)
REDACTED = "[redacted]"


def mask_pdf(path: str, data: bytes, masker: Masker, *, depth: int = 0) -> MaskedFile:
    """``data`` with every value redacted on the pages and masked in every hidden place;
    ``depth``: how deep inside attachments this file is."""
    from ..readers.pdf_segments import pdfium_place

    require("pypdfium2", "mask")
    require("PIL", "mask")
    import pypdfium2 as pdfium

    from .scan_pdf import redact_scanned_pages

    pages_text, scanned = _pypdf_pages(path, data)
    # pixels first (scanned pages, text pages' images): mask/scan_pdf.py
    redacted_pixels, scan_replacements, not_read = redact_scanned_pages(
        path, data, masker, scanned
    )
    if redacted_pixels is not data:  # rewritten: its text is read from the new file
        data = redacted_pixels
        pages_text, _ = _pypdf_pages(path, data)
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise InputError(f"{path}: corrupt PDF ({exc})") from None
    replacements: list[Replacement] = []
    values: set[str] = set()
    try:
        if len(pdf) != len(pages_text):
            raise InputError(f"{path}: PDFium sees {len(pdf)} pages, pypdf {len(pages_text)}; "
                             "mask cannot tell which text the file shows")
        for index, text in enumerate(pages_text):
            findings = masker.find(text)
            page = pdf[index]
            textpage = page.get_textpage()
            ptext = _page_text(textpage)
            own = masker.find(ptext.replace("\r", " "))
            spans = _spans(findings, own, ptext, path, index)
            if not spans:
                continue
            if page.get_rotation():
                raise InputError(f"{path}: page {index + 1} is rotated; mask cannot redact it")
            _redact(pdf, page, textpage, spans, path, index)
            for f in findings:
                values.add(f.text)
                replacements.append(_replacement(f.rule, f.start, f.end, text, index, None))
            # what only PDFium's text holds (pypdf reads it otherwise, or not at all)
            seen = {"".join(v.split()) for v in values}
            for f in own:
                if "".join(f.text.split()) not in seen:
                    values.add(f.text)
                    replacements.append(_replacement(f.rule, f.start, f.end, ptext, index,
                                                     pdfium_place(index + 1)))
        redacted = bool(replacements)
        if redacted:
            buffer = io.BytesIO()
            pdf.save(buffer)
    except pdfium.PdfiumError as exc:  # a damaged page pypdf read but PDFium cannot load
        raise InputError(f"{path}: corrupt PDF (PDFium: {exc})") from None
    finally:
        pdf.close()
    out, hidden = _rewrite(path, buffer.getvalue() if redacted else data, masker, depth,
                           redacted)
    replacements.extend(hidden)
    replacements[:0] = scan_replacements  # pixels of scanned pages, redacted first
    # nothing to rewrite is a claim too: the file is read as check reads it before it is
    # passed on unchanged (never "0 masked" on a file check finds a value in)
    _verify(path, out, masker, values)
    if not replacements:
        return MaskedFile(path, "pdf", data, [], images_not_read=not_read)
    return MaskedFile(path, "pdf", out, replacements,
                      ["PDF page values are redacted (a black box) whatever the style"]
                      if masker.style != "keep-ends" and redacted else [], not_read)


def _replacement(rule: str, start: int, end: int, text: str, index: int,
                 location: dict[str, Any] | None) -> Replacement:
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return Replacement(rule, start, end, REDACTED, end - start, line, column, index + 1, None,
                       location)


def _pypdf_pages(path: str, data: bytes) -> tuple[list[str], list[int]]:
    """Each page's text as the check's reader extracts it, and the scanned pages (0-based:
    no text layer, redacted in their pixels by :mod:`.scan_pdf`); encrypted files refused."""
    from ..readers.pdf import text_pages

    return text_pages(
        path, data, encrypted="encrypted PDF; mask cannot redact it (decrypt it first)"
    )


def _page_text(textpage: Any) -> str:
    n = textpage.count_chars()
    text = textpage.get_text_range(0, n) if n else ""
    if len(text) != n:  # characters outside the BMP: one at a time keeps indexes aligned
        text = "".join((textpage.get_text_range(i, 1) or "\0")[:1] for i in range(n))
    return text


def _spans(findings: list[Any], own: list[Any], ptext: str, path: str,
           index: int) -> list[tuple[int, int]]:
    """Character ranges on the PDFium page of the reader's findings (located ignoring white
    space) and of the pack's own findings in PDFium's text. A value pypdf reads that PDFium's
    text does not hold: the extractors disagree, and mask refuses the file."""
    spans = [(f.start, f.end) for f in own]
    keep = [i for i, ch in enumerate(ptext) if not ch.isspace()]
    squeezed = "".join(ptext[i] for i in keep)
    for f in findings:
        needle = "".join(f.text.split())
        if not needle:
            continue
        at = squeezed.find(needle)
        found = False
        while at >= 0:
            spans.append((keep[at], keep[at + len(needle) - 1] + 1))
            found = True
            at = squeezed.find(needle, at + 1)
        if not found:
            raise InputError(f"{path}: page {index + 1}: pypdf reads a {f.rule} value that "
                             "PDFium's text does not hold (the extractors disagree); mask "
                             "cannot redact it, nothing written")
    return sorted(set(spans))


def _handle(obj: Any) -> int:
    return int(ctypes.cast(obj.raw, ctypes.c_void_p).value or 0)


def _redact(pdf: Any, page: Any, textpage: Any, spans: list[tuple[int, int]], path: str,
            index: int) -> None:
    import pypdfium2 as pdfium
    import pypdfium2.raw as raw
    from PIL import ImageDraw

    boxes: list[tuple[float, float, float, float]] = []
    objects: dict[int, Any] = {}
    for start, end in spans:
        for i in range(start, end):
            obj = textpage.get_textobj(i)
            if obj is None:
                continue
            objects.setdefault(_handle(obj), obj)
            boxes.append(textpage.get_charbox(i, loose=True))
    top_level = {_handle(o): o for o in page.get_objects(max_depth=1)}
    left, _bottom, _right, top = page.get_cropbox()
    image = page.render(scale=SCALE, may_draw_forms=False, draw_annots=False).to_pil().convert("RGB")
    draw = ImageDraw.Draw(image)

    def px(x: float, y: float) -> tuple[float, float]:
        return (x - left) * SCALE, (top - y) * SCALE

    for x0, y0, x1, y1 in boxes:
        a, b = px(x0 - PAD_X, y1 + PAD)
        c, d = px(x1 + PAD_X, y0 - PAD)
        draw.rectangle((a, b, c, d), fill=(0, 0, 0))
    for handle, obj in objects.items():
        if handle not in top_level:
            raise InputError(f"{path}: page {index + 1} draws a value inside a form XObject; "
                             "mask cannot redact it")
        x0, y0, x1, y1 = (float(v) for v in obj.get_bounds())
        x0, y0, x1, y1 = x0 - PAD, y0 - PAD, x1 + PAD, y1 + PAD
        a, b = px(x0, y1)
        c, d = px(x1, y0)
        crop = image.crop((int(a), int(b), int(c + 0.999), int(d + 0.999)))
        page.remove_obj(obj)
        obj.close()
        picture = pdfium.PdfImage.new(pdf)
        bitmap = pdfium.PdfBitmap.from_pil(crop)
        picture.set_bitmap(bitmap)
        w, h = crop.size[0] / SCALE, crop.size[1] / SCALE
        picture.set_matrix(pdfium.PdfMatrix().scale(w, h).translate(left + int(a) / SCALE,
                                                                    top - int(b) / SCALE - h))
        page.insert_obj(picture)
    for x0, y0, x1, y1 in boxes:  # the boxes once more as vector rectangles on top
        rect = raw.FPDFPageObj_CreateNewRect(x0 - PAD_X, y0 - PAD, x1 - x0 + 2 * PAD_X,
                                             y1 - y0 + 2 * PAD)
        raw.FPDFPageObj_SetFillColor(rect, 0, 0, 0, 255)
        raw.FPDFPath_SetDrawMode(rect, raw.FPDF_FILLMODE_WINDING, False)
        raw.FPDFPage_InsertObject(page.raw, rect)
    page.gen_content()


def _rewrite(path: str, data: bytes, masker: Masker, depth: int,
             redacted: bool) -> tuple[bytes, list[Replacement]]:
    """The file rewritten by pypdf from its root, every hidden place masked
    (:mod:`.pdf_places`), then once more from the root: only reachable objects are written
    (the old content streams, a removed XMP packet or appearance stay behind)."""
    from pypdf import PdfReader, PdfWriter

    from .pdf_places import mask_places

    try:
        writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    except Exception as exc:
        raise InputError(f"{path}: corrupt PDF ({type(exc).__name__})") from None
    replacements = mask_places(path, writer, masker, depth)
    if not replacements and not redacted:
        return data, []
    try:
        first = io.BytesIO()
        writer.write(first)
        again = PdfWriter(clone_from=PdfReader(io.BytesIO(first.getvalue())))
        out = io.BytesIO()
        again.write(out)
    except Exception as exc:  # an object tree pypdf cannot write back (nesting, damage)
        raise InputError(f"{path}: the masked PDF cannot be written ({type(exc).__name__}); "
                         "nothing written") from None
    return out.getvalue(), replacements


def _verify(path: str, out: bytes, masker: Masker, values: set[str]) -> None:
    """The written file read again as ``check`` reads it (the same places, both extractors)
    and every string object in it: nothing found and no redacted value left, or nothing is
    written."""
    from ..readers.pdf import read_pdf
    from .pdf_verify import leftover_strings

    try:
        doc = read_pdf(path, out, ocr=False)
    except InputError as exc:
        raise GenlintError(f"{path}: the masked file cannot be read back ({exc}); "
                           "nothing written") from None
    squeezed = {"".join(v.split()) for v in values}
    for seg in doc.segments:
        flat = "".join(seg.text.split())
        found = masker.find(seg.text)
        if found or any(v in flat for v in squeezed):
            where = seg.places[0][1].get("field") if seg.places and seg.places[0][1] else None
            where = where or "page text"
            raise GenlintError(f"{path}: a value is still readable after masking ({where}); "
                               "nothing written")
    left = leftover_strings(out, masker)
    if left:
        raise GenlintError(f"{path}: {left[0]} still holds personal data after masking "
                           "(a place mask does not rewrite); nothing written")
