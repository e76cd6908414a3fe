"""PDF: true redaction with PDFium (pypdfium2, Apache-2.0/BSD), not a box over live text.

For every page holding a finding, each text object that draws a character of the value is
removed from the page's content, and an image of exactly that object's area, rendered from the
page before the removal with black boxes over the value's characters, is put in its place. The
page looks as before with boxes where the values were; the rest of the page keeps its text
layer (only the lines that held a value become pixels). The file is then rewritten by pypdf from
its root, so the old content streams, no longer referenced, are not carried over, and link
annotations whose target holds a value are dropped.

What is redacted is what ``check`` finds in the text pypdf extracts (the reader's text), located
on the page through PDFium's text (the same values, ignoring white space), plus what the pack
finds in PDFium's text itself. Afterwards both extractions are checked again; anything found
means nothing is written. Refused as bad input: encrypted PDFs and rotated pages. Pages
without a text layer (scans) are redacted in their pixels first, by :mod:`.scan_pdf`.
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


def mask_pdf(path: str, data: bytes, masker: Masker) -> MaskedFile:
    require("pypdfium2", "mask")
    require("PIL", "mask")
    import pypdfium2 as pdfium

    from .scan_pdf import redact_scanned_pages

    data, scan_replacements = redact_scanned_pages(path, data, masker)  # pixels: mask/scan_pdf.py
    pages_text = _pypdf_pages(path, data, refuse_scans=False)
    try:
        pdf = pdfium.PdfDocument(data)
    except pdfium.PdfiumError as exc:
        raise InputError(f"{path}: corrupt PDF ({exc})") from None
    replacements: list[Replacement] = []
    values: set[str] = set()
    try:
        for index, text in enumerate(pages_text):
            findings = masker.find(text)
            page = pdf[index]
            textpage = page.get_textpage()
            ptext = _page_text(textpage)
            spans = _spans(findings, ptext, masker)
            if not spans:
                continue
            if page.get_rotation():
                raise InputError(f"{path}: page {index + 1} is rotated; mask cannot redact it")
            _redact(pdf, page, textpage, spans, path, index)
            for f in findings:
                values.add(f.text)
                line = text.count("\n", 0, f.start) + 1
                column = f.start - (text.rfind("\n", 0, f.start) + 1) + 1
                replacements.append(Replacement(f.rule, f.start, f.end, REDACTED,
                                                f.end - f.start, line, column, index + 1))
        if not replacements:
            return MaskedFile(path, "pdf", data, scan_replacements)
        buffer = io.BytesIO()
        pdf.save(buffer)
    finally:
        pdf.close()
    out = _rewrite(buffer.getvalue(), values)
    _verify(path, out, masker, values)
    return MaskedFile(path, "pdf", out, scan_replacements + replacements,
                      ["PDF values are redacted (a black box) whatever the style"]
                      if masker.style != "keep-ends" else [])


def _pypdf_pages(path: str, data: bytes, *, refuse_scans: bool = True) -> list[str]:
    """Each page's text as the check's reader extracts it; encrypted and scanned files refused."""
    from ..readers.pdf import pages_list, text_pages

    pages, scanned = text_pages(
        path, data, encrypted="encrypted PDF; mask cannot redact it (decrypt it first)"
    )
    if scanned and refuse_scans:
        raise InputError(f"{path}: {pages_list(scanned)} ha{'s' if len(scanned) == 1 else 've'} "
                         "no text layer (a scan); mask cannot redact scanned pages")
    return pages


def _page_text(textpage: Any) -> str:
    n = textpage.count_chars()
    text = textpage.get_text_range(0, n) if n else ""
    if len(text) != n:  # characters outside the BMP: one at a time keeps indexes aligned
        text = "".join((textpage.get_text_range(i, 1) or "\0")[:1] for i in range(n))
    return text


def _spans(findings: list[Any], ptext: str, masker: Masker) -> list[tuple[int, int]]:
    """Character ranges on the PDFium page of the reader's findings and of the pack's own
    findings in PDFium's text."""
    spans = [(f.start, f.end) for f in masker.find(ptext.replace("\r", " "))]
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
            raise GenlintError(f"cannot locate {f.rule} on the page (text extraction differs); "
                               "nothing written")
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
    image = page.render(scale=SCALE, may_draw_forms=False).to_pil().convert("RGB")
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


def _rewrite(data: bytes, values: set[str]) -> bytes:
    """The file rewritten by pypdf from its root: unreferenced objects (the old content
    streams) are left behind; link annotations holding a value are dropped."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    squeezed = {"".join(v.split()) for v in values}
    for page in writer.pages:
        annots = page.get("/Annots")
        if annots is None:
            continue
        kept = [a for a in annots.get_object() if not _holds(a.get_object(), squeezed)]
        if len(kept) != len(annots.get_object()):
            from pypdf.generic import ArrayObject, NameObject

            page[NameObject("/Annots")] = ArrayObject(kept)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _holds(annotation: Any, values: set[str]) -> bool:
    blob = repr(annotation)
    return any(v in blob for v in values)


def _verify(path: str, out: bytes, masker: Masker, values: set[str]) -> None:
    """Both extractions of the written file: nothing found, no value left."""
    import pypdfium2 as pdfium

    # a page that held mostly values is now mostly pixels: not a scan to refuse
    texts = _pypdf_pages(path, out, refuse_scans=False)
    doc = pdfium.PdfDocument(out)
    try:
        texts += [_page_text(page.get_textpage()) for page in doc]
    finally:
        doc.close()
    squeezed = {"".join(v.split()) for v in values}
    for text in texts:
        flat = "".join(text.split())
        if masker.find(text) or any(v in flat for v in squeezed):
            raise GenlintError(f"{path}: a value is still extractable after redaction; "
                               "nothing written")
