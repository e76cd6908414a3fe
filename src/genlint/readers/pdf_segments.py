"""What the ``sensitive`` pack reads in a PDF beyond pypdf's page text: PDFium's text where it
differs, and every hidden place of :mod:`.pdf_places` (attachments read as files, bounded).

Each becomes a :class:`~genlint.readers.Segment` that only the ``sensitive`` pack reads, with
``part`` naming the place and ``field`` which one (``Info /Author``, ``page 2 annotation 1
link``), so a person can find it; a place on a page carries that page.
"""

from __future__ import annotations

import os
from typing import Any

from ..errors import GenlintError, InputError, MissingExtraError
from . import Segment

__all__ = ["MAX_DEPTH", "SENSITIVE", "hidden_segments", "inside", "pdfium_pages", "pdfium_place", "squeezed"]

SENSITIVE = frozenset({"sensitive"})
# attachments inside attachments read at most this deep
MAX_DEPTH = 3


def squeezed(text: str) -> str:
    return "".join(text.split())


def hidden_segments(
    path: str, data: bytes, reader: Any, pages: list[str], depth: int, *, ocr: bool = True
) -> tuple[list[Segment], list[str]]:
    """The sensitive-only segments of a PDF and the warnings reading them gave (``ocr``:
    whether an attached PDF's pages without a text layer go to OCR, as for the file itself)."""
    from .pdf_places import places

    segments: list[Segment] = []
    warnings: list[str] = []
    segments.extend(_pdfium_segments(path, data, pages, warnings))
    try:
        slots = list(places(reader))
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
    except Exception as exc:  # a damaged object tree: no place may pass unread
        raise InputError(f"{path}: corrupt PDF ({type(exc).__name__} in its objects)") from None
    for slot in slots:
        if slot.kind == "file":
            segments.extend(_attachment(path, slot, depth, warnings, ocr))
        elif slot.text.strip():
            segments.append(Segment(slot.text, places=[(0, _where(slot.part, slot.label))],
                                    packs=SENSITIVE, page=slot.page))
    return segments, warnings


def _where(part: str, label: str) -> dict[str, Any]:
    return {"part": part, "field": label}


def pdfium_pages(data: bytes) -> list[str] | None:
    """Each page's text as PDFium extracts it (None without pypdfium2)."""
    try:
        import pypdfium2 as pdfium
    except ImportError:
        return None
    out: list[str] = []
    pdf = pdfium.PdfDocument(data)
    try:
        for page in pdf:
            textpage = page.get_textpage()
            n = textpage.count_chars()
            out.append((textpage.get_text_range(0, n) if n else "").replace("\r", ""))
    finally:
        pdf.close()
    return out


def _pdfium_segments(path: str, data: bytes, pages: list[str],
                     warnings: list[str]) -> list[Segment]:
    """Per page, the lines of PDFium's text that pypdf's text does not hold on one line
    (white space aside): where the extractors disagree, each is read."""
    try:
        texts = pdfium_pages(data)
    except Exception as exc:  # PDFium refuses a file pypdf reads: say so, never pass unread
        raise InputError(f"{path}: corrupt PDF (PDFium: {type(exc).__name__})") from None
    if texts is None:
        warnings.append("PDFium text not read (install pypdfium2: pip install 'genlint[docs]')")
        return []
    if len(texts) != len(pages):
        raise InputError(f"{path}: PDFium sees {len(texts)} pages, pypdf {len(pages)}; "
                         "genlint cannot tell which text the file shows")
    out: list[Segment] = []
    for number, (ptext, text) in enumerate(zip(texts, pages, strict=True), start=1):
        known = "\0".join(squeezed(line) for line in text.split("\n"))
        extra = [line for line in ptext.split("\n")
                 if squeezed(line) and squeezed(line) not in known]
        if extra:
            out.append(Segment("\n".join(extra), places=[(0, pdfium_place(number))],
                               packs=SENSITIVE, page=number))
    return out


def pdfium_place(page: int) -> dict[str, Any]:
    """Where a value only PDFium's text holds is: its page, read by the other extractor."""
    return {"extractor": "pdfium", "field": f"page {page} text (PDFium)"}


def _attachment(path: str, slot: Any, depth: int, warnings: list[str],
                ocr: bool) -> list[Segment]:
    from . import READERS, read_data
    from .pdf import read_pdf

    suffix = os.path.splitext(slot.name)[1].lower()
    # the inner path names the place, never the attachment's own name (it may be personal)
    inner = f"{path}#{slot.label.replace(' ', '-')}{suffix}"
    if suffix not in READERS:  # an .xlsx or a .bin read as text would be noise, not a check
        warnings.append(f"{slot.label} not read: genlint does not read "
                        f"{suffix or 'a file without a suffix'} files")
        return []
    if depth + 1 > MAX_DEPTH:
        raise InputError(f"{path}: {slot.label} nests attachments deeper than {MAX_DEPTH} "
                         "levels; genlint does not read it")
    try:
        if suffix == ".pdf":
            doc = read_pdf(inner, slot.data, depth + 1, ocr=ocr)
        else:
            doc = read_data(inner, slot.data)
    except MissingExtraError as exc:
        warnings.append(f"{slot.label} not read: {exc}")
        return []
    except GenlintError:
        raise
    except Exception as exc:  # a damaged attached file its reader did not expect
        raise InputError(f"{path}: {slot.label} cannot be read (damaged: "
                         f"{type(exc).__name__})") from None
    warnings.extend(f"{slot.label}: {w}" for w in doc.warnings)
    return [Segment(seg.text, pointer=seg.pointer, locate=seg.locate,
                    places=[(0, _where("attachment", inside(slot.label, seg)))],
                    packs=SENSITIVE, page=None)
            for seg in doc.segments if seg.text.strip()]


def inside(label: str, seg: Segment) -> str:
    """``attachment 1 > Info /Author``: where in an attached file a segment is."""
    fields = seg.places[0][1] if seg.places else {}
    inner = fields.get("field") or fields.get("part")
    return f"{label} > {inner}" if inner and inner != "body" else label
