"""consistency/date: a date that does not exist, a wrong weekday, a period that ends before it
starts."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import Hit, Rule, RuleContext
from .dates import find_dates, weekday_after

_NAMES = "一二三四五六日"
# between the two dates of a period: 至, 到, —, ~ (自…起至…止, 从…到…)
_PERIOD = re.compile(r"\s*(?:起)?\s*(?:至|到|—{1,2}|–|~|～)\s*(?:$)")


class DateRule(Rule):
    id = "consistency/date"
    description = "a date that does not exist, a weekday that is not that date's, or a period ending before it starts"
    bad = (
        "签订日期：2026年2月30日",
        "于2026年12月7日（星期二）开庭",
        "租期自2026年3月1日起至2025年2月28日止",
        "2026年13月1日",
        "会议定于2026-12-07 (Tuesday)",
    )
    good = (
        "签订日期：2026年2月28日",
        "于2026年12月7日（星期一）开庭",
        "租期自2026年3月1日起至2027年2月28日止",
        "二〇二四年二月二十九日",
        "12/7/2026",
    )
    # no trigger: a leading class makes trigger windows cost more than the rule's own anchors
    trigger = None

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for pos, endpos in ctx.windows or ((0, len(text)),):
            previous = None
            for wd in find_dates(text, pos, endpos):
                if not wd.exists:
                    if wd.month > 12 or wd.month < 1:
                        what = f"month {wd.month}"
                    else:
                        what = f"{wd.year}-{wd.month:02d} has no day {wd.day}"
                    yield Hit(wd.start, wd.end, message=f"a date that does not exist: {what}")
                    previous = None
                    continue
                day = wd.as_date()
                assert day is not None
                weekday = weekday_after(text, wd.end)
                if weekday is not None and weekday[2] != day.weekday():
                    yield Hit(
                        weekday[0],
                        weekday[1],
                        message=f"{day.isoformat()} is a 星期{_NAMES[day.weekday()]}, not "
                        f"{text[weekday[0] : weekday[1]]}",
                        fix=f"星期{_NAMES[day.weekday()]}",
                        related=((wd.start, wd.end),),
                    )
                if previous is not None:
                    first, first_day = previous
                    between = text[first.end : wd.start]
                    if len(between) <= 6 and _PERIOD.match(between) and day < first_day:
                        yield Hit(
                            wd.start,
                            wd.end,
                            message=f"the period ends ({day.isoformat()}) before it starts "
                            f"({first_day.isoformat()})",
                            related=((first.start, first.end),),
                        )
                previous = (wd, day)
