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
            scale = render_scale(path, index, *page.get_size())
            image = page.render(scale=scale).to_pil()
            out[index] = recognise(image, scale)
            page.close()
    finally:
        pdf.close()
    return out


#: the most pixels a page is rendered to for OCR: 40 million (an A0 poster at 2x; 120 MB as RGB)
MAX_RENDER_PIXELS = 40_000_000
#: below this scale (36 dpi) text is too small to recognise: such a page is refused instead
_MIN_SCALE = 0.5


def render_scale(path: str, index: int, width: float, height: float) -> float:
    """The scale to render a page of ``width`` × ``height`` points at: the usual 2x, less for a
    page so large that 2x would pass :data:`MAX_RENDER_PIXELS` (a 4.5 KB PDF can declare a page
    of 200 × 200 inches: 11 GB at 2x), decided before anything is rendered. InputError when
    even a legible scale would be too large."""
    area = max(float(width), 1.0) * max(float(height), 1.0)
    scale = min(_PDF_SCALE, (MAX_RENDER_PIXELS / area) ** 0.5)
    if scale < _MIN_SCALE:
        raise InputError(
            f"{path}: page {index + 1} is {width:.0f} x {height:.0f} points; rendering it for OCR "
            f"would take over {MAX_RENDER_PIXELS:,} pixels, so it is not read"
        )
    return scale
