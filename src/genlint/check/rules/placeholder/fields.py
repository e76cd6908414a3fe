"""Empty form fields: a short label and its colon with nothing (or only blanks) after it.

What counts (SPEC §1, "Empty form fields")
------------------------------------------
A *label* is at most 12 characters, not a sentence: no sentence punctuation, no quotes or
markup brackets, and not a lead-in such as 如下/以下/包括/as follows. It starts a line (after
indentation, a list marker or ``**``), or follows the value of an earlier field on the same line
(``姓名：张三  性别：``), or a table-cell bar ``|``. The finding is the label, its colon and the
blank after it.

A label's value is missing when its colon is followed, on the same line, by

* only blanks up to the end of a table cell (``|`` then an empty cell or the row's end);
* a blank of two or more spaces, or any tab / full-width space / NBSP, and then another label
  (``姓名：      性别：``); with no blank or one space, only when that next label is itself
  empty (``姓名：性别：``), since ``备注：付款方式：转账`` is a field holding a sub-field;
* only blanks up to the end of the line — decided as below.

End of the line (the hard case: an empty field or a heading introducing the lines below?)

* A label after another field on its line (``姓名：张三  性别：``) is a form field: empty. When
  the earlier value reads as prose (it holds ，/；), only a label naming a value (…电话, …日期,
  Name) counts, so ``…，故诉至法院，请求：`` stays a lead-in.
* A label alone on its line followed by a blank of two or more characters (or a tab, a
  full-width space, an NBSP) is a form line with room left to write in: empty.
* Otherwise the next non-blank line decides. None (end of text): empty. Another field at the
  same level (``姓名：\\n性别：``, a form; DOCX readers put each table cell on its own line, so an
  empty value cell is a blank line and the next label follows): empty. A more indented line or
  a list item (children of a heading), or any other line (``诉讼请求：\\n判令被告…``; a value in the
  next table cell, ``姓名：\\n张三``): a heading, not flagged. One exception: the last field of a
  form block (the line above is a field) naming a value (联系地址, 电话, Date) followed by a body
  paragraph (a line with 。 or over 40 characters) is empty — a value cell is short.
* A Markdown heading line (``## 诉讼请求：``) is never a field.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterable, Iterator
from functools import lru_cache
from typing import TYPE_CHECKING

from .... import _lazy_re as lazy_re
from .. import Hit, Rule, RuleContext
from .labels import CJK_VALUE_NOUNS
from .signature import bare_signature_label, caps_party_name, next_line, party_seal_heading

if TYPE_CHECKING:
    from .cells import CellSpans


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


_BLANKS = " \t\u3000\xa0\u2000-\u200a\u202f\u205f"  # a regex class body
_BLANK_CHARS = " \t\u3000\xa0" + "".join(map(chr, range(0x2000, 0x200B))) + "\u202f\u205f"
# one pattern per colon, each starting with it (re skips to a literal at memchr speed); the
# lookahead only prefilters in C — every candidate is decided in Python below
_B = f"[{_BLANKS}]"
_WIDE = r"(?:[\t\u3000\xa0\u2000-\u200a\u202f\u205f]| {2})"  # a blank that leaves room to write
_END = r"(?:[\r\n|]|\Z)"
_NEXT = r"[^\r\n：:。，；！？,;!?|]{1,30}?[：:]"
# a colon followed by blanks to the end of the line or cell, by a wide blank, or by one space
# and another label: a check of a character or two in C for most colons (时间：10:30 fails at
# once). A label glued to an empty one (姓名：性别：) is found walking back from that one.
_CANDIDATES = tuple(
    lazy_re.compile(rf"{colon}(?=\*\*|{_B}*{_END}|{_WIDE}| {_NEXT})") for colon in ("：", ":")
)
_GLUED_MOST = 8  # how many glued empty fields are walked back over (a form line has few)
_NO_LABEL_BEFORE = frozenset("\r\n：:|")
_BLANK_RUN = lazy_re.compile(f"[{_BLANKS}]*")
_STRONG_BLANK = lazy_re.compile(r"[^ ]| {2}")
# what splits a line into fields: prose punctuation, a wide blank, a single space next to a
# non-ASCII character (张三 性别), a table bar
_SPLIT = lazy_re.compile(
    r"[，,；;。!?！？、|】\]]|[\t\u3000\xa0\u2000-\u200a\u202f\u205f]+| {2,}"
    r"| (?=[^\x00-\x7f])|(?<=[^\x00-\x7f]) "
)
# 姓　　名: single characters spaced out to align a form column are one label
_SPACED = lazy_re.compile(rf"[^\x00-\x7f](?:[{_BLANKS}]+[^\x00-\x7f])+")
_LEAD = lazy_re.compile(
    rf"[{_BLANKS}]*(?:>[ ]*)*(?:[-*+•·▪●][ \t]+|\d{{1,3}}[.)．、][ \t]*"
    r"|[（(][一二三四五六七八九十\d]{1,3}[)）][ \t]*|[一二三四五六七八九十]{1,3}[、.．][ \t]*)?"
)
_MD_HEADING = lazy_re.compile(r"[ \t]{0,3}#{1,6}[ \t]")
_NOT_IN_LABEL = frozenset("。，；！？,;!?“”\"‘’'《》<>{}[]【】=@#/\\`$%^~")
_LEAD_INS = _words(
    "如下 以下 下列 所示 如次 如 为 是 即 指 包括 包含 诉称 辩称 声称 宣称 认为 指出 表示 说 道 问 答 规定 约定 例如 比如 "
    "follows following below include includes including e.g i.e"
)
_VALUE_ENDINGS = tuple(CJK_VALUE_NOUNS) + _words(
    "方 人 号 名 址 别 族 龄 历 码 话 箱 行 章 字 位 业 期 日 编 籍 貌 况 度 级 型 额 价 费 数 量 率"
)
# 当事人信息：\n姓名：… names the group of fields below it
_GROUP_ENDINGS = ("信息", "情况", "资料", "事项", "概况", "information", "details")
_BLANK_DATE = lazy_re.compile(rf"[{_BLANKS}_＿\r]*年[{_BLANKS}_＿]*月[{_BLANKS}_＿]*日[{_BLANKS}\r]*")
_EN_VALUE = lazy_re.compile(
    r"(?i)(?:name|date|address|title|signature|by|its|phone|tel|fax|e-?mail|company|amount|"
    r"city|state|zip|country|position|dated|witness|attn|to|from|re|cc|no|number|id)\.?$"
)
_ASCII_LETTER = lazy_re.compile(r"[A-Za-z]")
# what may end the text before a label on a form line (其他□ ____ 姓名：, a note in parentheses):
# a tick box, a line to write on, a closing bracket, another name of the field (姓名 / 名称：) —
# not a sentence the "label" would end
_FIELD_BEFORE = frozenset("□☐■☑☒✓√_＿）)/")
# a line holding only an unfilled template slot ({{field_001}}): the value above is not filled
_ONLY_SLOT = lazy_re.compile(r"[ \t]*(?:\{\{[^{}\n]{1,60}\}\}|\$\{[^{}\s]{1,60}\})[ \t\r]*")


def _last(matches: Iterator[re.Match[str]]) -> re.Match[str] | None:
    kept = deque(matches, maxlen=1)
    return kept[0] if kept else None


def _core(label: str) -> str:
    """The label without its emphasis markup and blanks: what is counted and compared."""
    return "".join(label.replace("**", "").replace("*", "").split())


# 住所地（主要办事机构所在地）: a qualifier in parentheses explains the label, it does not make
# it a sentence, so it is not counted against the label's length (the whole stays bounded)
_QUALIFIER = lazy_re.compile(r"（[^（）]{1,20}）|\([^()]{1,20}\)")


@lru_cache(maxsize=4096)  # forms repeat their labels; a flood of one label stays cheap
def _is_label(label: str, limit: int = 12) -> bool:
    core = _core(label)
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
def _names_value(label: str) -> bool:
    core = _core(label)
    if core.isascii():
        return _EN_VALUE.search(core) is not None
    return core.endswith(_VALUE_ENDINGS)


def _line_start(text: str, pos: int, reach: int = 200) -> int:
    """Start of the line holding ``pos``, looking back at most ``reach`` characters (so a huge
    single line costs the same per colon; a label is never that far from its line start)."""
    lo = max(0, pos - reach)
    return max(text.rfind("\n", lo, pos), text.rfind("\r", lo, pos), lo - 1) + 1


class _Label:
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


_COMPOUND_PART = 6  # characters of a name joined to a label by 、 at most (地址、电话)


def _compound_start(seg: str, last: re.Match[str]) -> int:
    """Where the label ending ``seg`` starts, given the last split in it: names joined by 、
    (地址、电话：, 开户行、账号：) are one field's label, a long clause before 、 is not."""
    start = last.end()
    split: re.Match[str] | None = last
    while split is not None and split.group() == "、":
        head = seg[: split.start()]
        prev = _last(_SPLIT.finditer(head))
        part_start = prev.end() if prev is not None else 0
        part = head[part_start:].strip(_BLANK_CHARS)
        if not 0 < len(part) <= _COMPOUND_PART or part.isascii():
            break
        start, split = part_start, prev
    return start


def _label_before(text: str, colon: int, line_start: int) -> _Label | None:
    if colon - line_start > _REACH:
        # a long line: only a label after an earlier field near it can be one (a form line)
        body_start, indent, listed = colon - _REACH, 0, False
    else:
        if _MD_HEADING.match(text, line_start, colon):
            return None
        lead = _LEAD.match(text, line_start, colon)
        assert lead is not None  # every part of _LEAD is optional
        body_start = lead.end()
        raw = text[line_start:body_start]
        indent = len(raw) - len(raw.lstrip(_BLANK_CHARS))
        listed = body_start > line_start + indent
    prev = max(text.rfind("：", body_start, colon), text.rfind(":", body_start, colon))
    if prev < 0 and colon - line_start > _REACH:
        return None  # a label is short; a long line before the colon is prose
    bar = text.rfind("|", body_start, colon)
    seg_start = max(prev + 1, bar + 1, body_start)
    seg = text[seg_start:colon]
    start = seg_start
    prose_before = False
    spaced = _last(_SPACED.finditer(seg))
    if spaced is not None and spaced.end() == len(seg.rstrip(_BLANK_CHARS)):
        start = seg_start + spaced.start()  # 姓　　名: one label, not 名 after a blank
    else:
        last = _last(_SPLIT.finditer(seg))
        if last is not None:
            start = seg_start + _compound_start(seg, last)
    value_before = text[seg_start:start]
    before = value_before.strip(_BLANK_CHARS + "|")
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
    if start >= colon or not _is_label(text[start:colon]):
        return None
    return _Label(start, after_field, prose_before, indent, listed)


_FIELD_LINE = lazy_re.compile(rf"(?:\*\*)?([^\r\n：:|]{{1,24}}?)(?:\*\*)?[{_BLANKS}]*[：:](?!//)")
_NEXT_LABEL = lazy_re.compile(r"(?:\*\*)?([^\r\n：:|]{1,30}?)(?:\*\*)?[：:]")
_REACH = 120  # how far back from a colon its label and the field before it are looked for
_LOOKAHEAD = 2000  # how far the blank lines after a label are followed


def _field_line(text: str, start: int, end: int, limit: int = 12) -> tuple[bool, int, bool]:
    """(is a field line, indentation, has a list marker) of the line ``text[start:end]``."""
    lead = _LEAD.match(text, start, end)
    assert lead is not None
    body = lead.end()
    raw = text[start:body]
    indent = len(raw) - len(raw.lstrip(_BLANK_CHARS))
    listed = body > start + indent
    m = _FIELD_LINE.match(text, body, end)
    is_field = (
        m is not None
        and _is_label(m.group(1), limit)
        and not _SPLIT.search(_joined(m.group(1).strip().replace(" / ", "/")))
    )
    return is_field, indent, listed


def _joined(label: str) -> str:
    """地址、电话 as one label: the 、 between short names (see :func:`_compound_start`)."""
    if "、" not in label:
        return label
    parts = label.split("、")
    if all(0 < len(p) <= _COMPOUND_PART and not p.isascii() for p in parts):
        return "".join(parts)
    return label


def _empty_after_next_label(text: str, colon: int) -> bool:
    """Whether the field whose colon is at ``colon`` is itself empty (one level: 姓名：性别：)."""
    p = colon + 1
    if text.startswith("**", p):
        p += 2
    q = _BLANK_RUN.match(text, p).end()  # type: ignore[union-attr]
    return q >= len(text) or text[q] in "\r\n|" or (q - p >= 2 and text[q] not in "：:")


def _block_heading(label: str, text: str, line_end: int) -> bool:
    """BUYER: or 甲方（盖章）： above field lines heads its block (SPEC §1)."""
    core = _core(label)
    if not (caps_party_name(label) or party_seal_heading(core)):
        return False
    nxt = next_line(text, line_end, _BLANK_CHARS)
    return nxt is not None and _field_line(text, nxt[0], nxt[1], limit=20)[0]


class EmptyField(Rule):
    """See the module docstring: what a label is and when its value counts as missing."""

    id = "placeholder/empty-field"
    description = "a form label is followed by nothing: its value was never filled in"
    bad = (
        "姓名：      性别：",
        "签订日期：",
        "甲方：\n地址：\n电话：",
        "购买方名称：\n纳税人识别号：\n地址、电话：",
        "联系电话：　　　　",
        "Name:\t\tDate:",
        "开户行：工商银行  账号：",
        "| 姓名： |   |",
        "| Name | |",
        "<tr><td>Company</td><td>&nbsp;</td></tr>",
        "住所地（主要办事机构所在地）：\n法定代表人：",
        "离婚损害赔偿□ 金额：",
        "证件号码：\n{{field_001}}",
        "BUYER:\nName:\nTitle:",
        "签约代表：\n委托代理人：",
        "单位名称（章）：",
        "具状人（签字）：\n日期：2026年3月1日",
    )
    good = (
        "诉讼请求：\n1. 判令被告支付货款10000元；",
        "备注：\n本合同一式两份。",
        "会议时间为10:30，地点另行通知。",
        "详见 http://example.com/a:b 的说明",
        "Note: the parties agree.",
        "事实与理由：\n  原告与被告于2023年签订合同。",
        "当事人：\n- 姓名：张三",
        "姓名：\n张三",
        "签署日期：2026年3月1日",
        "甲方应当支付全部货款、违约金：\n1. 货款10000元；",
        "审判长：王立新，审判员：陈静。",
        "双方约定如下：",
        "| Name | Title |\n|---|---|\n| Ann | CEO |",
        "| 项目 | |\n| --- | --- |",
        "签字：",
        "甲方（盖章）：\n法定代表人：张三",
        "SELLER:\nName: Ann Lee\nTitle: CEO",
        "COMPANY:\nBy: Ann Lee\nTitle: CEO",
    )
    # no trigger: colons are so common that windows around them cover most of a Chinese text,
    # and building them costs more than the one scan per colon the rule makes anyway
    trigger = None
    skip_code = True

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        hits = self._find(text, ctx)
        if not ctx.labels_with_values:
            return hits
        # the reader measured the page: a label whose value stands elsewhere is not empty
        filled = ctx.labels_with_values
        return (
            h
            for h in hits
            if not any(i in filled for i in range(h.start, h.end) if text[i] in "：:")
        )

    def _find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        from .cells import CellSpans, docx_cells, empty_cells

        yield from empty_cells(text, _is_label)
        cells = None
        if ctx.places and ctx.kind == "docx":
            yield from docx_cells(text, ctx.places, _is_label, _GROUP_ENDINGS)
            cells = CellSpans(ctx.places, len(text))
        for pattern in _CANDIDATES:
            for m in ctx.finditer(pattern, text):
                hit = self._check(text, m.start(), cells)
                if hit is None:
                    continue
                yield hit
                yield from self._glued_before(text, hit.start)

    def _glued_before(self, text: str, start: int) -> Iterable[Hit]:
        """姓名：性别：: labels glued to an empty field before it are empty fields too."""
        for _ in range(_GLUED_MOST):
            colon = start - 1
            if colon <= 0 or text[colon] not in "：:":
                return
            label = _label_before(text, colon, _line_start(text, colon))
            if label is None:
                return
            yield Hit(label.start, start, message=f"empty form field '{text[label.start : start]}'")
            start = label.start

    def _check(self, text: str, colon: int, cells: CellSpans | None = None) -> Hit | None:
        n = len(text)
        if colon == 0 or text[colon - 1] in _NO_LABEL_BEFORE:
            return None
        # what follows the colon first: it rejects most colons without looking back
        p = colon + 3 if text.startswith("**", colon + 1) else colon + 1
        q = _BLANK_RUN.match(text, p).end()  # type: ignore[union-attr]
        strong = _STRONG_BLANK.search(text, p, q) is not None
        at_line_end = q >= n or text[q] in "\r\n"
        if not at_line_end:
            if text[q] == "|":
                r = _BLANK_RUN.match(text, q + 1).end()  # type: ignore[union-attr]
                if r < n and text[r] not in "\r\n|":
                    return None  # the value stands in the next cell
            elif not self._next_label_follows(text, q, strong):
                return None
        line_start = _line_start(text, colon)
        label = _label_before(text, colon, line_start)
        if label is None or bare_signature_label(_core(text[label.start : colon])):
            return None
        if at_line_end and _block_heading(text[label.start : colon], text, q):
            return None
        # a label ending its DOCX table cell with no value in the row's next cell (or no next
        # cell): the layout says the field is empty, whatever line the reader puts next
        ended = at_line_end and cells is not None and cells.empty_after(text, q, _BLANK_CHARS)
        if (
            at_line_end
            and not ended
            and not self._empty_at_line_end(text, label, strong, colon, line_start, q)
        ):
            return None
        end = q
        while end > p and text[end - 1] == "\r":
            end -= 1
        return Hit(label.start, end, message=f"empty form field '{text[label.start : end]}'")

    @staticmethod
    def _next_label_follows(text: str, q: int, strong: bool) -> bool:
        """Whether the text at ``q`` is the next label of the line (so the value before it is
        missing): after a wide blank any label; after none or one space, an empty one."""
        nxt = _NEXT_LABEL.match(text, q, min(len(text), q + 40))
        if nxt is None:
            return False
        word = nxt.group(1).strip()
        if _SPLIT.search(word) and not _SPACED.fullmatch(word):
            return False  # 姓名：张三  性别： — 张三 is the value
        if not _is_label(word, limit=20):
            return False
        return strong or _empty_after_next_label(text, nxt.end() - 1)

    @staticmethod
    def _empty_at_line_end(
        text: str, label: _Label, strong: bool, colon: int, line_start: int, line_end: int
    ) -> bool:
        name = text[label.start : colon]
        if label.after_field:
            return not label.prose_before or _names_value(name)
        n = len(text)
        # the next non-blank line (bounded: a run of blank lines is followed only so far)
        r, limit = line_end, min(n, line_end + _LOOKAHEAD)
        while True:
            if r >= limit:
                return r >= n or strong  # end of text: nothing followed the label
            r += 1
            nl = text.find("\n", r, limit)
            stop = limit if nl < 0 else nl
            if text[r:stop].strip(_BLANK_CHARS + "\r"):
                break
            r = stop
        next_end = text.find("\n", r, min(n, r + 400))
        next_end = min(n, r + 400) if next_end < 0 else next_end
        is_field, indent, listed = _field_line(text, r, next_end, limit=20)
        if _BLANK_DATE.fullmatch(text, r, next_end) or _ONLY_SLOT.fullmatch(text, r, next_end):
            return True  # 乙方（签字）：\n    年  月  日 — a signature block
        if indent > label.indent or (listed and not label.listed):
            return False  # the lines below belong to it: a heading
        if strong:
            return True
        if is_field:
            return not _core(name).endswith(_GROUP_ENDINGS)
        # the last field of a form block, followed by the body of the document
        if not _names_value(name) or line_start == 0:
            return False
        body = text[r:next_end]
        if "。" not in body and len(body) <= 40:
            return False  # a short line: the value in the next table cell
        prev_start = _line_start(text, line_start - 1, 400)
        # the line above may hold a longer label (Principal Amount: $____): it only shows a form
        return _field_line(text, prev_start, line_start - 1, limit=20)[0]


__all__ = ["EmptyField"]
