"""OCR for scanned PDF pages and images: RapidOCR (PP-OCRv4 Chinese and English models shipped
inside the ``rapidocr-onnxruntime`` wheel, so it works offline) with pypdfium2 rendering PDF
pages. Both come with the ``ocr`` extra; docs/commands/check.md "What the readers see" says why
this pair.

Each recognised line becomes one line of the page's text with its place: ``bbox``
(``[x0, y0, x1, y1]`` from the top-left corner: PDF points for a PDF page, pixels for an
image) and ``confidence``.
"""

from __future__ import annotations

import functools
import importlib.util
import logging
from typing import Any

from ..errors import InputError

log = logging.getLogger(__name__)

# PDF pages are rendered at 2x (144 dpi): small print stays legible to the recogniser
_PDF_SCALE = 2.0
_NEEDED = ("rapidocr_onnxruntime", "pypdfium2", "PIL")

Places = list[tuple[int, dict[str, Any]]]


def available() -> bool:
    """Whether the ``ocr`` extra is installed (checked without importing it)."""
    return all(importlib.util.find_spec(name) is not None for name in _NEEDED)


def require_ocr(path: str, what: str) -> None:
    if not available():
        raise InputError(
            f"{path}: {what} no text layer; reading it needs OCR: pip install 'genlint[ocr]'"
        )


@functools.lru_cache(maxsize=1)
def _engine() -> Any:
    from rapidocr_onnxruntime import RapidOCR

    # its own logger prints to stderr at INFO; the library stays quiet unless asked
    logging.getLogger("RapidOCR").setLevel(logging.WARNING)
    return RapidOCR()


def recognise(image: Any, scale: float = 1.0) -> tuple[str, Places]:
    """Text lines of a PIL image, top to bottom, and the box and confidence of each."""
    import numpy as np

    result, _ = _engine()(np.asarray(image.convert("RGB")))
    lines: list[str] = []
    places: Places = []
    pos = 0
    # RapidOCR returns lines in reading order (top to bottom, then left to right)
    for box, text, confidence in result or []:
        xs = [float(x) for x, _ in box]
        ys = [float(y) for _, y in box]
        bbox = [round(v / scale, 1) for v in (min(xs), min(ys), max(xs), max(ys))]
        places.append((pos, {"bbox": bbox, "confidence": round(float(confidence), 3)}))
        lines.append(str(text))
        pos += len(str(text)) + 1
    return "\n".join(lines), places


def ocr_pdf_pages(path: str, data: bytes, indexes: list[int]) -> dict[int, tuple[str, Places]]:
    """OCR the pages at ``indexes`` (0-based) of a PDF; bboxes in PDF points."""
    from .pdf import pages_list

    require_ocr(path, f"{pages_list(indexes)} {'has' if len(indexes) == 1 else 'have'}")
    import pypdfium2 as pdfium

    out: dict[int, tuple[str, Places]] = {}
    try:
        pdf = pdfium.PdfDocument(data)
    except Exception as exc:  # pdfium reads some files pypdf reads, not all
        raise InputError(f"{path}: cannot render scanned pages for OCR ({exc})") from None
    try:
        for index in indexes:
            page = pdf[index]
            image = page.render(scale=_PDF_SCALE).to_pil()
            out[index] = recognise(image, _PDF_SCALE)
            page.close()
    finally:
        pdf.close()
    return out
