"""Bytes of a JSON text to ``str``, as RFC 8259 §8.1 (and RFC 4627 §3 before it) says: a byte
order mark, or the pattern of zero bytes that ASCII text in UTF-16 or UTF-32 leaves in the first
four bytes, says the encoding; otherwise the text is UTF-8."""

from __future__ import annotations

import codecs

_BOMS = (
    (codecs.BOM_UTF32_BE, "utf-32-be"),
    (codecs.BOM_UTF32_LE, "utf-32-le"),
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
)


def detect(data: bytes) -> tuple[str, int]:
    """(codec, bytes of BOM to skip)."""
    for bom, codec in _BOMS:
        if data.startswith(bom):
            # JSON's brackets, quotes and colons are ASCII: in UTF-16 or UTF-32 they leave zero
            # bytes, so a "BOM" before text without any is a stray pair of bytes
            if codec != "utf-8" and len(data) > len(bom) + 2 and 0 not in data[len(bom) :]:
                return "utf-8", 0
            return codec, len(bom)
    head = data[:4]
    if len(head) == 4:
        zeros = tuple(b == 0 for b in head)
        if zeros == (True, True, True, False):
            return "utf-32-be", 0
        if zeros == (False, True, True, True):
            return "utf-32-le", 0
        if zeros[0] and zeros[2] and not zeros[1]:
            return "utf-16-be", 0
        if zeros[1] and zeros[3] and not zeros[0]:
            return "utf-16-le", 0
    elif len(head) >= 2:
        if head[0] == 0 and head[1] != 0:
            return "utf-16-be", 0
        if head[1] == 0 and head[0] != 0:
            return "utf-16-le", 0
    return "utf-8", 0


def decode(data: bytes) -> tuple[str, list[str]]:
    """The text, and a repair note when bytes had to be replaced."""
    codec, skip = detect(data)
    body = data[skip:]
    try:
        return body.decode(codec), []
    except UnicodeDecodeError:
        text = body.decode(codec, errors="replace")
        bad = text.count("\ufffd") - body.decode(codec, errors="ignore").count("\ufffd")
        return text, [f"replaced {bad} bytes that are not {codec.upper()} with U+FFFD"]
