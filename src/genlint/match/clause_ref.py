"""Clause references to one canonical form, so that "Clause 4.1", "§4.1", "第4.1条", "4.1条款",
"第四条第一款" and "４．１" all compare equal (as ``"4.1"``).

The canonical form is the dotted path of the reference: numbers without leading zeros, a
lettered sub-item lower-cased (``"4.1(a)"`` → ``"4.1.a"``). A reference with no number in it
("Definitions") is compared by its case-folded, space-collapsed text; an empty one is ``None``
and matches nothing.
"""

from __future__ import annotations

import unicodedata

import regex

_CN_DIGITS = {"零": 0, "〇": 0, "○": 0, "一": 1, "二": 2, "两": 2, "三": 3, "四": 4, "五": 5,
              "六": 6, "七": 7, "八": 8, "九": 9}  # fmt: skip
_CN_UNITS = {"十": 10, "百": 100, "千": 1000}
# Only numerals that a reference word frames (第…, …条) are numbers: 一般条款 is not clause 1.
_CN_NUMBER = regex.compile(
    r"(?<=第\s*)[零〇○一二两三四五六七八九十百千]+|[零〇○一二两三四五六七八九十百千]+(?=\s*(?:条|款|项|目|章|节))"
)

# 第4条第1款第2项 / 第4.1条: the Chinese statute layout, each level introduced by 第 … 条/款/项/目.
_CN_LEVEL = regex.compile(r"第\s*([0-9]+(?:\s*\.\s*[0-9]+)*)\s*(?:条款|条|款|项|目|章|节|部分)")
# Words that only say "this is a reference": dropped before the number is read.
_PREFIX = regex.compile(
    r"^(?:clause|cl|section|sec|sect|article|art|paragraph|para|item|no|number|§+|条款|条|款)"
    r"[\s.:：#]*",
    regex.IGNORECASE,
)
_PATH = regex.compile(
    r"([0-9]+(?:\s*\.\s*[0-9]+)*)"  # 4.1.2
    r"((?:\s*\(\s*(?:[0-9]+|[a-z]{1,3})\s*\))*)"  # (a)(ii) / (1)
    r"(?:\s*\.\s*([a-z])(?![a-z]))?",  # 4.1.a
    regex.IGNORECASE,
)
_ROMAN = regex.compile(r"^(?:article|art|section|sec|clause|chapter)[\s.]*([ivxlc]+)\b", regex.I)


def cn_to_int(text: str) -> int:
    """A Chinese numeral (十二, 二十一, 一百零五, 一〇五) as an int."""
    if all(ch in _CN_DIGITS for ch in text):
        # Digit-by-digit spelling such as 一〇五 or a single digit.
        value = 0
        for ch in text:
            value = value * 10 + _CN_DIGITS[ch]
        return value
    total, digit = 0, 0
    for ch in text:
        if ch in _CN_DIGITS:
            digit = _CN_DIGITS[ch]
        else:
            unit = _CN_UNITS[ch]
            total += (digit or 1) * unit
            digit = 0
    return total + digit


def _roman_to_int(text: str) -> int:
    values = {"i": 1, "v": 5, "x": 10, "l": 50, "c": 100}
    total = 0
    lowered = text.lower()
    for i, ch in enumerate(lowered):
        v = values[ch]
        if i + 1 < len(lowered) and values[lowered[i + 1]] > v:
            total -= v
        else:
            total += v
    return total


def _canonical_numbers(path: str) -> list[str]:
    return [str(int(part)) for part in regex.split(r"\s*\.\s*", path.strip()) if part]


def normalize_clause_ref(ref: object) -> str | None:
    """The canonical form of a clause reference, or None when there is none."""
    if ref is None:
        return None
    # NFKC turns full-width digits and dots (４．１) into ASCII; 。 and ． are dots in CJK text.
    text = unicodedata.normalize("NFKC", str(ref)).replace("。", ".").strip()
    if not text:
        return None
    text = _CN_NUMBER.sub(lambda m: str(cn_to_int(m.group(0))), text)

    levels = _CN_LEVEL.findall(text)
    if levels:
        parts: list[str] = []
        for level in levels:
            parts.extend(_canonical_numbers(level))
        return ".".join(parts)

    stripped = _PREFIX.sub("", text, count=1).strip()
    roman = _ROMAN.match(text)
    if roman and not regex.search(r"[0-9]", stripped):
        return str(_roman_to_int(roman.group(1)))
    match = _PATH.search(stripped)
    if match is None:
        folded = " ".join(text.casefold().split())
        return folded or None
    parts = _canonical_numbers(match.group(1))
    for sub in regex.findall(r"\(\s*([0-9a-z]+)\s*\)", match.group(2) or "", regex.I):
        parts.append(str(int(sub)) if sub.isdigit() else sub.lower())
    if match.group(3):
        parts.append(match.group(3).lower())
    return ".".join(parts)


def same_clause(a: object, b: object) -> bool:
    """Whether two references name the same clause (an empty one names none)."""
    na = normalize_clause_ref(a)
    return na is not None and na == normalize_clause_ref(b)
