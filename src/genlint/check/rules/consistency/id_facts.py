"""consistency/id-facts: a resident ID whose birth date or sex differs from what the same block
states for that person (出生日期, 性别, 年龄)."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable

from .. import Hit, Rule, RuleContext
from .dates import document_date, find_dates

ID = re.compile(
    r"(?<![0-9Xx])[1-9]\d{5}(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{3}[0-9Xx](?![0-9Xx])"
)
SEX = re.compile(r"性别\s*[：:]?\s*(?P<s>[男女])")
AGE = re.compile(r"年龄\s*[：:]?\s*(?P<a>\d{1,3})\s*(?:周)?岁|(?P<b>\d{1,3})\s*(?:周)?岁")
BIRTH = re.compile(r"(?:出生日期|出生年月日|出生于|生于|出生)\s*[：:]?\s*")
_W = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)


def _valid(number: str) -> bool:
    total = sum(int(c) * w for c, w in zip(number[:17], _W, strict=True))
    return "10X98765432"[total % 11] == number[17].upper()


def _blocks(text: str) -> Iterable[tuple[int, int]]:
    """Paragraphs: runs of lines between blank lines, at most 600 characters around an ID."""
    start = 0
    for m in re.finditer(r"\n\s*\n", text):
        yield start, m.start()
        start = m.end()
    yield start, len(text)


class IdFacts(Rule):
    id = "consistency/id-facts"
    description = (
        "a resident ID's birth date or sex differs from the birth date, sex or age stated beside it"
    )
    bad = (
        "被告：张三，性别：女，身份证号码：110101199003071233",
        "乙方：李四，出生日期：1991年3月7日，身份证号：110101199003071233",
    )
    good = (
        "被告：张三，性别：男，身份证号码：110101199003071233",
        "乙方：李四，出生日期：1990年3月7日，身份证号：110101199003071233",
    )
    # no trigger: a leading class makes trigger windows cost more than the rule's own anchors
    trigger = None

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        if "岁" not in text and "性别" not in text and "出生" not in text and "生于" not in text:
            return
        for bs, be in _blocks(text):
            ids = [m for m in ID.finditer(text, bs, be) if _valid(m.group())]
            if len(ids) != 1:
                continue  # none, or several people: whose age is it
            m = ids[0]
            number = m.group()
            # the whole number as the related place, so reports mask it like any ID
            id_span = (m.start(), m.end())
            try:
                born = dt.date(int(number[6:10]), int(number[10:12]), int(number[12:14]))
            except ValueError:
                continue
            male = int(number[16]) % 2 == 1
            for s in SEX.finditer(text, bs, be):
                if (s.group("s") == "男") != male:
                    yield Hit(
                        s.start("s"),
                        s.end("s"),
                        message=f"the ID number says {'男' if male else '女'}",
                        related=(id_span,),
                    )
            for b in BIRTH.finditer(text, bs, be):
                wd = next(find_dates(text, b.end(), min(be, b.end() + 16)), None)
                if wd is None or wd.start != b.end() or not wd.exists:
                    continue
                if wd.as_date() != born:
                    yield Hit(
                        wd.start,
                        wd.end,
                        message="the ID number gives another birth date",
                        related=(id_span,),
                    )
            today = document_date(text, ctx.memo)
            age = today.year - born.year - ((today.month, today.day) < (born.month, born.day))
            for a in AGE.finditer(text, bs, be):
                if a.group("a") is None and not text[max(bs, a.start() - 6) : a.start()].endswith(
                    ("，", ",", "：", ":")
                ):
                    continue
                stated = int(a.group("a") or a.group("b"))
                if abs(stated - age) > 1:  # the document's own date is not always known
                    yield Hit(
                        a.start(),
                        a.end(),
                        message="the stated age does not match the ID number's birth date",
                        related=(id_span,),
                    )
