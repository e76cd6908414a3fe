"""Form labels: what a label before a colon is, where it starts on its line, whether a line is
a field line, and whether a label names a value or a group (docs/commands/check.md, "Empty form fields").
The rule that decides when a label's value is missing is :mod:`.fields`."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from functools import lru_cache

from .... import _lazy_re as lazy_re
from .blanks import BLANK_CHARS, BLANK_CLASS
from .labels import CJK_VALUE_NOUNS


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# what splits a line into fields: prose punctuation, a wide blank, a single space next to a
# non-ASCII character (张三 性别), a table bar
SPLIT = lazy_re.compile(
    rf"[，,；;。!?！？、|】\]]|[{BLANK_CLASS.lstrip(' ')}]+| {{2,}}"
    r"| (?=[^\x00-\x7f])|(?<=[^\x00-\x7f]) "
)
# 姓　　名: single characters spaced out to align a form column are one label
SPACED = lazy_re.compile(rf"[^\x00-\x7f](?:[{BLANK_CLASS}]+[^\x00-\x7f])+")
_LEAD = lazy_re.compile(
    rf"[{BLANK_CLASS}]*(?:>[ ]*)*(?:[-*+•·▪●][ \t]+|\d{{1,3}}[.)．、][ \t]*"
    r"|[（(][一二三四五六七八九十\d]{1,3}[)）][ \t]*|[一二三四五六七八九十]{1,3}[、.．][ \t]*)?"
)
MD_HEADING = lazy_re.compile(r"[ \t]{0,3}#{1,6}[ \t]")
_NOT_IN_LABEL = frozenset("。，；！？,;!?“”\"‘’'《》<>{}[]【】=@#/\\`$%^~")
_LEAD_INS = _words(
    "如下 以下 下列 所示 如次 如 为 是 即 指 包括 包含 诉称 辩称 声称 宣称 认为 指出 表示 说 道 问 答 规定 约定 例如 比如 "
    "follows following below include includes including e.g i.e"
)
_VALUE_ENDINGS = tuple(CJK_VALUE_NOUNS) + _words(
    "方 人 号 名 址 别 族 龄 历 码 话 箱 行 章 字 位 业 期 日 编 籍 貌 况 度 级 型 额 价 费 数 量 率 方式 产地 标准 代表"
)
# 当事人信息：\n姓名：… names the group of fields below it
GROUP_ENDINGS = ("信息", "情况", "资料", "概况", "information", "details")

_EN_VALUE = lazy_re.compile(
    r"(?i)(?:name|date|address|title|signature|by|its|phone|tel|fax|e-?mail|company|amount|"
    r"city|state|zip|country|position|dated|witness|attn|to|from|re|cc|no|number|id)\.?$"
)
# what may end the text before a label on a form line (其他□ ____ 姓名：, a note in parentheses):
# a tick box, a line to write on, a closing bracket, another name of the field (姓名 / 名称：) —
# not a sentence the "label" would end
_FIELD_BEFORE = frozenset("□☐■☑☒✓√_＿）)/")


def _last(matches: Iterator[re.Match[str]]) -> re.Match[str] | None:
    kept = deque(matches, maxlen=1)
    return kept[0] if kept else None


def label_core(label: str) -> str:
    """The label without its emphasis markup and blanks: what is counted and compared."""
    return "".join(label.replace("**", "").replace("*", "").split())


# 住所地（主要办事机构所在地）: a qualifier in parentheses explains the label, it does not make
# it a sentence, so it is not counted against the label's length (the whole stays bounded)
_QUALIFIER = lazy_re.compile(r"（[^（）]{1,20}）|\([^()]{1,20}\)")


@lru_cache(maxsize=4096)  # forms repeat their labels; a flood of one label stays cheap
def is_label(label: str, limit: int = 12) -> bool:
    core = label_core(label)
    if "/" in core and not core.isascii():
        core = core.replace("/", "")  # 注册地 / 登记地: two names of one field
    short = _QUALIFIER.sub("", core) if "（" in core or "(" in core else core
    if not 0 < len(short) <= limit or len(core) > limit + 22:
        return False
    if any(ch in _NOT_IN_LABEL for ch in core):
        return False
    if core.count("（") != core.count("）") or core.count("(") != core.count(")"):
        return False
    if not any(ch.isalpha() for ch in core) or core[0].isdigit():
        return False
    if core.isascii():
        if not core[0].isalpha() or len(label.split()) > 4:
            return False
        if label.strip().lower().endswith(_LEAD_INS):
            return False
        return core.lower() not in ("http", "https", "ftp", "mailto", "file")
    return not core.endswith(_LEAD_INS) and not any(w in core for w in ("以下", "如下", "下列"))


@lru_cache(maxsize=4096)
def names_value(label: str) -> bool:
    core = label_core(label)
    if core.isascii():
        return _EN_VALUE.search(core) is not None
    return core.endswith(_VALUE_ENDINGS)


def line_start_of(text: str, pos: int, reach: int = 200) -> int:
    """Start of the line holding ``pos``, looking back at most ``reach`` characters (so a huge
    single line costs the same per colon; a label is never that far from its line start)."""
    lo = max(0, pos - reach)
    return max(text.rfind("\n", lo, pos), text.rfind("\r", lo, pos), lo - 1) + 1


class Label:
    """Where a colon's label starts, and whether an earlier field shares its line."""

    __slots__ = ("after_field", "indent", "listed", "prose_before", "start")

    def __init__(
        self, start: int, after_field: bool, prose_before: bool, indent: int, listed: bool
    ) -> None:
        self.start = start
        self.after_field = after_field
        self.prose_before = prose_before
        self.indent = indent
        self.listed = listed


def label_before(text: str, colon: int, line_start: int) -> Label | None:
    if colon - line_start > _REACH:
        # a long line: only a label after an earlier field near it can be one (a form line)
        body_start, indent, listed = colon - _REACH, 0, False
    else:
        if MD_HEADING.match(text, line_start, colon):
            return None
        lead = _LEAD.match(text, line_start, colon)
        assert lead is not None  # every part of _LEAD is optional
        body_start = lead.end()
        raw = text[line_start:body_start]
        indent = len(raw) - len(raw.lstrip(BLANK_CHARS))
        listed = body_start > line_start + indent
    prev = max(text.rfind("：", body_start, colon), text.rfind(":", body_start, colon))
    if prev < 0 and colon - line_start > _REACH:
        return None  # a label is short; a long line before the colon is prose
    bar = text.rfind("|", body_start, colon)
    seg_start = max(prev + 1, bar + 1, body_start)
    seg = text[seg_start:colon]
    start = seg_start
    prose_before = False
    spaced = _last(SPACED.finditer(seg))
    if spaced is not None and spaced.end() == len(seg.rstrip(BLANK_CHARS)):
        start = seg_start + spaced.start()  # 姓　　名: one label, not 名 after a blank
    else:
        last = _last(SPLIT.finditer(seg))
        if last is not None:
            start = seg_start + last.end()
            # 地址、电话：: names of one field joined by 、 at a line start are one label
            if last.group() == "、" and prev < 0 and bar < 0 and is_label(seg):
                start = seg_start
    value_before = text[seg_start:start]
    before = value_before.strip(BLANK_CHARS + "|")
    boxed = bool(before) and before[-1] in _FIELD_BEFORE
    if prev < 0 and before and not boxed:
        # text before the label and no earlier field: the "label" ends a sentence
        return None
    after_field = prev >= 0 or boxed
    if after_field:
        prose_before = any(ch in "，,；;" for ch in value_before)
    # the blank of the split belongs to neither field
    while start < colon and text[start] in " \t\u3000\xa0":
        start += 1
    if start >= colon or not is_label(text[start:colon]):
        return None
    return Label(start, after_field, prose_before, indent, listed)


FIELD_LINE = lazy_re.compile(
    rf"(?:\*\*)?([^\r\n：:|]{{1,24}}?)(?:\*\*)?[{BLANK_CLASS}]*[：:](?!//)"
)

_REACH = 120  # how far back from a colon its label and the field before it are looked for


def field_line(text: str, start: int, end: int, limit: int = 12) -> tuple[bool, int, bool]:
    """(is a field line, indentation, has a list marker) of the line ``text[start:end]``."""
    lead = _LEAD.match(text, start, end)
    assert lead is not None
    body = lead.end()
    raw = text[start:body]
    indent = len(raw) - len(raw.lstrip(BLANK_CHARS))
    listed = body > start + indent
    m = FIELD_LINE.match(text, body, end)
    is_field = (
        m is not None
        and is_label(m.group(1), limit)
        and not SPLIT.search(m.group(1).strip().replace(" / ", "/").replace("、", "/"))
    )
    return is_field, indent, listed


__all__ = [
    "FIELD_LINE",
    "GROUP_ENDINGS",
    "MD_HEADING",
    "SPACED",
    "SPLIT",
    "Label",
    "field_line",
    "is_label",
    "label_before",
    "label_core",
    "line_start_of",
    "names_value",
]
