"""Slot labels: a bracketed name of a value to fill in ([姓名], 【公司名称】, <公司名称>,
[INSERT DATE], [Company Name], <your name>).

How a slot label is told from a heading with real content (【判决结果】): a slot label *names a
value to fill* — its last word is a value noun (名称, 姓名, 日期, 金额, 地址, 电话, 号码, 账号…)
or it asks to fill (请填写…, 插入…, INSERT…, your…). A label followed by a colon introduces its
value (【联系电话】：138…) and is a field heading, not a slot. Markdown links ``[text](url)``,
reference links and footnotes are not labels; HTML/XML tags (<title>, <sources>) are not either.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import Hit, Rule, RuleContext

_CJK_VALUE_NOUNS = (
    "名称|姓名|名字|全称|简称|日期|时间|年月日|金额|数额|价款|价格|单价|总价|费用|地址|住址|住所|电话|号码|"
    "手机号?|账号|帐号|账户|卡号|编号|代码|邮箱|邮编|身份证号?|证件号|开户行|开户银行|户名|签名|签字|盖章|"
    "数量|期限|比例|利率|天数|职务|职位|网址|型号|案号|联系人|负责人|法定代表人|代理人|委托人|当事人|"
    "原告|被告|甲方|乙方|单位|公司|银行|人名|数字|内容|信息|事由|理由|金额大写|金额小写|大写|小写|车牌号?"
)
_CJK_FILL = "请填写|请输入|请填入|填写|输入|填入|插入|此处|待填|待补充|待定|待确认|空白"
# A label is short, has no sentence punctuation, and ends in a value noun or starts with a
# fill instruction.
_CJK_LABEL = rf"(?:[^\s\]】］>〉》\[【［<〈《。，；！？,;!?]{{0,12}}(?:{_CJK_VALUE_NOUNS})|(?:{_CJK_FILL})[^\]】］>〉》\n]{{0,16}})"

_EN_KEYWORDS = (
    r"name|date|address|company|amount|number|phone|e-?mail|insert|enter|your|client|party|"
    r"city|country|signature|position|recipient|sender|organi[sz]ation|product|price|value|"
    r"placeholder|fill|contact|website|url|location|employer|employee|job title|department|"
    r"deadline|title|figure|sum|account|id|street|zip|postcode|fee|rate|salary"
)
_EN_LABEL = rf"(?i:(?=[^\]\n>]*\b(?:{_EN_KEYWORDS})\b)[A-Za-z][A-Za-z0-9 '&/.,_-]{{0,40}}?)"

_HTML_TAGS = frozenset(
    [
        "a",
        "abbr",
        "address",
        "article",
        "aside",
        "audio",
        "b",
        "body",
        "br",
        "button",
        "canvas",
        "caption",
        "cite",
        "code",
        "col",
        "data",
        "dd",
        "del",
        "details",
        "dfn",
        "div",
        "dl",
        "dt",
        "em",
        "embed",
        "figure",
        "footer",
        "form",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "head",
        "header",
        "hr",
        "html",
        "i",
        "iframe",
        "img",
        "input",
        "ins",
        "kbd",
        "label",
        "li",
        "link",
        "main",
        "mark",
        "meta",
        "nav",
        "ol",
        "option",
        "output",
        "p",
        "pre",
        "q",
        "s",
        "samp",
        "script",
        "section",
        "select",
        "small",
        "source",
        "sources",
        "span",
        "strong",
        "style",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "template",
        "textarea",
        "tfoot",
        "th",
        "thead",
        "time",
        "title",
        "tr",
        "u",
        "ul",
        "var",
        "video",
        "think",
        "answer",
    ]
)


class SlotLabel(Rule):
    id = "placeholder/slot-label"
    description = "a bracketed label names a value that was never filled in"
    bad = (
        "甲方：[姓名]",
        "由【公司名称】负责",
        "致<公司名称>",
        "Dated [INSERT DATE]",
        "Signed by [Company Name]",
        "Regards, <your name>",
        "【请填写开户行】",
    )
    good = (
        "【判决结果】驳回上诉",
        "【联系电话】：13800000000",
        "见[官方网站](https://example.com)",
        "<sources>[1]</sources>",
        "see [Source 1]",
        "<title>报告</title>",
        "[1] 参考文献",
    )
    trigger = (r"\[", "【", "［", "<", "〈")
    skip_code = True

    _pattern = re.compile(
        rf"【(?P<a>{_CJK_LABEL})】|［(?P<b>{_CJK_LABEL})］|〈(?P<c>{_CJK_LABEL})〉"
        rf"|\[(?P<d>{_CJK_LABEL}|{_EN_LABEL})\](?![(\[:])"
        rf"|<(?P<e>{_CJK_LABEL}|{_EN_LABEL})>"
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in ctx.finditer(self._pattern, text):
            label = next(g for g in m.groups() if g is not None)
            end = m.end()
            if re.match(r"[ \t]*[：:]", text[end : end + 3]):
                continue  # 【联系电话】：…, a field heading followed by its value
            if m.group("e") is not None and _is_tag(label):
                continue
            if m.group(0)[0] == "[" and label.lower().startswith("^"):
                continue
            yield Hit(m.start(), end, message=f"unfilled slot label '{m.group(0)}'")


def _is_tag(label: str) -> bool:
    """<title>, <sources>, <a href="…">: markup, not a slot."""
    word = label.split()[0].lower() if label.split() else ""
    if label.startswith("/") or word.rstrip("/") in _HTML_TAGS:
        return True
    # a single lower-case word is a tag name (<name> in docs is ambiguous; markup is likelier)
    return bool(re.fullmatch(r"[a-z][a-z0-9-]*", label)) and label not in ("name", "date")
