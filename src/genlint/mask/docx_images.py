"""Masking the images inside a DOCX: each media image that OCR reads personal data in is redacted
in its pixels (:mod:`.images`) and written back in its own format without metadata; the package
thumbnail (``docProps/thumbnail.*``, a small picture of the first page, too small for OCR to be
trusted) is replaced by a blank image of the same size (Word draws a new one when the file is
next saved). The other members are copied byte
for byte, in order, with their compression. Images that cannot be read (no OCR, EMF/WMF) are
listed; ``mask --strict`` refuses the file then.
"""

from __future__ import annotations

import importlib.util
import io
import zipfile
from typing import Any

from ..errors import InputError
from .core import Replacement

__all__ = ["redact_docx_images"]


def redact_docx_images(
    path: str, data: bytes, masker: Any
) -> tuple[bytes, list[Replacement], list[str], list[str]]:
    """``data`` with its images redacted, what was covered, warnings, and the images not read."""
    from ..readers import check_zip, ocr
    from ..readers.docx import _max_expanded
    from ..readers.images_inside import _decode, docx_images

    # the package is copied member by member below: bound what the members really inflate to
    # first (issue 25), as the DOCX reader does
    check_zip(path, data, _max_expanded())
    images = docx_images(path, data)
    if not images:
        return data, [], [], []
    thumbnails = [i for i in images if i.name.lower().startswith("docprops/thumbnail")]
    media = [i for i in images if i not in thumbnails]
    new: dict[str, bytes] = {}
    replacements: list[Replacement] = []
    not_read: list[str] = []
    if importlib.util.find_spec("PIL") is None:
        return data, [], [], [i.name for i in images]
    if not ocr.available():
        not_read, media = [i.name for i in media], []
    from .images import Redacted, redact_image

    for image in media:
        pixels = _decode(path, image)
        if pixels is None:
            not_read.append(image.name)
            continue
        fmt = _format(image.data)
        done: Redacted = redact_image(
            f"{path}: {image.name}", pixels, masker, where="image", written_as=fmt
        )
        if not done.replacements:
            continue
        for r in done.replacements:
            r.location = {**(r.location or {}), "image": image.name}
        new[image.name] = _encode(done.image, fmt)
        replacements.extend(done.replacements)
    for thumb in thumbnails:  # blanked with or without OCR: it needs no reading
        new[thumb.name] = _blank(path, thumb.data)
    if not new:
        return data, [], [], not_read
    warnings = []
    if thumbnails:
        warnings.append("the package thumbnail was replaced by a blank image")
    return _rewrite(path, data, new), replacements, warnings, not_read


def _format(data: bytes) -> str:
    if data.startswith(b"\xff\xd8\xff"):
        return "JPEG"
    if data.startswith((b"II*\x00", b"MM\x00*")):
        return "TIFF"
    return "PNG"  # PNG, and GIF or BMP written back as PNG under their own name


def _encode(image: Any, fmt: str) -> bytes:
    from .images import _SAVE, _clean

    buffer = io.BytesIO()
    _clean(image, image.mode).save(buffer, fmt, **_SAVE[fmt])
    return buffer.getvalue()


def _blank(path: str, data: bytes) -> bytes:
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as thumb:
            size, fmt = thumb.size, thumb.format or "PNG"
    except Exception:  # an undecodable thumbnail: an empty white PNG under its name
        size, fmt = (8, 8), "PNG"
    if size[0] * size[1] > 4_000_000:
        raise InputError(f"{path}: the package thumbnail is {size[0]}x{size[1]} pixels")
    buffer = io.BytesIO()
    Image.new("RGB", size, "white").save(buffer, fmt if fmt in ("PNG", "JPEG") else "PNG")
    return buffer.getvalue()


def _rewrite(path: str, data: bytes, new: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            blob = new.get(info.filename)
            if blob is None:
                dst.writestr(info, src.read(info.filename))
            else:
                fresh = zipfile.ZipInfo(info.filename, date_time=info.date_time)
                fresh.compress_type = zipfile.ZIP_DEFLATED
                dst.writestr(fresh, blob)
    return out.getvalue()
