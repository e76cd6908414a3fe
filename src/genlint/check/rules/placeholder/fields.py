"""Empty form fields: a short label and its colon with nothing (or only blanks) after it.

What counts (docs/commands/check.md, "Empty form fields")
------------------------------------------
A *label* is at most 12 characters, not a sentence: no sentence punctuation, no quotes or
markup brackets, and not a lead-in such as 如下/以下/包括/as follows. It starts a line (after
indentation, a list marker or ``**``), or follows the value of an earlier field on the same line
(``姓名：张三  性别：``), or a table-cell bar ``|``. The finding is the label and its colon
(docs/commands/check.md: the blank after it is not quoted). Names of one field joined by 、 (地址、电话) are one
label.

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
  paragraph (a line with 。 or over 40 characters) is empty — a value cell is short. Only a
  table puts a value on the next line: in Markdown and DOCX paragraphs (their tables are kept
  apart) any line after such a last field that is not a field — the next party's heading
  乙方（卖方）, a section title — leaves it empty, and so does a numbered clause after it.
* A label above field lines one of which names a part of it (收款账号：above 户名：/账号：) heads
  that group; a label followed by a Markdown heading (合同编号：\n# 协议) is empty.
* A Markdown heading line (``## 诉讼请求：``) is never a field.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from .... import _lazy_re as lazy_re
from .. import Hit, Rule, RuleContext
from .blanks import BLANK_CHARS, BLANK_CLASS
from .field_labels import (
    FIELD_LINE,
    GROUP_ENDINGS,
    MD_HEADING,
    SPACED,
    SPLIT,
    Label,
    field_line,
    is_label,
    label_before,
    label_core,
    line_start_of,
    names_value,
)
from .signature import caps_party_name, next_line, party_seal_heading, signature_label

if TYPE_CHECKING:
    from .cells import CellSpans


_BLANKS = BLANK_CLASS  # a regex class body
_BLANK_CHARS = BLANK_CHARS
# one pattern per colon, each starting with it (re skips to a literal at memchr speed); the
# lookahead only prefilters in C — every candidate is decided in Python below
_B = f"[{_BLANKS}]"
_WIDE = rf"(?:[{BLANK_CLASS.lstrip(' ')}]| {{2}})"  # a blank that leaves room to write
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
_BLANK_DATE = lazy_re.compile(
    rf"[{_BLANKS}_＿\r]*年[{_BLANKS}_＿]*月[{_BLANKS}_＿]*日[{_BLANKS}\r]*"
)
_ONLY_SLOT = lazy_re.compile(r"[ \t]*(?:\{\{[^{}\n]{1,60}\}\}|\$\{[^{}\s]{1,60}\})[ \t\r]*")


_NEXT_LABEL = lazy_re.compile(r"(?:\*\*)?([^\r\n：:|]{1,30}?)(?:\*\*)?[：:]")
_LOOKAHEAD = 2000  # how far the blank lines after a label are followed
_OWN_TABLE_KINDS = frozenset(["md", "docx"])  # readers that mark their tables apart


def _empty_after_next_label(text: str, colon: int) -> bool:
    """Whether the field whose colon is at ``colon`` is itself empty (one level: 姓名：性别：)."""
    p = colon + 1
    if text.startswith("**", p):
        p += 2
    q = _BLANK_RUN.match(text, p).end()  # type: ignore[union-attr]
    return q >= len(text) or text[q] in "\r\n|" or (q - p >= 2 and text[q] not in "：:")


def _after_field_line(text: str, line_start: int) -> bool:
    """Whether the nearest non-blank line above the one starting at ``line_start`` is a field
    line (a form block goes on); Markdown puts blank lines between its paragraphs. The line
    above may hold a longer label (Principal Amount: $____): it only shows a form."""
    end = line_start - 1
    for _ in range(3):
        if end <= 0:
            return False
        start = line_start_of(text, end, 400)
        if text[start:end].strip(_BLANK_CHARS + "\r"):
            return field_line(text, start, end, limit=20)[0]
        end = start - 1
    return False


def _names_group(core: str, text: str, pos: int) -> bool:
    """收款账号： above 户名：/账号：/开户行：: a label that a field line below it names a part of
    (its label is part of this one) heads that group; 姓名：above 性别： does not."""
    for _ in range(3):
        line = next_line(text, pos - 1, _BLANK_CHARS)
        if line is None:
            return False
        m = FIELD_LINE.match(text, line[0], line[1])
        if m is None:
            return False
        part = label_core(m.group(1))
        if 2 <= len(part) < len(core) and part in core:
            return True
        pos = line[1] + 1
    return False


def _block_heading(label: str, text: str, line_end: int) -> bool:
    """BUYER: or 甲方（盖章）： above field lines heads its block (docs/commands/check.md)."""
    core = label_core(label)
    if not (caps_party_name(label) or party_seal_heading(core)):
        return False
    nxt = next_line(text, line_end, _BLANK_CHARS)
    return nxt is not None and field_line(text, nxt[0], nxt[1], limit=20)[0]


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
        "具状人（签字）：\n日期：",
        "名称：\n地址、电话：\n开户行及账号：",
        "乙方1（盖章）：\n法定代表人或授权代表：",
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
        "本人签名：",
        "甲方（签名/盖章）：",
        "法定代表人（签字或盖章）：",
        "乙方（盖章）：",
        "甲方（盖章）：\n法定代表人：张三",
        "SELLER:\nName: Ann Lee\nTitle: CEO",
        "COMPANY:\nBy: Ann Lee\nTitle: CEO",
        "甲方指定收款账号：\n户名：北京远航科技有限公司\n账号：110060\n开户行：中国银行",
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

        yield from empty_cells(text)
        cells = None
        if ctx.places and ctx.kind == "docx":
            cells = CellSpans(ctx.places, len(text))
            yield from docx_cells(text, cells)
        for pattern in _CANDIDATES:
            for m in ctx.finditer(pattern, text):
                hit = self._check(text, m.start(), cells, ctx.kind)
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
            label = label_before(text, colon, line_start_of(text, colon))
            if label is None:
                return
            yield Hit(label.start, start, message=f"empty form field '{text[label.start : start]}'")
            start = label.start

    def _check(self, text: str, colon: int, cells: CellSpans | None, kind: str) -> Hit | None:
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
        line_start = line_start_of(text, colon)
        label = label_before(text, colon, line_start)
        if label is None or signature_label(label_core(text[label.start : colon])):
            return None
        if at_line_end and _block_heading(text[label.start : colon], text, q):
            return None
        # a label ending its DOCX table cell with no value in the row's next cell (or no next
        # cell): the layout says the field is empty, whatever line the reader puts next
        ended = at_line_end and cells is not None and cells.empty_after(text, q, _BLANK_CHARS)
        # only a table puts a value on the line after its label: a DOCX cell, and plain text or
        # a PDF, whose lines may be a flattened table's columns. Markdown and DOCX keep their
        # tables apart, so in their paragraphs the line after a form block's last label is
        # not its value
        tabular = kind not in _OWN_TABLE_KINDS or (cells is not None and cells.in_cell(colon))
        if (
            at_line_end
            and not ended
            and not self._empty_at_line_end(text, label, strong, colon, line_start, q, tabular)
        ):
            return None
        # the label and its colon (and the emphasis it closes): the blank after is not quoted
        end = p
        return Hit(label.start, end, message=f"empty form field '{text[label.start : end]}'")

    @staticmethod
    def _next_label_follows(text: str, q: int, strong: bool) -> bool:
        """Whether the text at ``q`` is the next label of the line (so the value before it is
        missing): after a wide blank any label; after none or one space, an empty one."""
        nxt = _NEXT_LABEL.match(text, q, min(len(text), q + 40))
        if nxt is None:
            return False
        word = nxt.group(1).strip()
        if SPLIT.search(word) and not SPACED.fullmatch(word):
            return False  # 姓名：张三  性别： — 张三 is the value
        if not is_label(word, limit=20):
            return False
        return strong or _empty_after_next_label(text, nxt.end() - 1)

    @staticmethod
    def _empty_at_line_end(
        text: str,
        label: Label,
        strong: bool,
        colon: int,
        line_start: int,
        line_end: int,
        tabular: bool,
    ) -> bool:
        name = text[label.start : colon]
        if label.after_field:
            return not label.prose_before or names_value(name)
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
        is_field, indent, listed = field_line(text, r, next_end, limit=20)
        if _BLANK_DATE.fullmatch(text, r, next_end) or _ONLY_SLOT.fullmatch(text, r, next_end):
            return True  # 乙方（签字）：\n    年  月  日 — a signature block
        if MD_HEADING.match(text, r, next_end):
            return True  # 合同编号：\n# 增资扩股协议 — a new section starts: nothing was written
        in_form = names_value(name) and _after_field_line(text, line_start)
        if indent > label.indent or (listed and not label.listed):
            # the lines below belong to it (a heading), unless it ends a form block and names a
            # value: a numbered clause after 账户号： starts the next clause, not its children
            return in_form and not tabular and indent <= label.indent
        if strong:
            return True
        if is_field:
            core = label_core(name)
            return not core.endswith(GROUP_ENDINGS) and not _names_group(core, text, r)
        # the last field of a form block, followed by the body of the document or, outside a
        # table, by any line that is not a field (a party's heading, a section title)
        if not in_form:
            return False
        body = text[r:next_end]
        # a short line: in a table, the value in the next cell
        return not (tabular and "。" not in body and len(body) <= 40)


__all__ = ["EmptyField"]
