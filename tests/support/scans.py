"""Scans rendered in the test: text in Noto Sans CJK (Debian's fonts-noto-cjk, which
``make system-deps`` installs) on a white page, optionally at another resolution, turned by a
few degrees and with speckle noise, as a flatbed scanner or a phone camera leaves a page. Used
by the OCR tests and by benchmarks/bench_ocr.py, so both read the same kind of page."""

from __future__ import annotations

import io
import random
from collections.abc import Sequence
from pathlib import Path
from typing import Any

CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")

# valid check digits: the sensitive rules verify them
PHONE = "13812345678"
RESIDENT_ID = "11010519491231002X"
LINES = (
    "甲方：北京远景科技有限公司",
    f"联系电话：{PHONE}",
    f"身份证号：{RESIDENT_ID}",
    "本合同自双方签字之日起生效。",
)
# an A4 contract page: the lines above among body text, 12 pt at the page's dpi
A4_BODY = (
    "第一条 合同标的",
    "乙方应按照甲方的要求，在约定期限内完成系统的设计、开发、测试与交付工作。",
    "第二条 合同价款",
    "本合同总价款为人民币壹拾贰万元整（¥120,000.00），含税。",
    "第三条 付款方式",
    "甲方应在合同签订后十个工作日内支付合同总价款的百分之三十作为预付款。",
    "第四条 保密义务",
    "双方对在履行本合同过程中知悉的对方商业秘密负有保密义务。",
)


def font(size: int) -> Any:
    from PIL import ImageFont

    if not CJK_FONT.exists():
        import pytest

        pytest.fail(f"{CJK_FONT} missing: run `make system-deps` (fonts-noto-cjk)")
    return ImageFont.truetype(str(CJK_FONT), size, index=2)  # index 2: Simplified Chinese


def render(
    lines: Sequence[str] = LINES,
    *,
    dpi: int = 72,
    width_in: float = 12.5,
    angle: float = 0.0,
    noise: float = 0.0,
    seed: int = 0,
) -> Any:
    """A grey-free RGB scan of ``lines`` (28 px text at 72 dpi, scaled with ``dpi``), turned by
    ``angle`` degrees, with a fraction ``noise`` of pixels flipped to dark or light."""
    from PIL import Image, ImageDraw

    k = dpi / 72
    size = int(28 * k)
    width = int(width_in * 72 * k)
    image = Image.new("RGB", (width, int((60 + 70 * len(lines)) * k)), "white")
    draw = ImageDraw.Draw(image)
    face = font(size)
    for i, line in enumerate(lines):
        draw.text((40 * k, (30 + 70 * i) * k), line, font=face, fill="black")
    return _degraded(image, angle, noise, seed)


def a4_page(
    dpi: int = 150, angle: float = 0.0, noise: float = 0.0, seed: int = 0, points: int = 12
) -> Any:
    """An A4 page (8.27 x 11.69 in) of contract text in ``points``-point type holding a phone
    number and an ID."""
    from PIL import Image, ImageDraw

    k = dpi / 72
    image = Image.new("RGB", (int(595 * k), int(842 * k)), "white")
    draw = ImageDraw.Draw(image)
    face = font(int(points * k))
    lines = [*LINES[:3], *A4_BODY, *A4_BODY, LINES[3]]
    for i, line in enumerate(lines):
        draw.text((60 * k, (60 + points * 2.2 * i) * k), line, font=face, fill="black")
    return _degraded(image, angle, noise, seed)


def _degraded(image: Any, angle: float, noise: float, seed: int) -> Any:
    """``image`` as a scanner leaves it: turned by ``angle`` degrees (same size, white corners)
    and with a share ``noise`` of its pixels flipped to dark or light specks."""
    from PIL import Image

    if angle:
        image = image.rotate(angle, resample=Image.BICUBIC, expand=False, fillcolor="white")
    if noise:
        rng = random.Random(seed)
        pixels = image.load()
        for _ in range(int(image.width * image.height * noise)):
            x, y = rng.randrange(image.width), rng.randrange(image.height)
            pixels[x, y] = (40, 40, 40) if rng.random() < 0.5 else (235, 235, 235)
    return image


def scanned_pdf(path: Path, images: Sequence[Any], dpi: int = 72) -> Path:
    """An image-only PDF, as a scanner writes it: no text layer at all."""
    first, *rest = images
    first.save(path, save_all=True, append_images=list(rest), resolution=dpi)
    return path


def pdf_image_streams(data: bytes) -> list[bytes]:
    """The raw stream of every image object in a PDF, reachable or not (an object walk)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(data))
    numbers = set(reader.xref_objStm)
    for table in reader.xref.values():
        numbers |= set(table)
    out = []
    for number in sorted(numbers):
        obj = reader.get_object(number)
        if hasattr(obj, "get") and obj.get("/Subtype") == "/Image":
            out.append(obj.get_data())
    return out
