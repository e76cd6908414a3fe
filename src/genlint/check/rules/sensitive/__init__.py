"""``sensitive`` pack: unmasked personal data (docs/commands/check.md "What is sensitive").

Every rule needs logic (check digits, dates, digit boundaries), so all are code. A number is
only flagged when it is not part of a longer run of digits, and masked forms (138****5678,
110101********1234) never match because the mask breaks the digit run.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import Hit, PatternRule, Rule, RuleContext
from .checks import id_shaped, luhn_ok, valid_resident_id

# Eleven digits or more (separators allowed): every number these rules flag has such a run.
# One literal-first pattern per leading digit, because re skips to a literal at memchr speed.
DIGIT_RUN = tuple(f"{d}[0-9][0-9 -]{{9}}" for d in "0123456789")


class ResidentId(PatternRule):
    id = "sensitive/resident-id"
    description = "an unmasked mainland resident ID number (valid date and check digit)"
    bad = ("身份证号：11010519491231002X", "身份证110101199003074573。", "110105 19491231 002X")
    good = ("110101********1234", "身份证号：110105194912310021", "110101199013074573")
    trigger = DIGIT_RUN

    def __init__(self) -> None:
        super().__init__(
            self.id,
            self.description,
            # 18 characters, or grouped 6-8-4 as people write them (110105 19491231 002X)
            r"[0-9]{6}(?:[0-9]{11}|([ -])[0-9]{8}\1[0-9]{3})[0-9Xx](?![0-9A-Za-z_*])",
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked resident ID number",
        )

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        number = match.group().replace(" ", "").replace("-", "")
        return _free_left(text, match.start()) and valid_resident_id(number)


class Mobile(Rule):
    id = "sensitive/mobile"
    description = "an unmasked mainland mobile number (11 digits 1[3-9]…, optional +86)"
    bad = ("电话13812345678", "手机：+86 139-1234-5678", "Tel: +8615912345678", "138 1234 5678")
    good = ("138****5678", "订单号2013812345678", "电话12812345678", "010-12345678")
    trigger = DIGIT_RUN

    _number = re.compile(r"1[3-9][0-9](?:[0-9]{8}|([ \t-])[0-9]{4}\1[0-9]{4})(?![0-9A-Za-z_*])")
    _prefix = re.compile(r"(?:\+|＋|00)?86[ \t-]?$")

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in ctx.finditer(self._number, text):
            start = m.start()
            # an optional country code in front; then nothing number-like may touch it
            p = self._prefix.search(text, max(0, start - 5), start)
            if p is not None and _free_left(text, p.start(), "+"):
                start = p.start()
            elif not _free_left(text, start):
                continue
            yield Hit(start, m.end(), message="unmasked mobile number")


class BankCard(PatternRule):
    id = "sensitive/bank-card"
    description = "an unmasked bank card number (16–19 digits, valid Luhn check)"
    bad = ("卡号6222021234567890128", "6225 8801 2345 6783", "4111111111111111")
    good = ("卡号6222021234567890123", "6222 **** **** 0128", "110105194912310021")
    trigger = DIGIT_RUN

    def __init__(self) -> None:
        super().__init__(
            self.id,
            self.description,
            r"[0-9]{4}(?:[0-9]{12,15}|([ -])[0-9]{4}\1[0-9]{4}\1[0-9]{4}(?:\1[0-9]{1,3})?)"
            r"(?![0-9A-Za-z_*])",
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked bank card number",
        )

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        if not _free_left(text, match.start()):
            return False
        digits = match.group().replace(" ", "").replace("-", "")
        if not 16 <= len(digits) <= 19 or not luhn_ok(digits):
            return False
        # an ID-shaped number is an ID (valid or with a wrong check digit), never a card
        return not (len(digits) == 18 and id_shaped(digits))


def _free_left(text: str, pos: int, extra: str = "") -> bool:
    """Nothing number-like (or a mask) glued to the left: not part of a longer number."""
    return pos == 0 or not (text[pos - 1] in _GLUED or text[pos - 1] in extra)


_GLUED = frozenset("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_*")


class Email(PatternRule):
    id = "sensitive/email"
    description = "an unmasked e-mail address"
    bad = ("邮箱zhangsan@163.com。", "contact: li.si+cases@law-firm.com.cn")
    good = ("z***@163.com", "@张三 你好", "user@localhost")
    trigger = "@"

    def __init__(self) -> None:
        super().__init__(
            self.id,
            self.description,
            r"[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}@"
            r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
            r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9\-])",
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked e-mail address",
        )

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        # z***@163.com is masked: the address must not continue a longer token to the left
        return _free_left(text, match.start(), ".%+-")


def rules() -> list[Rule]:
    return [ResidentId(), Mobile(), BankCard(), Email()]


__all__ = ["BankCard", "Email", "Mobile", "ResidentId", "rules"]
