"""PDF with pypdf: the text of every page, pages joined by a line break; findings carry the
1-based page number and a line counted within the page. A run of single-character lines (each
character drawn as its own text object) is joined back into one line. For the ``sensitive``
pack the reader also gives PDFium's text where it differs, and every hidden place
(:mod:`.pdf_segments`, :mod:`.pdf_places`).

An encrypted PDF that opens with the empty password (only an owner password: copy or print
limits) is read; pypdf needs ``cryptography`` for AES, which the ``docs`` extra installs. One that
needs a password is bad input that says so. A page without a text layer that shows images (a
scan) is read by OCR (:mod:`.ocr`, the ``ocr`` extra); without OCR the file is bad input naming
those pages, because a scanned contract must never pass unread.
"""

from __future__ import annotations

import io
import logging
import re
from typing import Any

from ..errors import InputError, MissingExtraError, require
from . import Document, Segment, wants_sensitive_places

log = logging.getLogger(__name__)

# A page whose text layer holds fewer visible characters than this, and images, is a scan
# (a stamped page number such as "3/16" on a scanned page is not its text).
_SCAN_TEXT_CHARS = 16


def read(path: str, data: bytes) -> Document:
    return read_pdf(path, data)


def read_pdf(path: str, data: bytes, depth: int = 0, *, ocr: bool = True) -> Document:
    """The pages' text for every pack, then, for the ``sensitive`` pack only, every hidden
    place (:mod:`.pdf_segments`); ``depth``: how deep inside attachments this file is.
    ``ocr=False`` reads a page without a text layer as the empty text it has (``mask``
    reading back its own output, where a page of values became pixels)."""
    from .pdf_segments import hidden_segments

    reader = open_pdf(path, data)
    pages, scanned = _pages_of(path, reader)
    if not ocr:
        scanned = []
    page_places: dict[int, list[tuple[int, dict[str, Any]]]] = {}
    if scanned:
        from .ocr import engine_name, ocr_pdf_pages

        for index, (text, places) in ocr_pdf_pages(path, data, scanned).items():
            pages[index] = text
            page_places[index] = places
    starts: list[int] = []
    joined: list[tuple[int, dict[str, Any]]] = []
    pos = 0
    for index, text in enumerate(pages):
        starts.append(pos)
        for offset, fields in page_places.get(index, [(0, {})]):
            if fields:
                joined.append((pos + offset, fields))
            elif joined:
                joined.append((pos, {}))  # a text-layer page after an OCR page: no box
        pos += len(text) + 1
    from .pdf_layout import labels_with_values

    doc = Document(
        path=path,
        kind="pdf",
        segments=[
            Segment(
                "\n".join(pages),
                places=joined,
                labels_with_values=labels_with_values(data, pages, starts, scanned),
            )
        ],
        page_starts=starts,
    )
    if scanned:
        doc.warnings.append(f"read by OCR ({engine_name()}): {pages_list(scanned)} (no text layer)")
    if not wants_sensitive_places():  # no rule would read them
        return doc
    hidden, warnings = hidden_segments(path, data, reader, pages, depth, ocr=ocr)
    doc.segments.extend(hidden)
    doc.warnings.extend(warnings)
    if not ocr:  # mask reading back its own output: its pictures were redacted by OCR already
        return doc
    from .images_inside import add_images, pdf_images

    return add_images(doc, pdf_images(path, data, set(scanned)))


def text_pages(
    path: str, data: bytes, *, encrypted: str | None = None
) -> tuple[list[str], list[int]]:
    """The text layer of every page and the 0-based indexes of scanned pages (see
    :func:`_looks_scanned`); a file that is not a PDF, damaged or locked is InputError. The
    check and ``genlint mask`` open PDFs through this one function. ``encrypted``: refuse an
    encrypted file with this reason instead of opening it with the empty password."""
    return _pages_of(path, open_pdf(path, data, encrypted=encrypted))


def open_pdf(path: str, data: bytes, *, encrypted: str | None = None) -> Any:
    """A pypdf reader on ``data`` (decrypted with the empty password unless ``encrypted``
    says why an encrypted file is refused); not a PDF, damaged or locked: InputError."""
    require("pypdf", "docs")
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError, PyPdfError

    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise InputError(f"{path}: not a PDF file (no %PDF header)")
    # pypdf logs every recoverable oddity as a warning; keep them out of the report
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        if reader.is_encrypted:
            if encrypted is not None:
                raise InputError(f"{path}: {encrypted}")
            _decrypt(path, reader)
        reader.pages  # noqa: B018  (the page tree: a damaged one fails here, not later)
    except (InputError, MissingExtraError):
        raise
    except (PdfReadError, PyPdfError) as exc:
        raise InputError(f"{path}: corrupt PDF ({exc})") from None
    except Exception as exc:  # a damaged file can fail anywhere inside pypdf
        raise InputError(f"{path}: corrupt PDF ({type(exc).__name__})") from None
    return reader


def _pages_of(path: str, reader: Any) -> tuple[list[str], list[int]]:
    from pypdf.errors import PdfReadError, PyPdfError

    try:
        pages = [joined_lines(page.extract_text() or "") for page in reader.pages]
        scanned = [i for i, text in enumerate(pages) if _looks_scanned(reader.pages[i], text)]
    except (InputError, MissingExtraError):
        raise
    except (PdfReadError, PyPdfError) as exc:
        raise InputError(f"{path}: corrupt PDF ({exc})") from None
    except Exception as exc:  # a damaged file can fail anywhere inside pypdf
        raise InputError(f"{path}: corrupt PDF ({type(exc).__name__})") from None
    return pages, scanned


# three or more lines in a row of at most one character: a generator that draws each character
# as its own text object, which pypdf extracts one character per line
_SPLIT_RUN = 3


def joined_lines(text: str) -> str:
    """``text`` with each run of single-character lines joined back into one line, so
    ``1\n3\n8\n…`` reads as the number it is on the page."""
    if "\n" not in text:
        return text
    lines = text.split("\n")
    out: list[str] = []
    run: list[str] = []
    for line in [*lines, None]:
        if line is not None and len(line) <= 1:
            run.append(line)
            continue
        if len(run) >= _SPLIT_RUN:
            out.append("".join(run))
        else:
            out.extend(run)
        run = []
        if line is not None:
            out.append(line)
    return "\n".join(out)


def _decrypt(path: str, reader: Any) -> None:
    """Open with the empty password, or say why the file cannot be read."""
    try:
        opened = reader.decrypt("")
    except Exception as exc:  # pypdf raises DependencyError when AES needs cryptography
        if type(exc).__name__ == "DependencyError":
            raise InputError(
                f"{path}: encrypted PDF (AES) needs the 'cryptography' package: "
                "pip install 'genlint[docs]'"
            ) from None
        raise InputError(f"{path}: encrypted PDF cannot be opened ({type(exc).__name__})") from None
    if not opened:
        raise InputError(f"{path}: encrypted PDF needs a password; genlint cannot read its text")


def _looks_scanned(page: Any, text: str) -> bool:
    if sum(1 for ch in text if not ch.isspace()) >= _SCAN_TEXT_CHARS:
        return False
    if _draws_inline_image(page):
        return True
    try:
        resources = page.get("/Resources")
        xobjects = resources.get_object().get("/XObject") if resources is not None else None
        if xobjects is None:
            return False
        xobjects = xobjects.get_object()
        return any(_shows_image(xobjects[name].get_object()) for name in xobjects)
    except Exception:  # a broken resource dictionary: no image we can name
        return False


_INLINE_IMAGE = re.compile(rb"(?:^|[\s\]>)])BI\s.*?\sID\s", re.DOTALL)


def _draws_inline_image(page: Any) -> bool:
    """The page's content stream draws an inline image (``BI … ID … EI``): a scan stored in
    the page itself rather than as an image resource (issue 25)."""
    try:
        contents = page.get_contents()
        data = contents.get_data() if contents is not None else b""
    except Exception:  # a damaged content stream: no image we can name
        return False
    return b"BI" in data and _INLINE_IMAGE.search(data) is not None


def _shows_image(xobject: Any, depth: int = 0) -> bool:
    """An image, or a form that draws one (scanners often wrap the page image in a form)."""
    subtype = xobject.get("/Subtype")
    if subtype == "/Image":
        return True
    if subtype != "/Form" or depth > 2:
        return False
    resources = xobject.get("/Resources")
    inner = resources.get_object().get("/XObject") if resources is not None else None
    if inner is None:
        return False
    inner = inner.get_object()
    return any(_shows_image(inner[name].get_object(), depth + 1) for name in inner)


def pages_list(indexes: list[int]) -> str:
    """``pages 1-3, 7`` from 0-based indexes."""
    runs: list[str] = []
    start = prev = indexes[0]
    for i in [*indexes[1:], None]:
        if i is not None and i == prev + 1:
            prev = i
            continue
        runs.append(f"{start + 1}" if start == prev else f"{start + 1}-{prev + 1}")
        if i is not None:
            start = prev = i
    word = "page" if len(indexes) == 1 else "pages"
    return f"{word} {', '.join(runs)}"
