"""Dates in every written form and weekdays in Chinese, English and Japanese (docs/rules.md
"consistency/date").

A date found in text keeps its span and its parts as written, so a rule can tell a date that does
not exist (2026年2月30日) from one it could not read.
"""

from __future__ import annotations

import calendar
import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass

from ...windows import anchor_windows
from .numerals import parse_cn

__all__ = ["WrittenDate", "document_date", "find_dates", "weekday_after"]

_CN = "〇零○一二三四五六七八九十廿卅"
# 2026年12月7日, 二〇二六年十二月七日; 2026-12-07, 2026.12.7, 2026/12/7; 12/7/2026
DATE = re.compile(
    rf"(?P<y>(?<![\d{_CN}])(?:1[89]\d\d|2[01]\d\d)|[〇零○一二][〇零○一二三四五六七八九]{{3}})\s*年\s*"
    rf"(?P<m>\d{{1,2}}|[{_CN}]{{1,3}})\s*月\s*(?P<d>\d{{1,2}}|[{_CN}]{{1,3}})\s*[日号]"
    r"|(?<![\d.\-/])(?P<y2>(?:1[89]|2[01])\d\d)(?P<sep>[-./])(?P<m2>\d{1,2})(?P=sep)(?P<d2>\d{1,2})(?![\d.\-/])"
    r"|(?<![\d.\-/])(?P<a>\d{1,2})/(?P<b>\d{1,2})/(?P<y3>(?:19|20)\d\d)(?![\d/])"
)


@dataclass(frozen=True, slots=True)
class WrittenDate:
    start: int
    end: int
    year: int
    month: int
    day: int
    # how it was written: "cn" (年月日), "iso" (2026-12-07 and dots), "us" (m/d/yyyy)
    form: str

    @property
    def exists(self) -> bool:
        return (
            1 <= self.month <= 12 and 1 <= self.day <= calendar.monthrange(self.year, self.month)[1]
        )

    def as_date(self) -> dt.date | None:
        return dt.date(self.year, self.month, self.day) if self.exists else None


def _num(s: str) -> int | None:
    return int(s) if s.isdigit() else parse_cn(s)


def find_dates(text: str, pos: int = 0, endpos: int | None = None) -> Iterator[WrittenDate]:
    """Every date written in ``text[pos:endpos]``; m/d/yyyy only where the day is over 12 (so
    the order is certain) or neither order is a date."""
    end = len(text) if endpos is None else endpos
    for m in (m for lo, hi in anchor_windows(text, _ANCHOR, 8, 16, pos, end) for m in DATE.finditer(text, lo, hi)):
        if m.group("y"):
            y, mo, d = _num(m.group("y")), _num(m.group("m")), _num(m.group("d"))
            form = "cn"
        elif m.group("y2"):
            y, mo, d = int(m.group("y2")), int(m.group("m2")), int(m.group("d2"))
            form = "iso"
        else:
            a, b, y = int(m.group("a")), int(m.group("b")), int(m.group("y3"))
            if a <= 12 and b <= 12 and a != b:
                continue  # 12/7/2026: December or July
            mo, d = (a, b) if a <= 12 else (b, a)
            form = "us"
        if y is None or mo is None or d is None:
            continue
        yield WrittenDate(m.start(), m.end(), y, mo, d, form)


# every date holds 年 or a digit, separator, digit; DATE starts with alternatives of classes,
# which ``re`` tries at every position, so it runs only near these (docs/benchmarks.md)
_ANCHOR = re.compile(r"年|\d[-./]\d")


_WEEKDAYS = {
    **{f"{p}{c}": i for p in ("星期", "周", "礼拜", "禮拜") for i, c in enumerate("一二三四五六")},
    **{f"{p}{c}": 6 for p in ("星期", "礼拜", "禮拜") for c in "日天"},
    "周日": 6,
    "周天": 6,
    **{f"{c}曜日": i for i, c in enumerate("月火水木金土日")},
    **{c: i for i, c in enumerate("月火水木金土日")},  # （火） only in brackets
    **{
        n: i
        for i, ns in enumerate(
            (("monday", "mon"), ("tuesday", "tue", "tues"), ("wednesday", "wed"),
             ("thursday", "thu", "thur", "thurs"), ("friday", "fri"), ("saturday", "sat"),
             ("sunday", "sun"))
        )
        for n in ns
    },
}  # fmt: skip
_WEEKDAY_AFTER = re.compile(
    r"[ \t]*(?P<open>[（(])?[ \t]*(?P<w>星期[一二三四五六日天]|礼拜[一二三四五六日天]|禮拜[一二三四五六日天]"
    r"|周[一二三四五六日天](?![年期末])|[月火水木金土日]曜日|[月火水木金土日](?=[）)])"
    r"|(?i:monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues?|wed|thu(?:rs?)?|fri|sat|sun)\b)"
)


def weekday_after(text: str, end: int) -> tuple[int, int, int] | None:
    """(start, end, weekday 0=Monday) of a weekday written right after a date ending at ``end``:
    ``（星期二）``, ``周二``, ``(Tue)``, ``（火）``; None when there is none."""
    m = _WEEKDAY_AFTER.match(text, end)
    if m is None:
        return None
    word = m.group("w")
    if len(word) == 1 and not m.group("open"):
        return None
    return m.start("w"), m.end("w"), _WEEKDAYS[word.lower()]


def document_date(text: str, memo: dict[str, object] | None = None) -> dt.date:
    """The date a document speaks from: its latest existing date not after today, else today
    (an undated document is read as written today)."""
    key = "consistency.document_date"
    if memo is not None and key in memo:
        cached = memo[key]
        if isinstance(cached, tuple) and cached[0] is text:
            return cached[1]
    today = dt.date.today()
    latest: dt.date | None = None
    for wd in find_dates(text):
        d = wd.as_date()
        if d is not None and d <= today and (latest is None or d > latest):
            latest = d
    result = latest or today
    if memo is not None:
        memo[key] = (text, result)
    return result
