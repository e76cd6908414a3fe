"""``sensitive`` pack: unmasked personal data (SPEC §1 "What is sensitive").

Every rule needs logic (check digits, dates, digit boundaries), so all are code. A number is
only flagged when it is not part of a longer run of digits, and masked forms (138****5678,
110101********1234) never match because the mask breaks the digit run.
"""

from __future__ import annotations

import re

from .. import PatternRule, Rule, RuleContext
from .checks import id_shaped, luhn_ok, valid_resident_id


class ResidentId(PatternRule):
    id = "sensitive/resident-id"
    description = "an unmasked mainland resident ID number (valid date and check digit)"
    bad = ("身份证号：11010519491231002X", "身份证110101199003074573。")
    good = ("110101********1234", "身份证号：110105194912310021", "110101199013074573")
    trigger = r"\d{17}"

    def __init__(self) -> None:
        super().__init__(
            self.id,
            self.description,
            rf"(?<![0-9A-Za-z_*]){'[0-9]' * 17}[0-9Xx](?![0-9A-Za-z_*])",
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked resident ID number",
        )

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        return valid_resident_id(match.group())


class Mobile(PatternRule):
    id = "sensitive/mobile"
    description = "an unmasked mainland mobile number (11 digits 1[3-9]…, optional +86)"
    bad = ("电话13812345678", "手机：+86 139-1234-5678", "Tel: +8615912345678", "138 1234 5678")
    good = ("138****5678", "订单号2013812345678", "电话12812345678", "010-12345678")
    trigger = r"1[3-9]\d"

    def __init__(self) -> None:
        super().__init__(
            self.id,
            self.description,
            r"(?:(?<![0-9A-Za-z_*+])(?:\+|＋|00)?86[ \t-]?|(?<![0-9A-Za-z_*]))"
            r"1[3-9][0-9](?:[0-9]{8}|([ \t-])[0-9]{4}\1[0-9]{4})(?![0-9A-Za-z_*])",
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked mobile number",
        )


class BankCard(PatternRule):
    id = "sensitive/bank-card"
    description = "an unmasked bank card number (16–19 digits, valid Luhn check)"
    bad = ("卡号6222021234567890128", "6225 8801 2345 6783", "4111111111111111")
    good = ("卡号6222021234567890123", "6222 **** **** 0128", "110105194912310021")
    trigger = r"\d{4}[ -]?\d{4}[ -]?\d{4}[ -]?\d{4}"

    def __init__(self) -> None:
        super().__init__(
            self.id,
            self.description,
            r"(?<![0-9A-Za-z_*])(?:[0-9]{16,19}|[0-9]{4}([ -])[0-9]{4}\1[0-9]{4}\1[0-9]{4}"
            r"(?:\1[0-9]{1,3})?)(?![0-9A-Za-z_*])",
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked bank card number",
        )

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        digits = match.group().replace(" ", "").replace("-", "")
        if not 16 <= len(digits) <= 19 or not luhn_ok(digits):
            return False
        # an ID-shaped number is an ID (valid or with a wrong check digit), never a card
        return not (len(digits) == 18 and id_shaped(digits))


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
            r"(?<![A-Za-z0-9._%+\-*])[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}@"
            r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
            r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9\-])",
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked e-mail address",
        )


def rules() -> list[Rule]:
    return [ResidentId(), Mobile(), BankCard(), Email()]


__all__ = ["BankCard", "Email", "Mobile", "ResidentId", "rules"]
