"""Masking pixels: each ``sensitive`` finding that OCR reads in an image is covered by an opaque
box drawn into the image itself (never an overlay), and the image is written again without its
metadata (EXIF, XMP, ICC profile, comments, embedded thumbnails), which can hold personal data
OCR never sees.

A finding covers part of an OCR line; its box is that part of the line's box, measured by the
characters' widths (a CJK character is about twice a digit), widened by one character each side.
The redacted image is then read again by OCR (as it will be written: a JPEG after its lossy
round trip); what is still found is covered by its whole line's box, and an image that still
reads as personal data after that is refused: nothing is written.

``--style label`` and ``token`` draw the label or token in white inside the box (the token is
recorded in the vault); ``keep-ends`` and ``stars`` leave the box plain, because kept digits on
pixels would be a value half-shown. ``unmask`` cannot bring pixels back: the vault lets a person
look a token up, the image stays redacted.
"""

from __future__ import annotations

import io
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..errors import GenlintError
from .core import Masker, Replacement
from .files import MaskedFile

__all__ = ["Redacted", "mask_image", "redact_image"]

PAD = 3  # pixels of box above and below a line
_ROUNDS = 3
# a label needs a font with CJK glyphs; Noto CJK where the system has it (Debian: fonts-noto-cjk)
_FONTS = (
    "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc",
    "/usr/share/fonts/noto-cjk/NotoSansCJK-Regular.ttc",
    "/System/Library/Fonts/PingFang.ttc",
)
_SAVE: dict[str, dict[str, Any]] = {
    "PNG": {"optimize": False},
    "JPEG": {"quality": 92},
    "TIFF": {"compression": "tiff_deflate"},
}


@dataclass
class Redacted:
    """One image after redaction: its pixels, what was covered, and notes for the user."""

    image: Any
    replacements: list[Replacement] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


def redact_image(
    path: str,
    image: Any,
    masker: Masker,
    *,
    scale: float = 1.0,
    page: int | None = None,
    where: str = "image",
    written_as: str = "PNG",
) -> Redacted:
    """Cover every finding OCR reads in ``image`` (RGB); ``scale`` converts pixels to the
    units of the replacements' ``bbox`` (PDF points for a rendered page). Raises GenlintError
    when a finding is still readable after the last round."""
    from ..readers.ocr import recognise

    text, places = recognise(image)
    findings = masker.find(text)
    if not findings:
        return Redacted(image)
    result = masker.apply(text, findings, None)
    lines = _lines(text, places)
    out = image.copy()
    for r in result.replacements:
        covered = _span_boxes(text, lines, r.start, r.end)
        for box in covered:
            _cover(out, box, r.replacement if masker.style in ("label", "token") else "")
        r.page = page
        r.location = {"part": where, "bbox": _union(covered, scale)} if covered else {"part": where}
        if masker.style not in ("label", "token"):
            r.replacement = "[redacted]"
    for _ in range(_ROUNDS):
        left_text, left_places = recognise(_as_written(out, written_as))
        left = masker.find(left_text)
        if not left:
            return Redacted(out, result.replacements)
        left_lines = _lines(left_text, left_places)
        for f in left:
            for start, end, line_box in left_lines:
                if start < f.end and f.start < end:
                    _cover(out, _pad(line_box, out.size, PAD * 2), "")
    where_page = f"page {page}" if page is not None else "the image"
    raise GenlintError(
        f"{path}: personal data on {where_page} is still readable by OCR after "
        "redaction; nothing written"
    )


def mask_image(path: str, data: bytes, masker: Masker) -> MaskedFile:
    """A PNG, JPEG or TIFF (every frame) with its findings covered and its metadata dropped."""
    from ..readers.image import frame_count, load_frame, open_image

    frames: list[Any] = []
    replacements: list[Replacement] = []
    with open_image(path, data) as image:
        fmt = image.format if image.format in _SAVE else "PNG"
        count = frame_count(path, image)
        modes: list[str] = []
        for frame in range(count):
            rgb = load_frame(path, image, frame)
            modes.append(image.mode)
            done = redact_image(
                path, rgb, masker, page=frame + 1 if count > 1 else None, written_as=fmt
            )
            frames.append(done.image)
            replacements.extend(done.replacements)
    cleaned = [_clean(frame, mode) for frame, mode in zip(frames, modes, strict=True)]
    buffer = io.BytesIO()
    if len(cleaned) > 1:
        cleaned[0].save(buffer, fmt, save_all=True, append_images=cleaned[1:], **_SAVE[fmt])
    else:
        cleaned[0].save(buffer, fmt, **_SAVE[fmt])
    note = "image metadata (EXIF, XMP, ICC profile, comments, thumbnails) removed"
    return MaskedFile(path, "image", buffer.getvalue(), replacements, [note])


def _lines(
    text: str, places: list[tuple[int, dict[str, Any]]]
) -> list[tuple[int, int, list[float]]]:
    """(start, end, pixel box) of each OCR line in ``text``."""
    out: list[tuple[int, int, list[float]]] = []
    for offset, fields in places:
        end = text.find("\n", offset)
        out.append((offset, len(text) if end < 0 else end, list(fields["bbox"])))
    return out


def _width(ch: str) -> float:
    return 1.0 if unicodedata.east_asian_width(ch) in ("W", "F") else 0.55


def _span_boxes(
    text: str, lines: list[tuple[int, int, list[float]]], start: int, end: int
) -> list[tuple[float, float, float, float]]:
    """The part of each line's box that draws ``text[start:end]``, one character wider each
    side (OCR boxes are approximate; covering a neighbour is better than leaving a digit)."""
    boxes: list[tuple[float, float, float, float]] = []
    for line_start, line_end, (x0, y0, x1, y1) in lines:
        a, b = max(start, line_start), min(end, line_end)
        if a >= b:
            continue
        widths = [_width(ch) for ch in text[line_start:line_end]] or [1.0]
        unit = (x1 - x0) / sum(widths)
        left = x0 + unit * sum(widths[: a - line_start])
        right = x0 + unit * sum(widths[: b - line_start])
        em = unit * 1.0
        boxes.append((max(x0, left - em) - PAD, y0 - PAD, min(x1, right + em) + PAD, y1 + PAD))
    return boxes


def _union(boxes: list[tuple[float, float, float, float]], scale: float) -> list[float]:
    x0 = min(b[0] for b in boxes)
    y0 = min(b[1] for b in boxes)
    x1 = max(b[2] for b in boxes)
    y1 = max(b[3] for b in boxes)
    return [round(v / scale, 1) for v in (x0, y0, x1, y1)]


def _pad(box: list[float], size: tuple[int, int], pad: float) -> tuple[float, float, float, float]:
    x0, y0, x1, y1 = box
    return (max(0.0, x0 - pad), max(0.0, y0 - pad), min(size[0], x1 + pad), min(size[1], y1 + pad))


def _cover(image: Any, box: tuple[float, float, float, float], label: str) -> None:
    from PIL import ImageDraw

    draw = ImageDraw.Draw(image)
    x0, y0, x1, y1 = (int(v) for v in box)
    draw.rectangle((x0, y0, x1, y1), fill=(0, 0, 0))
    size = int((y1 - y0) * 0.6)
    while label and size >= 8:
        font = _font(size)
        if draw.textlength(label, font=font) <= x1 - x0 - 4:
            draw.text((x0 + 2, y0 + (y1 - y0 - size) / 2), label, font=font, fill=(255, 255, 255))
            return
        size = int(size * 0.8)  # a label wider than the box would cover a neighbour's pixels


def _font(size: int) -> Any:
    from PIL import ImageFont

    for name in _FONTS:
        if Path(name).exists():
            return ImageFont.truetype(name, size, index=2 if name.endswith(".ttc") else 0)
    return ImageFont.load_default(size)


def _as_written(image: Any, fmt: str) -> Any:
    """The pixels a reader will decode: a JPEG's lossy round trip, else the image itself."""
    if fmt != "JPEG":
        return image
    from PIL import Image

    buffer = io.BytesIO()
    image.save(buffer, "JPEG", **_SAVE["JPEG"])
    return Image.open(io.BytesIO(buffer.getvalue())).convert("RGB")


def _clean(image: Any, mode: str) -> Any:
    """A new image holding only the pixels: no info, EXIF, XMP, ICC profile or thumbnail."""
    from PIL import Image

    target = "L" if mode in ("L", "1", "LA", "I;16") else "RGB"
    pixels = image.convert(target)
    clean = Image.new(target, pixels.size)
    clean.paste(pixels)  # a new image: its info is empty whatever ``image`` carried
    return clean
