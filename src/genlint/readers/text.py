"""Plain text: UTF-8 (with or without BOM), UTF-16 with BOM, GB18030/GBK, detected."""

from __future__ import annotations

import codecs
import logging

from ..errors import InputError
from . import Document, Segment

log = logging.getLogger(__name__)


def decode(data: bytes, path: str) -> str:
    """Decode text bytes, refusing binary data.

    Strict UTF-8 first: a non-UTF-8 file almost never decodes as UTF-8 by chance. Then
    GB18030 (a superset of GBK and GB2312), because statistical detectors guess wrong on short
    Chinese texts (a few GBK characters often come back as Big5, Shift-JIS or Latin-1), and
    Chinese files not in UTF-8 are nearly always GBK. charset-normalizer only decides what is
    neither.
    """
    if data.startswith(codecs.BOM_UTF8):
        try:
            return data[3:].decode("utf-8")
        except UnicodeDecodeError as exc:
            raise InputError(
                f"{path}: invalid UTF-8 after the BOM (byte {exc.start + 3})"
            ) from None
    if data.startswith((codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)):
        try:
            return data.decode("utf-16")
        except UnicodeDecodeError:
            raise InputError(f"{path}: invalid UTF-16 text") from None
    if b"\x00" in data[:8192]:
        raise InputError(f"{path}: binary file, not text")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    try:
        text = data.decode("gb18030")
    except UnicodeDecodeError:
        text = None
    if text is not None and _looks_like_text(text):
        log.debug("%s: decoded as GB18030", path)
        return text
    from charset_normalizer import from_bytes

    best = from_bytes(data[: 1 << 20]).best()
    if best is None:
        raise InputError(f"{path}: binary file or unknown text encoding")
    try:
        return data.decode(best.encoding)
    except (UnicodeDecodeError, LookupError):
        raise InputError(f"{path}: cannot decode as {best.encoding}") from None


def _looks_like_text(text: str) -> bool:
    """Few control characters: GB18030 maps almost any byte pair, so it 'decodes' binaries."""
    sample = text[:4096]
    bad = sum(1 for ch in sample if ch < " " and ch not in "\t\n\r\f")
    return bad <= len(sample) // 100


def read(path: str, data: bytes) -> Document:
    text = decode(data, path)
    del data
    return Document(path=path, kind="txt", segments=[Segment(text)])
