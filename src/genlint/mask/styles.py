"""What a masked value becomes, per style and per kind of personal data.

A *kind* is read from the rule id (``sensitive/mobile`` → mobile); a rule this table does not
know (a pack can grow) still masks, with a generic kind named after the rule. The styles:

* ``keep-ends`` keeps the usual Chinese convention: the first and last characters that identify
  nothing on their own, the length, and the grouping (separators stay where they were):
  ``138****5678``, ``110101********1234``, ``6222 **** **** 1234``, ``z*******@163.com``,
  ``010-****5678``;
* ``stars``: every character of the value becomes ``*``;
* ``label``: ``[手机号]``… (English labels when the text around is English);
* ``token``: ``<PHONE_1>``…, stable per distinct value (see :mod:`.vault`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Style = Literal["keep-ends", "stars", "label", "token"]
STYLES: tuple[str, ...] = ("keep-ends", "stars", "label", "token")
STAR = "*"


@dataclass(frozen=True, slots=True)
class Kind:
    """How one kind of value is named and shortened."""

    token: str  # token prefix: <PHONE_1>
    zh: str  # Chinese label
    en: str  # English label
    head: int | None  # keep-ends: identifying characters kept in front (None: generic)
    tail: int | None  # … and at the end


KINDS: dict[str, Kind] = {
    "mobile": Kind("PHONE", "手机号", "PHONE", None, 4),  # see _keep_ends: +86 138****5678
    "resident-id": Kind("ID", "身份证号", "ID NUMBER", 6, 4),
    "bank-card": Kind("CARD", "银行卡号", "CARD NUMBER", 4, 4),
    "email": Kind("EMAIL", "邮箱", "EMAIL", None, None),
    "landline": Kind("TEL", "电话号码", "PHONE", None, 4),
    "bank-account": Kind("ACCOUNT", "银行账号", "ACCOUNT NUMBER", 4, 4),
    "passport": Kind("PASSPORT", "证件号码", "PASSPORT NUMBER", 2, 2),
    "plate": Kind("PLATE", "车牌号", "PLATE NUMBER", 2, 1),
    "person-name": Kind("NAME", "姓名", "NAME", 1, 0),
    "address": Kind("ADDRESS", "地址", "ADDRESS", None, 0),
}
_UNKNOWN_ZH = "敏感信息"
_UNKNOWN_EN = "REDACTED"
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_LATIN = re.compile(r"[A-Za-z]")
# how much text around a value decides whether a label is written in English
_AROUND = 40


def kind_of(rule: str) -> Kind:
    name = rule.rpartition("/")[2]
    known = KINDS.get(name)
    if known is not None:
        return known
    prefix = re.sub(r"[^A-Z0-9]+", "_", name.upper()).strip("_") or "PII"
    return Kind(prefix, _UNKNOWN_ZH, _UNKNOWN_EN, None, None)


def stars(value: str) -> str:
    return STAR * len(value)


def label(rule: str, text: str, start: int, end: int) -> str:
    """``[手机号]``, or ``[PHONE]`` when the text around the value holds no Chinese."""
    kind = kind_of(rule)
    around = text[max(0, start - _AROUND) : start] + text[end : end + _AROUND]
    english = not _CJK.search(around) and bool(_LATIN.search(around))
    return f"[{kind.en if english else kind.zh}]"


def keep_ends(rule: str, value: str) -> str:
    """The value with its identifying middle starred; separators and length kept."""
    sig = [i for i, ch in enumerate(value) if ch.isalnum()]
    if not sig:
        return stars(value)
    name = rule.rpartition("/")[2]
    kind = kind_of(rule)
    chars = list(value)
    if name == "email":
        at = value.rfind("@")
        local = [i for i in range(at if at > 0 else len(value)) if not _is_sep(value[i])]
        for i in local[1:] if len(local) > 1 else local:
            chars[i] = STAR
        return "".join(chars)
    if name in ("mobile", "landline"):
        # the four before the last four, counted from the end: +86 138****5678, 010-****5678
        group = _last_group(value, sig)
        masked = group[-8:-4] if len(group) >= 8 else sig[-8:-4]
        if not masked:
            masked = sig[:-4] or sig
        for i in masked:
            chars[i] = STAR
        return "".join(chars)
    n = len(sig)
    if name == "person-name":
        head, tail = min(1, n - 1), 0  # 张*, 欧阳**: the surname stays, as 张某 would
    elif kind.head is not None and kind.tail is not None and n - kind.head - kind.tail >= 4:
        head, tail = kind.head, kind.tail
    else:
        # a short or unknown value: at most a quarter at each end, at most four characters
        head = tail = min(4, n // 4)
        if kind.tail is not None:
            tail = min(tail, kind.tail)
    for i in sig[head : n - tail]:
        chars[i] = STAR
    return "".join(chars)


def _is_sep(ch: str) -> bool:
    return not ch.isalnum()


def _last_group(value: str, sig: list[int]) -> list[int]:
    """Significant positions after the area code: the whole value when it is one run of
    digits (a mobile number) or after its first separator (``010-12345678``)."""
    for i, ch in enumerate(value):
        if ch in "-) ）" and any(j > i for j in sig) and any(j < i for j in sig):
            rest = [j for j in sig if j > i]
            if len(rest) >= 7:
                return rest
    return sig
