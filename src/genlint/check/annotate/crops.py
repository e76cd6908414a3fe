"""Pictures of what OCR read: a crop of a scanned page (a PDF page rendered by PDFium, or an
image file's frame) around a finding's ``bbox``, with the box drawn, as a PNG. The HTML report
shows one beside each finding on a scan, and an image's review copy shows the whole page with
every box. Bounded: pages are rendered once per file, at most :data:`MAX_SIDE` pixels a side.
"""

from __future__ import annotations

import io
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ...findings import Finding

# a rendered page's longer side, in pixels
MAX_SIDE = 1600
# points (PDF) or pixels (image) of page kept around a box in a crop
MARGIN = 24.0
_BOX = (220, 40, 40)
_COVER = (128, 128, 128)  # a masked personal value


class Pages:
    """The pages of one scanned file as PIL images, rendered on first use, with the factor
    from ``bbox`` units (PDF points, image pixels) to the image's pixels."""

    def __init__(self, path: str) -> None:
        self.path = path
        self.kind = Path(path).suffix.lower()
        self._pdf: Any = None
        self._image: Any = None
        self._cache: dict[int, tuple[Any, float]] = {}

    def page(self, number: int) -> tuple[Any, float]:
        """(RGB image, pixels per bbox unit) of page ``number`` (1-based)."""
        if number in self._cache:
            return self._cache[number]
        if self.kind == ".pdf":
            import pypdfium2 as pdfium

            if self._pdf is None:
                self._pdf = pdfium.PdfDocument(self.path)
            page = self._pdf[number - 1]
            width, height = page.get_size()
            scale = min(2.0, MAX_SIDE / max(width, height))
            image = page.render(scale=scale, draw_annots=False).to_pil().convert("RGB")
        else:
            from PIL import Image

            if self._image is None:
                self._image = Image.open(self.path)
            self._image.seek(number - 1)
            frame = self._image.convert("RGB")
            scale = min(1.0, MAX_SIDE / max(frame.size))
            image = frame.resize((round(frame.width * scale), round(frame.height * scale)))
        self._cache = {number: (image, scale)}  # one page at a time: findings come in order
        return image, scale

    def close(self) -> None:
        if self._pdf is not None:
            self._pdf.close()
        if self._image is not None:
            self._image.close()


@contextmanager
def pages_of(path: str) -> Iterator[Pages]:
    pages = Pages(path)
    try:
        yield pages
    finally:
        pages.close()


def span_box(finding: Finding) -> list[float] | None:
    """The part of the finding's OCR line box its span takes: OCR gives one box per line, and
    the span's share of the line's display cells (a CJK character two, a Latin one, as printed
    text runs) gives its left and right edges. The whole line's box when the line is not known
    whole; None without a box."""
    from ..reporters._cells import cells

    bbox = (finding.location or {}).get("bbox")
    if bbox is None:
        return None
    x0, y0, x1, y1 = (float(v) for v in bbox)
    line = finding.source_line
    # the engine shows a line whole up to 160 characters; a longer one may be a window
    if not line or len(line) >= 160 or finding.end <= finding.start:
        return [x0, y0, x1, y1]
    col = finding.source_column
    total = cells(line) or 1
    left = cells(line[:col]) / total
    right = cells(line[: col + finding.end - finding.start]) / total
    return [x0 + (x1 - x0) * left, y0, x0 + (x1 - x0) * right, y1]


def box_in_pixels(bbox: list[float], scale: float) -> tuple[int, int, int, int]:
    x0, y0, x1, y1 = bbox
    return round(x0 * scale), round(y0 * scale), round(x1 * scale), round(y1 * scale)


def crop_png(
    pages: Pages, number: int, bbox: list[float], cover: Sequence[list[float]] = ()
) -> bytes:
    """A PNG of page ``number`` around ``bbox`` with the box drawn, and each box of ``cover``
    (the masked personal values of the page) filled, so the picture shows no more than the
    masked text does."""
    from PIL import ImageDraw

    image, scale = pages.page(number)
    x0, y0, x1, y1 = box_in_pixels(bbox, scale)
    pad = round(MARGIN * scale)
    area = (
        max(0, x0 - pad),
        max(0, y0 - pad),
        min(image.width, x1 + pad),
        min(image.height, y1 + pad),
    )
    piece = image.crop(area)
    draw = ImageDraw.Draw(piece)
    for box in cover:
        # half a line's height of slack each side: the span's edges are estimated
        slack = (box[3] - box[1]) / 2
        c0, c1, c2, c3 = box_in_pixels([box[0] - slack, box[1], box[2] + slack, box[3]], scale)
        draw.rectangle((c0 - area[0], c1 - area[1], c2 - area[0], c3 - area[1]), fill=_COVER)
    draw.rectangle((x0 - area[0], y0 - area[1], x1 - area[0], y1 - area[1]), outline=_BOX, width=3)
    out = io.BytesIO()
    piece.save(out, "PNG", optimize=True)
    return out.getvalue()


def page_png(pages: Pages, number: int, boxes: list[list[float]]) -> tuple[bytes, float]:
    """A PNG of the whole page ``number`` with every box drawn, and its pixels per unit."""
    from PIL import ImageDraw

    image, scale = pages.page(number)
    image = image.copy()
    draw = ImageDraw.Draw(image)
    for bbox in boxes:
        draw.rectangle(box_in_pixels(bbox, scale), outline=_BOX, width=3)
    out = io.BytesIO()
    image.save(out, "PNG", optimize=True)
    return out.getvalue(), scale
