"""Personal data recognised by its shape alone: e-mail addresses and licence plates."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .... import _lazy_re as lazy_re
from .. import Hit, PatternRule, Rule, RuleContext
from .context import (
    PLATE_LETTER,
    PLATE_PART,
    PROVINCES,
    TRIGGER,
    free_left,
    has_trigger,
    organisation_before,
    wide,
)
from .mailboxes import role_mailbox

_EMAIL = (
    r"[A-Za-z0-9][A-Za-z0-9._%+\-]{0,63}@"
    r"[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?"
    r"(?:\.[A-Za-z0-9](?:[A-Za-z0-9\-]{0,61}[A-Za-z0-9])?)*\.[A-Za-z]{2,24}(?![A-Za-z0-9\-])"
)
# the full-width ＠ as its own pattern: a class [@＠] would slow every text down by half
_EMAIL_WIDE = lazy_re.compile(_EMAIL.replace("@", "＠", 1))


class Email(PatternRule):
    id = "sensitive/email"
    description = "an unmasked e-mail address (＠ too)"
    bad = (
        "邮箱zhangsan@163.com。",
        "contact: li.si+cases@law-firm.com.cn",
        "邮箱：zhangsan＠163.com",
    )
    good = (
        "z***@163.com",
        "@张三 你好",
        "user@localhost",
        "z***＠163.com",
        "QualityHosting AG\nAccounts: buchhaltung@qualityhosting.de",
        "京东物流客服邮箱 kefu@jd-logistics.cn（JD Logistics）",
    )
    trigger = ("@", "＠")

    def __init__(self) -> None:
        super().__init__(
            self.id,
            self.description,
            _EMAIL,
            bad=self.bad,
            good=self.good,
            trigger=self.trigger,
            message="unmasked e-mail address",
        )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        yield from super().find(text, ctx)
        if "＠" in text:
            for m in ctx.finditer(_EMAIL_WIDE, text):
                if self.accept(m, text, ctx):
                    yield Hit(m.start(), m.end())

    def accept(self, match: re.Match[str], text: str, ctx: RuleContext) -> bool:
        # z***@163.com is masked: the address must not continue a longer token to the left;
        # an organisation's own address (公司邮箱：…, a role mailbox such as support@…) is not
        # personal data
        return (
            free_left(text, match.start(), ".%+-")
            and not role_mailbox(text, match.start(), match.end())
            and not organisation_before(text, match.start(), ctx)
        )


_PROVINCES, _LETTER = PROVINCES, PLATE_LETTER
# Han characters that make a word with the province character before a Latin model name
# (全新BMW320, 阿里云ECS123): then it is not a plate
_WORD_BEFORE = {"新": "全最更崭创重革翻刷出", "云": "里讯为度东山翼动米端上"}


def lettered(text: str, ctx: RuleContext, part: int | tuple[int, ...]) -> list[re.Match[str]]:
    """Values that start with a capital letter: a plate (group ``plate``) or a letter and
    digits (group ``serial``, a passport number if a label says so), in the windows of the
    trigger ``part`` (PLATE_PART or SERIAL_PARTS)."""
    return list(ctx.finditer(_LETTERED if wide(text, ctx) else _LETTERED_ASCII, text, part))


# One class first, then the kinds: re finds a class at scan speed, not an alternation.
_LETTERED = lazy_re.compile(
    f"[A-ZＡ-Ｚ](?:(?<=[{_PROVINCES}][{_LETTER}])[·•・. \\-]?"
    f"(?P<plate>[DF][{_LETTER}0-9][0-9]{{4}}|[0-9]{{5}}[DF]"
    f"|[{_LETTER}0-9]{{4}}[{_LETTER}0-9挂学警港澳领])(?![A-Za-z0-9_*＊])"
    "|(?P<serial>[A-ZＡ-Ｚ]?(?:[0-9]{6,9}|[０-９]{6,9})))"
)
# a full-width letter is only a value before full-width digits: without them, ASCII is enough
_LETTERED_ASCII = lazy_re.compile(_LETTERED.pattern.replace("[A-ZＡ-Ｚ](?:", "[A-Z](?:", 1))


class Plate(Rule):
    id = "sensitive/plate"
    description = (
        "an unmasked licence plate (粤B·12345, 京A12345, new-energy plates with six "
        "characters after the letter)"
    )
    bad = ("车牌号粤B·12345", "驾驶京A12345号小型轿车", "新能源车粤BD12345", "沪A·3B7C2")
    good = (
        "粤B·***45",
        "京ICP备12345678号",
        "(2023)京01民初123号",
        "全新BMW320轿车",
        "苏B2-20080023",
        "沪A600519",
    )
    trigger = TRIGGER

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in lettered(text, ctx, PLATE_PART):
            body = m.group("plate")
            if body is None:
                continue
            start = m.start() - 1
            # a serial has at most two letters (GA 36); more is a model name or a code
            if sum(ch.isalpha() and ch.isascii() for ch in body) > 2:
                continue
            before = text[start - 1 : start] if start else ""
            if before and before in _WORD_BEFORE.get(text[start], ""):
                continue
            if has_trigger(text, start, m.end()):
                yield Hit(start, m.end(), message="unmasked licence plate")
