"""PDF with pypdf: the text of every page, pages joined by a line break; findings carry the
1-based page number. Encrypted or damaged files are errors for that file."""

from __future__ import annotations

import io
import logging

from ..errors import InputError, require
from . import Document, Segment

log = logging.getLogger(__name__)


def read(path: str, data: bytes) -> Document:
    require("pypdf", "docs")
    from pypdf import PdfReader
    from pypdf.errors import PdfReadError, PyPdfError

    if not data.lstrip()[:5].startswith(b"%PDF"):
        raise InputError(f"{path}: not a PDF file (no %PDF header)")
    # pypdf logs every recoverable oddity as a warning; keep them out of the report
    logging.getLogger("pypdf").setLevel(logging.ERROR)
    try:
        reader = PdfReader(io.BytesIO(data), strict=False)
        # a PDF with only an owner password (copy/print limits) opens with the empty password
        if reader.is_encrypted and not _opens_without_password(reader):
            raise InputError(f"{path}: encrypted PDF, cannot read its text")
        pages = [page.extract_text() or "" for page in reader.pages]
    except InputError:
        raise
    except (PdfReadError, PyPdfError) as exc:
        raise InputError(f"{path}: corrupt PDF ({exc})") from None
    except Exception as exc:  # a damaged file can fail anywhere inside pypdf
        raise InputError(f"{path}: corrupt PDF ({type(exc).__name__})") from None
    if pages and not any(text.strip() for text in pages):
        log.warning("%s: no text layer (a scanned PDF?); nothing to check", path)
    starts: list[int] = []
    pos = 0
    for text in pages:
        starts.append(pos)
        pos += len(text) + 1
    return Document(path=path, kind="pdf", segments=[Segment("\n".join(pages))], page_starts=starts)


def _opens_without_password(reader: object) -> bool:
    try:
        return bool(reader.decrypt(""))  # type: ignore[attr-defined]
    except Exception:  # missing AES backend or a broken encryption dictionary
        return False
