"""Chinese and English numerals: parse and write, for amounts and dates (docs/rules.md
"consistency/amount-words").

One module so every rule reads 壹拾万元整, 一百零七, 两千, 廿, 1.2万元 and "ten thousand" the same
way. Values are exact: amounts are integer fen (cents), never floats.
"""

from __future__ import annotations

import re

__all__ = [
    "DIGITS",
    "UNITS",
    "amount_fen",
    "english_number",
    "figure_fen",
    "parse_cn",
    "to_capital",
    "to_english",
    "to_ordinary",
]

DIGITS: dict[str, int] = {
    "零": 0, "〇": 0, "○": 0, "Ｏ": 0,
    "一": 1, "壹": 1, "弌": 1,
    "二": 2, "贰": 2, "貳": 2, "两": 2, "兩": 2,
    "三": 3, "叁": 3, "參": 3, "叄": 3,
    "四": 4, "肆": 4,
    "五": 5, "伍": 5,
    "六": 6, "陆": 6, "陸": 6,
    "七": 7, "柒": 7,
    "八": 8, "捌": 8,
    "九": 9, "玖": 9,
}  # fmt: skip
for _i, _c in enumerate("0123456789"):
    DIGITS[_c] = _i
for _i, _c in enumerate("０１２３４５６７８９"):
    DIGITS[_c] = _i
UNITS: dict[str, int] = {"十": 10, "拾": 10, "什": 10, "百": 100, "佰": 100, "千": 1000, "仟": 1000}
BIG: dict[str, int] = {"万": 10**4, "萬": 10**4, "亿": 10**8, "億": 10**8}
TENS: dict[str, int] = {"廿": 20, "卄": 20, "卅": 30, "卌": 40}

NUMERAL_CHARS = "".join(DIGITS) + "".join(UNITS) + "".join(BIG) + "".join(TENS)


def parse_cn(s: str) -> int | None:
    """The value of a Chinese integer numeral (一百零七, 两千, 廿三, 壹万贰仟, 二〇二六 read digit by
    digit), or None when ``s`` is not one. Linear in ``len(s)``."""
    if not s or len(s) > 64:  # no amount or article number is written longer
        return None
    if all(c in DIGITS for c in s):  # positional: 二〇二六, 2026
        value = 0
        for c in s:
            value = value * 10 + DIGITS[c]
        return value
    total = 0  # the 亿 part
    wan = 0  # the 万 part below 亿
    section = 0  # below 万
    digit: int | None = None
    last_unit = 10**9
    for c in s:
        if c in DIGITS:
            if digit is not None and DIGITS[c] and digit:
                return None  # 三五 without a unit is no numeral here
            digit = DIGITS[c]
        elif c in TENS:
            section += TENS[c]
            digit = None
        elif c in UNITS:
            unit = UNITS[c]
            if unit >= last_unit:
                return None  # 百千 or 十百: out of order
            section += (1 if digit is None and unit == 10 else digit or 0) * unit
            if digit is None and unit != 10:
                return None
            last_unit = unit
            digit = None
        elif c in BIG:
            section += digit or 0
            digit = None
            if BIG[c] == 10**4:
                wan += section * 10**4
            else:
                total = (total + wan + section) * 10**8
                wan = 0
            section = 0
            last_unit = 10**9
        else:
            return None
    return total + wan + section + (digit or 0)


_ORD = "零一二三四五六七八九"
_CAP = "零壹贰叁肆伍陆柒捌玖"


def _section(n: int, digits: str, units: str, *, lead: bool) -> str:
    """0 < n < 10000 in words; ``lead``: the first section, where 一十 is written 十 (ordinary)."""
    out: list[str] = []
    zero = False
    for power, unit in ((1000, units[2]), (100, units[1]), (10, units[0]), (1, "")):
        d = n // power % 10
        if d == 0:
            zero = bool(out)
            continue
        if zero:
            out.append(digits[0])
            zero = False
        if not (d == 1 and power == 10 and lead and not out and digits is _ORD):
            out.append(digits[d])
        out.append(unit)
    return "".join(out)


def _words(n: int, digits: str, units: str, big: tuple[str, str]) -> str:
    if n == 0:
        return digits[0]
    parts: list[tuple[int, str]] = []
    for scale, name in ((10**8, big[1]), (10**4, big[0]), (1, "")):
        if scale == 10**8:
            q, n = divmod(n, scale)
            if q:
                parts.append((q, name))
        else:
            q, n = divmod(n, scale)
            parts.append((q, name))
    out: list[str] = []
    need_zero = False
    for q, name in parts:
        if q == 0:
            need_zero = bool(out)
            continue
        if out and (need_zero or q < 1000):
            out.append(digits[0])
        need_zero = False
        if q >= 10**4:  # more than 9999 亿: 亿 repeats (万亿)
            out.append(_words(q, digits, units, big))
        else:
            out.append(_section(q, digits, units, lead=not out))
        out.append(name)
    return "".join(out)


def to_ordinary(n: int) -> str:
    """一百零七, 十二, 一万零五: ordinary numerals, as article numbers are written."""
    return _words(n, _ORD, "十百千", ("万", "亿"))


def to_capital(fen: int) -> str:
    """An amount in capital numerals as a bank writes it: 壹万贰仟叁佰肆拾伍元陆角柒分, 伍仟元整."""
    yuan, rest = divmod(fen, 100)
    jiao, f = divmod(rest, 10)
    out = _words(yuan, _CAP, "拾佰仟", ("万", "亿")) + "元" if yuan or not rest else ""
    if not rest:
        return out + "整"
    if jiao:
        out += _CAP[jiao] + "角"
    elif yuan:
        out += "零"
    if f:
        out += _CAP[f] + "分"
    return out


_AMOUNT = re.compile(
    r"([^元圆角分整正]*)[元圆]?(?:([^元圆角分整正])角)?(?:零)?(?:([^元圆角分整正])分)?[整正]?"
)


def amount_fen(words: str) -> int | None:
    """The value in fen of an amount in words (人民币壹拾万元整, 伍角, 1.2万元), None when it is no
    amount. ``人民币`` and a trailing 整/正 are allowed."""
    s = words.strip()
    for prefix in ("人民币", "RMB", "CNY"):
        if s.startswith(prefix):
            s = s[len(prefix) :].lstrip("：: ")
    if not s or len(s) > 80 or not any(c in "元圆角分" for c in s):
        return None
    m = _AMOUNT.fullmatch(s)
    if m is None:
        return None
    head, jiao, f = m.group(1), m.group(2), m.group(3)
    if head and not re.search(r"[元圆]", s):
        return None
    yuan = 0
    if head:
        if head.endswith("零") and (jiao or f):
            head = head[:-1]
        fig = re.fullmatch(r"(\d+(?:\.\d+)?)([万萬亿億])?", head)
        if fig:
            yuan_fen = _decimal_fen(fig.group(1), BIG.get(fig.group(2) or "", 1))
            if yuan_fen is None:
                return None
            return yuan_fen
        value = parse_cn(head)
        if value is None:
            return None
        yuan = value
    total = yuan * 100
    for part, scale in ((jiao, 10), (f, 1)):
        if part:
            if part not in DIGITS:
                return None
            total += DIGITS[part] * scale
    return total


def _decimal_fen(number: str, scale: int) -> int | None:
    whole, _, frac = number.partition(".")
    digits = int(whole + frac) if whole + frac else 0
    # value = digits / 10**len(frac) * scale yuan, in fen
    num = digits * scale * 100
    den = 10 ** len(frac)
    if num % den:
        return None  # finer than a fen
    return num // den


def figure_fen(figure: str) -> int | None:
    """The value in fen of an amount in figures (1,000,000.00, 100000, 1.2万), None when it
    does not read as one."""
    if len(figure) > 40:
        return None
    s = figure.replace(",", "").replace("，", "").replace(" ", "")
    m = re.fullmatch(r"(\d+(?:\.\d+)?)([万萬亿億])?", s)
    if m is None:
        return None
    return _decimal_fen(m.group(1), BIG.get(m.group(2) or "", 1))


_EN_SMALL = {
    w: i
    for i, w in enumerate(
        [
            "zero",
            "one",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "eleven",
            "twelve",
            "thirteen",
            "fourteen",
            "fifteen",
            "sixteen",
            "seventeen",
            "eighteen",
            "nineteen",
        ]
    )
}
_EN_TENS = {
    w: 10 * i
    for i, w in enumerate(
        ["_", "_", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    )
    if w != "_"
}
_EN_SCALES = {"thousand": 10**3, "million": 10**6, "billion": 10**9, "trillion": 10**12}
EN_WORDS = frozenset([*_EN_SMALL, *_EN_TENS, *_EN_SCALES, "hundred", "and"])


def english_number(words: str) -> int | None:
    """The value of English number words (one hundred thousand, twenty-five), None otherwise."""
    tokens = [t for t in re.split(r"[\s-]+", words.lower().strip()) if t and t != "and"]
    if not tokens:
        return None
    total = current = 0
    for t in tokens:
        if t in _EN_SMALL:
            current += _EN_SMALL[t]
        elif t in _EN_TENS:
            current += _EN_TENS[t]
        elif t == "hundred":
            current = (current or 1) * 100
        elif t in _EN_SCALES:
            total += (current or 1) * _EN_SCALES[t]
            current = 0
        else:
            return None
    return total + current


def to_english(n: int) -> str:
    """English words for ``n`` (0 ≤ n < 10**15): one hundred and five thousand."""
    if n < 20:
        return list(_EN_SMALL)[n]
    if n < 100:
        tens = next(w for w, v in _EN_TENS.items() if v == n // 10 * 10)
        return tens + ("-" + list(_EN_SMALL)[n % 10] if n % 10 else "")
    if n < 1000:
        rest = n % 100
        return list(_EN_SMALL)[n // 100] + " hundred" + (" and " + to_english(rest) if rest else "")
    for name, scale in sorted(_EN_SCALES.items(), key=lambda kv: -kv[1]):
        if n >= scale:
            q, rest = divmod(n, scale)
            return to_english(q) + " " + name + (" " + to_english(rest) if rest else "")
    raise ValueError(n)
