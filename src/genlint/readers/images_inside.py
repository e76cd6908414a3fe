"""Images inside documents, read by OCR for personal data: a DOCX's media (``word/media/…``, and
any other ``media`` folder of the package) and its thumbnail (``docProps/thumbnail.*``), and the
images a PDF's text pages draw (a scanned page is read whole by :mod:`.pdf`). A number shown in
a photo of an ID card pasted into a contract is a leak like any other.

Each image read becomes one segment for the ``sensitive`` pack (a picture is not a template
slot), its findings placed at ``part: image``, ``image`` (the package member, or ``page N image
M``) and the OCR ``bbox`` in the image's pixels. Without the ``ocr`` extra, or for a format PIL
cannot decode (EMF, WMF, SVG), the images are listed as not read: one warning line, and the
document's ``images_not_read`` list (``mask --strict`` refuses such a file).
"""

from __future__ import annotations

import hashlib
import io
import os
import zipfile
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from . import Document, Segment
from .pdf_segments import SENSITIVE

__all__ = ["EmbeddedImage", "docx_images", "pdf_images", "read_images"]

PART = "image"
# what PIL decodes (after the magic bytes); other formats are listed as not read
_DECODABLE = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*", b"GIF8", b"BM")
_MEDIA_SUFFIXES = frozenset(
    (
        ".png",
        ".jpg",
        ".jpeg",
        ".jpe",
        ".tif",
        ".tiff",
        ".gif",
        ".bmp",
        ".emf",
        ".wmf",
        ".svg",
        ".wdp",
        ".jfif",
    )
)
# one image inside a document: a larger member is bad input rather than a silent skip
_MAX_IMAGE_BYTES = 64 << 20
MAX_IMAGES = 2_000


@dataclass
class EmbeddedImage:
    """One image inside a document: where it is (``name``) and its bytes (``data``), or for a
    PDF image object its decoded pixels (``pixels``, a PIL image)."""

    name: str
    data: bytes = b""
    pixels: Any = None
    page: int | None = None  # 1-based, for an image a PDF page draws


def is_docx_image(name: str) -> bool:
    lowered = name.lower()
    suffix = os.path.splitext(lowered)[1]
    in_media = "/media/" in f"/{lowered}" or lowered.startswith("docprops/thumbnail")
    return in_media and suffix in _MEDIA_SUFFIXES


def docx_images(path: str, data: bytes) -> list[EmbeddedImage]:
    """The media and thumbnail members of a DOCX package, bounded in number and size."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
    except zipfile.BadZipFile:
        return []  # the DOCX reader reports a damaged package itself
    with archive:
        members = [info for info in archive.infolist() if is_docx_image(info.filename)]
        if len(members) > MAX_IMAGES:
            raise InputError(f"{path}: {len(members)} images, over the {MAX_IMAGES}-image limit")
        out: list[EmbeddedImage] = []
        for info in members:
            if info.file_size > _MAX_IMAGE_BYTES:
                raise InputError(
                    f"{path}: {info.filename} expands to {info.file_size:,} bytes, "
                    f"over the {_MAX_IMAGE_BYTES:,}-byte limit for one image"
                )
            with archive.open(info) as member:
                blob = member.read(_MAX_IMAGE_BYTES + 1)
            if len(blob) > _MAX_IMAGE_BYTES:  # a member whose header lied about its size
                raise InputError(f"{path}: {info.filename} is over the size limit for one image")
            out.append(EmbeddedImage(info.filename, blob))
    return out


def pdf_images(path: str, data: bytes, skip: set[int]) -> list[EmbeddedImage]:
    """The images drawn by the PDF's pages outside ``skip`` (0-based: the scanned pages, read
    whole), decoded as stored (not as drawn: a scaled-down logo keeps its own pixels)."""
    import importlib.util

    if importlib.util.find_spec("pypdfium2") is None:
        return []  # without PDFium (the docs extra alone) a page's images are not enumerated
    import pypdfium2 as pdfium

    from .ocr import check_pixels

    try:
        pdf = pdfium.PdfDocument(data)
    except Exception:  # the PDF reader reports a file PDFium refuses itself
        return []
    out: list[EmbeddedImage] = []
    try:
        for index in range(len(pdf)):
            if index in skip:
                continue
            page = pdf[index]
            number = 0
            for obj in page.get_objects(max_depth=3):
                if obj.type != pdfium.raw.FPDF_PAGEOBJ_IMAGE:
                    continue
                number += 1
                name = f"page {index + 1} image {number}"
                width, height = obj.get_px_size()
                if width * height < 64 * 16:
                    continue  # a rule line or a dot: no text fits
                try:
                    check_pixels(path, name, width, height)
                    pixels = obj.get_bitmap(render=False).to_pil()
                except Exception:  # too large, or a filter PDFium cannot decode: not read
                    out.append(EmbeddedImage(name, page=index + 1))
                    continue
                out.append(EmbeddedImage(name, pixels=pixels, page=index + 1))
                if len(out) > MAX_IMAGES:
                    raise InputError(f"{path}: over {MAX_IMAGES} images")
            page.close()
    finally:
        pdf.close()
    return out


def read_images(path: str, images: list[EmbeddedImage]) -> tuple[list[Segment], list[str]]:
    """One ``sensitive`` segment per image read by OCR, and the names of the images not read
    (no OCR extra, or a format that cannot be decoded)."""
    from . import ocr

    if not images:
        return [], []
    if not ocr.available():
        return [], [image.name for image in images]
    segments: list[Segment] = []
    not_read: list[str] = []
    seen: dict[str, tuple[str, ocr.Places]] = {}
    for image in images:
        if image.pixels is None and _blank_jpeg(image.data):
            continue  # an empty thumbnail (python-docx's template has one): nothing drawn
        pixels = image.pixels if image.pixels is not None else _decode(path, image)
        if pixels is None:
            not_read.append(image.name)
            continue
        # a logo on every page is one image drawn many times: read once
        raw = image.data or pixels.tobytes()
        key = hashlib.sha256(raw).hexdigest() + repr(pixels.size)
        if key not in seen:
            seen[key] = ocr.recognise(pixels)
        text, places = seen[key]
        if not text:
            continue
        at: dict[str, Any] = {"part": PART, "image": image.name}
        if image.page is not None:
            at["page"] = image.page
        where = [(offset, {**at, **fields}) for offset, fields in places]
        # only the ``sensitive`` pack reads a picture's text, on its own page
        segments.append(Segment(text, places=where, packs=SENSITIVE, page=image.page))
    return segments, not_read


def add_images(doc: Document, images: list[EmbeddedImage]) -> Document:
    """``doc`` with its images' segments, and a warning naming the images not read."""
    segments, not_read = read_images(doc.path, images)
    doc.segments.extend(segments)
    if not_read:
        doc.warnings.append(not_read_note(not_read))
        doc.images_not_read.extend(not_read)
    return doc


def not_read_note(names: list[str]) -> str:
    """One line naming the images that were not read for personal data, and why."""
    from . import ocr

    why = (
        "OCR is not installed: pip install 'genlint[ocr]'"
        if not ocr.available()
        else "a format OCR cannot decode"
    )
    shown = ", ".join(names[:5]) + (f" and {len(names) - 5} more" if len(names) > 5 else "")
    return f"{len(names)} image(s) not read for personal data ({why}): {shown}"


def _blank_jpeg(data: bytes) -> bool:
    """A JPEG of one colour, told from an eighth-size decode (a tenth of the full one)."""
    if not data.startswith(b"\xff\xd8\xff"):
        return False
    from PIL import Image

    try:
        with Image.open(io.BytesIO(data)) as image:
            image.draft("RGB", (max(1, image.width // 8), max(1, image.height // 8)))
            extrema = image.convert("RGB").getextrema()
    except Exception:  # damaged: decoded (and reported) the ordinary way
        return False
    return all(high - low < 8 for low, high in extrema)


def _decode(path: str, image: EmbeddedImage) -> Any:
    """The first frame of a member as RGB, bounded like an image file; None for a format PIL
    does not decode (EMF, WMF, SVG)."""
    from .image import load_frame, open_image

    if not image.data.startswith(_DECODABLE):
        return None
    if image.data.startswith((b"GIF8", b"BM")):
        return _decode_other(path, image)
    try:
        with open_image(f"{path}: {image.name}", image.data) as opened:
            return load_frame(f"{path}: {image.name}", opened, 0)
    except InputError:  # damaged or too large to decode: listed as not read
        return None


def _decode_other(path: str, image: EmbeddedImage) -> Any:
    import warnings

    from PIL import Image

    from .ocr import check_pixels

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            opened = Image.open(io.BytesIO(image.data))
            check_pixels(f"{path}: {image.name}", "image", opened.width, opened.height)
            return opened.convert("RGB")
    except Exception:  # damaged or too large: the image is listed as not read
        return None
