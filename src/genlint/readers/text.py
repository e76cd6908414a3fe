"""Plain text, and the encoding decision every text reader (txt, md, json) shares.

Decided with evidence, never by a guess that hides findings:
- a BOM (UTF-8, UTF-16, UTF-32) decides;
- valid UTF-8 is UTF-8 (short GBK text that happens to be valid UTF-8 aside);
- UTF-8 with a few damaged bytes (a file cut mid-character, one bad byte in an ASCII log) stays
  UTF-8: the bad bytes become U+FFFD and a warning names their byte offsets;
- Chinese legacy encodings: GB18030 (a superset of GBK/GB2312) or Big5-HKSCS, whichever reading
  holds more of the most common Chinese characters (simplified and traditional);
- anything else only when charset-normalizer is confident; otherwise the file is refused.
The chosen encoding is reported with the file (``encoding`` in the JSON report).
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

from ..errors import InputError
from . import Document, Segment

# Share of damaged sequences up to which a file that is mostly valid UTF-8 is still read as
# UTF-8; GBK or Big5 text fails UTF-8 at nearly every non-ASCII character.
_DAMAGED_UTF8_SHARE = 0.02
# charset-normalizer's chaos (0 = clean) above which its guess is not trusted
_MAX_CHAOS = 0.1
_SHOWN_OFFSETS = 8

# The most frequent Chinese characters, simplified and traditional forms: the right legacy
# decoding is full of them, the wrong one reads the same bytes as rare characters.
_COMMON = frozenset(
    "的一是不了人我在有他这为之大来以个中上们到说国和地也子时道出而要于就下得可你年生自会那后能对着事其里所"
    "去行过家十用发天如然作方成者多日都三小二无同么经法当起与好看学进种将还分此心前面又定见只主没公从已"
    "合同甲乙方本协议条款第应当按照支付金额元日期签订双方责任违约赔偿判决原告被告法院诉讼请求事实理由证据"
    "們這為來說國個會時後對於與發經當種將還從動關點開長門問間聽見現機體頭電話銀號碼區縣業務員應當條約責任"
    "違約賠償判決訴訟請求證據簽訂雙方買賣貨款辦"
    "月名姓字号码住址电话身份证件龄性别男女民族职业工作单位联系代理委托授权盖章某年月日時號碼電話"
    "住址身份證職業單位聯繫代理委託授權蓋章"
)
_CJK = re.compile(r"[\u4e00-\u9fff]")
_ESCAPED_BYTE = re.compile("[\udc80-\udcff]")


@dataclass
class Decoded:
    text: str
    encoding: str
    warnings: list[str] = field(default_factory=list)


def decode_text(data: bytes, path: str) -> Decoded:
    """Decode text bytes by the rules above, refusing binary data."""
    for bom, name in (
        (codecs.BOM_UTF32_LE, "utf-32"),
        (codecs.BOM_UTF32_BE, "utf-32"),
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if data.startswith(bom):
            try:
                return Decoded(data.decode(name), name)
            except UnicodeDecodeError as exc:
                raise InputError(f"{path}: invalid {name} text (byte {exc.start})") from None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        gbk = _gbk_lookalike(data, text)
        return Decoded(gbk, "gb18030") if gbk is not None else Decoded(text, "utf-8")
    if b"\x00" in data[:8192]:
        raise InputError(f"{path}: binary file, not text")
    escaped = data.decode("utf-8", errors="surrogateescape")  # a bad byte -> U+DC80..U+DCFF
    offsets = _bad_utf8_offsets(escaped, limit=max(8, int(len(data) * _DAMAGED_UTF8_SHARE)))
    if offsets is not None:
        lenient = data.decode("utf-8", errors="replace")
        ascii_chars = len(escaped.encode("ascii", "ignore"))
        multibyte = len(escaped) - ascii_chars - len(offsets)
        if multibyte >= 10 * len(offsets):
            # real UTF-8 text (Chinese, accents) with a few damaged sequences
            return _damaged_utf8(lenient, offsets, path)
    chinese = _chinese_legacy(data)
    if chinese is not None:
        return chinese
    if offsets is not None:
        # mostly ASCII with a few bytes that are no UTF-8: still UTF-8, said so
        return _damaged_utf8(data.decode("utf-8", errors="replace"), offsets, path)
    return _detected_or_damaged(data, escaped, path)


def _detected_or_damaged(data: bytes, escaped: str, path: str) -> Decoded:
    """The detector's reading, taken only with evidence. Text that is mostly ASCII gives a
    detector little to go on (a dozen stray bytes made it say ``mac_latin2``, hiding nothing
    but deciding nothing either): there only a Western single-byte encoding is believed, and
    otherwise the text stays UTF-8 with its damaged bytes named."""
    ascii_share = len(escaped.encode("ascii", "ignore")) / max(1, len(escaped))
    damaged = (
        _bad_utf8_offsets(escaped, limit=max(8, len(data) // 10)) if ascii_share >= 0.9 else None
    )
    try:
        decoded = _detected(data, path)
    except InputError:
        if damaged is None:
            raise
        return _damaged_utf8(data.decode("utf-8", errors="replace"), damaged, path)
    if damaged is not None and codecs.lookup(decoded.encoding).name not in _WESTERN:
        return _damaged_utf8(data.decode("utf-8", errors="replace"), damaged, path)
    return decoded


# single-byte encodings whose reading of stray high bytes in ASCII text is plausible (accented
# Latin letters); a guess of any other (mac_iceland, mac_latin2, cp437…) is no evidence
_WESTERN = frozenset(
    codecs.lookup(name).name for name in ("cp1252", "latin-1", "iso8859-15", "cp1250", "iso8859-2")
)


def _bad_utf8_offsets(escaped: str, limit: int) -> list[int] | None:
    """Byte offsets of the bytes that are no UTF-8 (``escaped`` is the surrogateescape
    decoding), or None when there are over ``limit``. Linear: the scans run in C."""
    offsets: list[int] = []
    byte_pos = prev = 0
    for m in _ESCAPED_BYTE.finditer(escaped):
        byte_pos += len(escaped[prev : m.start()].encode("utf-8", "surrogateescape"))
        offsets.append(byte_pos)
        prev = m.start()
        if len(offsets) > limit:
            return None
    return offsets


def _damaged_utf8(text: str, offsets: list[int], path: str) -> Decoded:
    shown = ", ".join(str(o) for o in offsets[:_SHOWN_OFFSETS])
    more = f" and {len(offsets) - _SHOWN_OFFSETS} more" if len(offsets) > _SHOWN_OFFSETS else ""
    warning = (
        f"{path}: {len(offsets)} invalid UTF-8 byte sequence(s) replaced by U+FFFD "
        f"at byte offset(s) {shown}{more}"
    )
    return Decoded(text, "utf-8", [warning])


def _chinese_legacy(data: bytes) -> Decoded | None:
    """GB18030 or Big5-HKSCS, whichever reading is more ordinary Chinese."""
    best: tuple[float, str, str] | None = None
    for name in ("gb18030", "big5hkscs"):
        try:
            text = data.decode(name)
        except UnicodeDecodeError:
            continue
        if not _looks_like_text(text):
            continue
        han = _CJK.findall(text[:20000])
        if not han:
            continue
        score = sum(ch in _COMMON for ch in han) / len(han)
        if best is None or score > best[0]:
            best = (score, name, text)
    if best is None or best[0] < 0.05:
        return None
    return Decoded(best[2], best[1])


def _detected(data: bytes, path: str) -> Decoded:
    from charset_normalizer import from_bytes

    match = from_bytes(data[: 1 << 20]).best()
    if match is None or match.chaos > _MAX_CHAOS:
        raise InputError(f"{path}: binary file or unknown text encoding")
    try:
        return Decoded(data.decode(match.encoding), match.encoding)
    except (UnicodeDecodeError, LookupError):
        raise InputError(f"{path}: cannot decode as {match.encoding}") from None


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


def decode(data: bytes, path: str) -> str:
    """The text of ``data`` (see :func:`decode_text` for the encoding and warnings)."""
    return decode_text(data, path).text


def read(path: str, data: bytes) -> Document:
    decoded = decode_text(data, path)
    del data
    return Document(
        path=path,
        kind="txt",
        segments=[Segment(decoded.text)],
        encoding=decoded.encoding,
        warnings=decoded.warnings,
    )
