"""Images (PNG, JPEG, TIFF) read by OCR (:mod:`.ocr`, the ``ocr`` extra). Each frame of a
multi-page TIFF is a page. Without OCR an image is bad input: it has no text to check, and a
gate must not pass a scanned page it never read."""

from __future__ import annotations

import io
from typing import Any

from ..errors import InputError
from . import Document, Segment

_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")
# Pixels in one frame: a scan of an A3 page at 600 dpi is about 70 million
_MAX_PIXELS = 89_000_000
_MAX_FRAMES = 500


def read(path: str, data: bytes) -> Document:
    if not data.startswith(_MAGIC):
        raise InputError(f"{path}: not an image (PNG, JPEG or TIFF)")
    from .ocr import recognise, require_ocr

    require_ocr(path, "an image has")
    import warnings

    from PIL import Image

    pages: list[str] = []
    page_places: list[list[tuple[int, dict[str, Any]]]] = []
    try:
        with warnings.catch_warnings():
            # PIL only warns below twice its pixel limit; a huge image is bad input here
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
        with image:
            frames = getattr(image, "n_frames", 1)
            if frames > _MAX_FRAMES:
                # reading only some pages would pass the rest unread
                raise InputError(
                    f"{path}: {frames} pages in one image file, over the {_MAX_FRAMES}-page limit"
                )
            for frame in range(frames):
                image.seek(frame)
                if image.width * image.height > _MAX_PIXELS:
                    raise InputError(
                        f"{path}: image of {image.width}x{image.height} pixels is too large to OCR"
                    )
                text, places = recognise(image)
                pages.append(text)
                page_places.append(places)
    except InputError:
        raise
    except Exception as exc:  # PIL's errors for damaged or hostile images have many types
        raise InputError(f"{path}: cannot read image ({type(exc).__name__}: {exc})"[:300]) from None
    starts: list[int] = []
    joined: list[tuple[int, dict[str, Any]]] = []
    pos = 0
    for text, frame_places in zip(pages, page_places, strict=True):
        starts.append(pos)
        joined.extend((pos + offset, fields) for offset, fields in frame_places)
        pos += len(text) + 1
    return Document(
        path=path,
        kind="image",
        segments=[Segment("\n".join(pages), places=joined)],
        # a single image has no pages to name; a multi-page TIFF does
        page_starts=starts if len(pages) > 1 else None,
    )
