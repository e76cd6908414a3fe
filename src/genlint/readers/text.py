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
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return _gbk_lookalike(data, text) or text
    # UTF-8 with a few damaged bytes (a file cut mid-character) is still UTF-8: reading it
    # all as GB18030 would turn every line into mojibake. GBK text fails UTF-8 nearly
    # everywhere, so the share of bad sequences tells the two apart.
    lenient = data.decode("utf-8", errors="replace")
    bad = lenient.count("\ufffd")
    if bad * 1000 <= len(lenient) and not lenient.isascii():
        log.warning("%s: %d invalid UTF-8 byte sequence(s) replaced", path, bad)
        return lenient
    del lenient
    gbk: str | None
    try:
        gbk = data.decode("gb18030")
    except UnicodeDecodeError:
        gbk = None
    if gbk is not None and _looks_like_text(gbk):
        log.debug("%s: decoded as GB18030", path)
        return gbk
    from charset_normalizer import from_bytes

    best = from_bytes(data[: 1 << 20]).best()
    if best is None:
        raise InputError(f"{path}: binary file or unknown text encoding")
    try:
        return data.decode(best.encoding)
    except (UnicodeDecodeError, LookupError):
        raise InputError(f"{path}: cannot decode as {best.encoding}") from None


def _is_cjk(ch: str) -> bool:
    return "\u4e00" <= ch <= "\u9fff" or "\u3000" <= ch <= "\u303f" or "\uff00" <= ch <= "\uffef"


def _gbk_lookalike(data: bytes, utf8_text: str) -> str | None:
    """GBK text that happens to be valid UTF-8 (某某 is C4 B3 C4 B3, which UTF-8 reads as ĳĳ).

    Only short GBK texts do this: every GBK pair must fall in the UTF-8 two-byte ranges. Take
    the GB18030 reading when UTF-8 gives only two-byte characters that are not Latin-1 letters
    (accented Western text stays UTF-8) and GB18030 gives only Chinese characters.
    """
    # max() of a str runs in C: real Chinese UTF-8 text (three-byte characters) leaves at once
    if utf8_text.isascii() or max(utf8_text) >= "\u0800":
        return None
    if all(ch <= "\u007f" or "\u00c0" <= ch <= "\u00ff" for ch in utf8_text):
        return None
    try:
        gbk = data.decode("gb18030")
    except UnicodeDecodeError:
        return None
    if all(_is_cjk(ch) for ch in gbk if ord(ch) > 0x7F):
        return gbk
    return None


def _looks_like_text(text: str) -> bool:
    """Few control characters: GB18030 maps almost any byte pair, so it 'decodes' binaries."""
    sample = text[:4096]
    bad = sum(1 for ch in sample if ch < " " and ch not in "\t\n\r\f")
    return bad <= len(sample) // 100


def read(path: str, data: bytes) -> Document:
    text = decode(data, path)
    del data
    return Document(path=path, kind="txt", segments=[Segment(text)])
