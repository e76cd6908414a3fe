"""Images (PNG, JPEG, TIFF) read by OCR (:mod:`.ocr`, the ``ocr`` extra). Each frame of a
multi-page TIFF is a page. Without OCR an image is bad input: it has no text to check, and a
gate must not pass a scanned page it never read."""

from __future__ import annotations

import io
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from ..errors import InputError
from . import Document, Segment

MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"II*\x00", b"MM\x00*")
MAX_FRAMES = 500


def read(path: str, data: bytes) -> Document:
    from .ocr import engine_name, page_progress, recognise

    pages: list[str] = []
    page_places: list[list[tuple[int, dict[str, Any]]]] = []
    with open_image(path, data) as image:
        frames = frame_count(path, image)
        progress = page_progress(path)
        if progress is not None:
            progress(0, frames)
        for frame in range(frames):
            text, places = recognise(load_frame(path, image, frame))
            pages.append(text)
            page_places.append(places)
            if progress is not None:
                progress(frame + 1, frames)
    starts: list[int] = []
    joined: list[tuple[int, dict[str, Any]]] = []
    pos = 0
    for text, frame_places in zip(pages, page_places, strict=True):
        starts.append(pos)
        joined.extend((pos + offset, fields) for offset, fields in frame_places)
        pos += len(text) + 1
    doc = Document(
        path=path,
        kind="image",
        segments=[Segment("\n".join(pages), places=joined)],
        # a single image has no pages to name; a multi-page TIFF does
        page_starts=starts if len(pages) > 1 else None,
    )
    doc.warnings.append(f"read by OCR ({engine_name()})")
    return doc


@contextmanager
def open_image(path: str, data: bytes) -> Iterator[Any]:
    """A PIL image opened lazily (no pixel decoded yet); PIL's many error types for damaged or
    hostile files become one InputError. The OCR extra must be installed."""
    if not data.startswith(MAGIC):
        raise InputError(f"{path}: not an image (PNG, JPEG or TIFF)")
    from .ocr import require_ocr

    require_ocr(path, "an image has")
    import warnings

    from PIL import Image

    try:
        with warnings.catch_warnings():
            # PIL only warns below twice its pixel limit; a huge image is bad input here
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
    except Exception as exc:
        raise _damaged(path, exc) from None
    try:
        with image:
            yield image
    except InputError:
        raise
    except Exception as exc:
        raise _damaged(path, exc) from None


def frame_count(path: str, image: Any) -> int:
    frames = int(getattr(image, "n_frames", 1))
    if frames > MAX_FRAMES:
        # reading only some pages would pass the rest unread
        raise InputError(
            f"{path}: {frames} pages in one image file, over the {MAX_FRAMES}-page limit"
        )
    return frames


def load_frame(path: str, image: Any, frame: int) -> Any:
    """Frame ``frame`` decoded as RGB and turned upright as its EXIF orientation says (as a
    viewer shows it: boxes are where a person sees them, and a masked copy, which carries no
    EXIF, still shows upright), after its size is bounded (readers/ocr.check_pixels)."""
    import warnings

    from PIL import ImageOps

    from .ocr import check_pixels

    image.seek(frame)
    check_pixels(path, "image", image.width, image.height)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PIL's notes on odd EXIF: not the user's
        return ImageOps.exif_transpose(image.convert("RGB"))


def _damaged(path: str, exc: Exception) -> InputError:
    return InputError(f"{path}: cannot read image ({type(exc).__name__}: {exc})"[:300])
