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

from .... import _lazy_re as lazy_re
from .. import Hit, Rule, RuleContext


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


# A CJK label ends in a value noun or starts with a fill instruction.
CJK_VALUE_NOUNS = _words(
    "名称 姓名 名字 全称 简称 日期 时间 年月日 金额 数额 价款 价格 单价 总价 费用 地址 住址 住所 电话 号码 手机 手机号 账号 帐号 账户 卡号 "
    "编号 代码 邮箱 邮编 身份证 会社名 氏名 名前 番号 電話番号 金額 日付 身份证号 证件号 开户行 开户银行 户名 签名 签字 盖章 数量 期限 比例 "
    "利率 天数 职务 职位 网址 型号 案号 联系人 负责人 法定代表人 代理人 委托人 人名 数字 大写 小写 车牌 车牌号 年份 月份"
)
_CJK_FILL = _words(
    "请填写 请输入 请填入 请写明 请注明 填写 输入 填入 插入 此处 待填 待补充 待定 待确认 空白 写明 注明 列明 载明 填明"
)
_SENTENCE_PUNCT = frozenset("。，；！？,;!?")

_EN_LABEL = lazy_re.compile(r"[A-Za-z][A-Za-z0-9 '’&/.,_-]{0,60}")
_EN_KEYWORD = lazy_re.compile(
    r"(?i)\b(?:name|date|address|company|amount|number|phone|e-?mail|insert|enter|your|client|"
    r"party|city|country|signature|position|recipient|sender|organi[sz]ation|product|price|"
    r"value|placeholder|fill|contact|website|url|location|employer|employee|job title|"
    r"department|deadline|title|account|id|street|zip|postcode|salary|state|county|province|"
    r"jurisdiction|formation|court|judge|plaintiff|defendant|landlord|tenant|buyer|seller|"
    r"lender|borrower|licensor|licensee|vendor|supplier|customer|purchaser|guarantor|"
    r"manager|officer|director|representative|attorney|agent|owner|premises|property|"
    r"currency|percentage|fee|sum|quantity|term|month|year|day|time|rate|specify|describe|"
    r"select|choose|identify|indicate|provide|type|entity|governing law|notice period|"
    r"region|territory|designation|signatory|signer|witness|abn|acn)\b"
)
# [TITLE], [STATE]: a capitalised word standing alone names a slot; acronyms and admonitions
# in capitals do not
_EN_CAPS = lazy_re.compile(r"[A-Z][A-Z’' ]{3,40}")
_NOT_CAPS_SLOTS = frozenset(
    _words("NOTE WARNING CAUTION IMPORTANT INFO DEBUG ERROR EDIT UPDATE DONE HTML JSON YAML HTTP")
)


def _cjk_bracket(open_: str, close: str, group: str) -> str:
    """A CJK bracket pair holding up to 20 characters that may be a label: the last character
    before the closing bracket may end a value noun or a date part, or the first may start a
    fill instruction (markup and blanks around the words allowed). Checked in C, so the
    headings of a judgment (【判决结果】) never reach the Python tests of :func:`_cjk_label`."""
    ends = {w[-1] for w in (*CJK_VALUE_NOUNS, *_DATE_PARTS)} | set(_MARKUP_EDGES)
    starts = {w[0] for w in _CJK_FILL} | set(_MARKUP_EDGES)
    body = f"[^{open_}{close}\\n]"
    return (
        f"{open_}(?={body}{{1,20}}{close})"
        f"(?P<{group}>{body}*?[{re.escape(''.join(sorted(ends)))}\\s]"
        f"|\\s*[{re.escape(''.join(sorted(starts)))}]{body}*){close}"
    )


# what the markup _MARKUP strips from a label may start or end with
_MARKUP_EDGES = "<>*_\\"


def _cjk_label(label: str) -> bool:
    if not label or len(label) > 16 or any(ch in _SENTENCE_PUNCT for ch in label):
        return False
    return label.endswith(CJK_VALUE_NOUNS) or label.startswith(_CJK_FILL)


# [MM/DD/YYYY], [YYYY-MM-DD]: a date format standing where the date belongs
_DATE_FORMAT = lazy_re.compile(r"(?i)(?:YYYY|YY|MM|DD)(?:[/.\- ](?:YYYY|YY|MM|DD)){1,2}")


def _en_label(label: str) -> bool:
    if _EN_LABEL.fullmatch(label) is None or len(label.split()) > 8:
        return False
    if _EN_CAPS.fullmatch(label) is not None and label.strip() not in _NOT_CAPS_SLOTS:
        return True
    return _EN_KEYWORD.search(label) is not None or _DATE_FORMAT.fullmatch(label) is not None


# what a label may carry around its words: <mark>…</mark>, **…**, \_escapes
_MARKUP = lazy_re.compile(
    r"</?[A-Za-z][A-Za-z0-9]{0,10}>|\*\*|\\(?=.)|\\$|(?<![A-Za-z])_|_(?![A-Za-z])"
)
_INSTRUCTION = (
    "(?:写明|注明|列明|载明|填写|填明|请填写|请写明|请注明|请填入|请输入|此处填写|输入|插入)"
)
# 【年份】年【月份】月: parts of a date as slots; each unit after them joins the one span
_DATE_PARTS = frozenset(_words("年 月 日 号 年份 月份 日份 几 天"))


_HTML_TAGS = frozenset(
    _words(
        "a abbr address article aside audio b body br button canvas caption cite code col "
        "data dd del details dfn div dl dt em embed figure footer form h1 h2 h3 h4 h5 h6 "
        "head header hr html i iframe img input ins kbd label li link main mark meta nav "
        "ol option output p pre q s samp script section select small source sources span "
        "strong style sub summary sup table tbody td template textarea tfoot th thead "
        "time title tr u ul var video think answer"
    )
)


# inside 【…】: an id at the end (a role, 【股东3】) or an instruction word; the lookahead rejects
# in C every other bracket (the headings of a judgment, 【判决结果】, never reach Python)
_ROLE_OR_INSTRUCTION = (
    r"(?=[^【】\n]{1,8}?[0-9０-９A-Za-z一二三四五六七八九十甲乙丙丁]】"
    r"|[^【】\n写填注列载请此例比如]{0,60}[写填注列载请此例比如])"
    r"(?P<h>[^【】\n]{2,120})"
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
        "[<mark>First Name</mark>]",
        "\\[TITLE\\]",
        "Dated [Today’s date]",
        "in the State of [State]",
        "a [jurisdiction of formation] corporation",
        "located in [Fill in the city and state]",
        "原告：（写明姓名、住所）",
        "【年份】年【月份】月",
        "由【股东3】出资",
        "服务内容：【具体的服务内容，如（写明服务地点、方式）】",
        "The Supplier shall [describe the services].",
        "Address: [To be provided]",
        "Hello [<mark>First Name</mark>]:",
        '[Company Name] (the "Company") offers',
        "paid on a [once per month / semimonthly] basis",
        "courts in [Fill in city or county and state, i.e. “courts located in New Castle, DE”]",
        "signed by [Party A]",
        "[Name of consultant] [ACN or ABN, if applicable] of [address]",
        "anywhere within [geographical region]",
        "| [Council Member 1] | [Designation] |",
        "[Description of the Services]",
        "Yours faithfully,\n[Signatory]",
    )
    good = (
        "【判决结果】驳回上诉",
        "【联系电话】：13800000000",
        "见[官方网站](https://example.com)",
        "<sources>[1]</sources>",
        "see [Source 1]",
        "<title>报告</title>",
        "[1] 参考文献",
        "脚注[^1]",
        "- [x] 已完成",
        "（2023）京01民初1号",
        "[2023] EWHC 1",
        "he said [sic] that",
        "see [the attached schedule](#schedule)",
        "甲方（盖章）",
        "（注明：已核实）",
        'ABC Ltd. ("Party A") and [Party A] agree',
        "[link]: https://example.com",
        "【附件1】",
        "【第一条】合同标的",
        "【具体情况】见附件",
    )
    # in the order of _patterns: pattern i starts with trigger pattern i (ctx.finditer's part)
    trigger = ("【", "［", "〈", r"\[", "<", "（[写注列载填请此输插]", r"\([写注列载填请此输插]")
    skip_code = True

    # one pattern per bracket, each starting with it: re skips to a literal at memchr speed
    # (an alternation of brackets makes it test every position)
    _patterns = (
        # a value-noun label, or else (group h) 【股东3】, a role standing for a party not yet
        # named, or 【具体的服务内容，如（写明…）】, an instruction to the drafter: one scan of 【
        lazy_re.compile(f"【(?:{_cjk_bracket('【', '】', 'a')[1:-1]}|{_ROLE_OR_INSTRUCTION})】"),
        lazy_re.compile(_cjk_bracket("［", "］", "b")),
        lazy_re.compile(_cjk_bracket("〈", "〉", "c")),
        # [text](url) and [text][ref] are links; [text]: at a line start defines a reference
        lazy_re.compile(r"\[(?P<d>[^\[\]\n]{1,200})\](?![(\[])"),
        lazy_re.compile(r"<(?P<e>[^<>\n]{1,42})>"),
        # （写明姓名、住所）: an instruction to the drafter in parentheses, left in the text
        lazy_re.compile(rf"（(?P<f>{_INSTRUCTION}[^（）\n：:]{{0,60}})）"),
        lazy_re.compile(rf"\((?P<g>{_INSTRUCTION}[^()\n：:]{{0,60}})\)"),
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for part, pattern in enumerate(self._patterns):
            yield from self._find(pattern, text, ctx, part)

    def _find(
        self, pattern: re.Pattern[str], text: str, ctx: RuleContext, part: int
    ) -> Iterable[Hit]:
        for m in ctx.finditer(pattern, text, part):
            kind = m.lastgroup or ""
            start, end = m.span()
            if start > 0 and text[start - 1] == "\\":
                start -= 1  # \[TITLE\]: a Markdown escape of the bracket is part of the slot
            if kind in "fg":
                yield Hit(start, end, message=f"unfilled slot label '{text[start:end]}'")
                continue
            raw = m.group(kind)
            label = _MARKUP.sub("", raw).strip()
            if kind == "h" or (kind == "a" and not _cjk_label(label)):
                if _ROLE_ID.fullmatch(label) or _cjk_instruction(label):
                    yield Hit(start, end, message=f"unfilled slot label '{text[start:end]}'")
                if kind == "h":
                    continue
            if kind == "d":
                if text[end : end + 1] == ":" and _LINE_LEAD.match(
                    text, _line_start(text, start), start
                ):
                    continue  # [label]: url — a Markdown reference definition
                if _ROLE_ID.fullmatch(label):
                    if _defined_party(text, label, ctx.memo):
                        continue  # [Party A] where the text names who Party A is
                    yield Hit(start, end, message=f"unfilled slot label '{text[start:end]}'")
                    continue  # [Council Member 1]: a role standing for a member not yet named
                if _en_slot(raw, label):
                    yield Hit(start, end, message=f"unfilled slot label '{text[start:end]}'")
                    continue
                if len(raw) > 80:
                    continue
            if label in _DATE_PARTS and kind in "abd":
                end = _date_end(text, end)
                yield Hit(start, end, message=f"unfilled slot label '{text[start:end]}'")
                continue
            if not (_cjk_label(label) or (kind in "de" and _en_label(label))):
                continue
            if _COLON_AFTER.match(text, end, end + 3) and _LINE_LEAD.match(
                text, _line_start(text, start), start
            ):
                continue  # 【联系电话】：… opening its line, a field heading followed by its value
            if (
                kind in "abc"
                and _heading(text, m.start(), end)
                and not _asks_to_fill(label, text, end)
                and not _more_slots(text, end)
            ):
                continue  # 【开庭时间】2026年3月1日 at a line start: a heading with its value
            if kind == "e" and _is_tag(label):
                continue
            yield Hit(start, end, message=f"unfilled slot label '{text[start:end]}'")


# only brackets holding a date part chain on (【日期】 names a whole date: a slot of its own)
_DATE_SLOT = lazy_re.compile(
    r"[年月日号]?(?:[【\[［](?:年份|月份|日份|年|月|日|号|几|天)[】\]］][年月日号])*"
)


def _date_end(text: str, end: int) -> int:
    """【年份】年【月份】月【日】日 is one date never filled in: take its units and later parts."""
    m = _DATE_SLOT.match(text, end)
    return m.end() if m is not None else end


_COLON_AFTER = lazy_re.compile(r"[ \t]*[：:]")
_LINE_LEAD = lazy_re.compile(r"[ \t]*(?:[-*+]|\d+[.)、])?[ \t]*$")


def _heading(text: str, start: int, end: int) -> bool:
    """A label opening its line and followed by text on it names the value that follows."""
    line_start = text.rfind("\n", max(0, start - 40), start) + 1
    if (line_start == 0 and start > 40) or not _LINE_LEAD.match(text, line_start, start):
        return False
    rest = text[end : end + 2].strip()
    return bool(rest) and rest[0] not in "。，；,;.!?！？"


_EN_FILL = lazy_re.compile(r"(?i)(?:insert|enter|fill|your)\b")
_SENTENCE_GOES_ON = lazy_re.compile(r" [a-z]")


def _asks_to_fill(label: str, text: str, end: int) -> bool:
    """[Insert Company Name] shall pay…: a label that asks to fill, or one the sentence runs
    on from, is a slot even at a line start."""
    return (
        label.startswith(_CJK_FILL)
        or _EN_FILL.match(label) is not None
        or _SENTENCE_GOES_ON.match(text, end) is not None
        or text[end : end + 1] in _PARTICLES
    )


# a particle or verb right after the label: 【会社名】と…, 【公司名称】的…, [原告姓名]诉… continue a
# sentence
_PARTICLES = frozenset("とをはがのにへで的与和应须诉")


def _is_tag(label: str) -> bool:
    """<title>, <sources>, <a href="…">: markup, not a slot."""
    word = label.split()[0].lower() if label.split() else ""
    # a known element, a closing tag, or attributes; <company> or <your name> is a slot
    return label.startswith("/") or word.rstrip("/") in _HTML_TAGS or "=" in label


def _line_start(text: str, pos: int) -> int:
    return text.rfind("\n", max(0, pos - 200), pos) + 1


def _more_slots(text: str, end: int) -> bool:
    """【律所名称】受【公司名称】委托: a line of template slots is a template, not a heading."""
    stop = text.find("\n", end, end + 200)
    return "【" in text[end : end + 200 if stop < 0 else stop]


# a role with a number or letter standing for a party not yet named (【股东3】, [Party A],
# [Council Member 1]: a capitalised qualifier may name the body the role belongs to)
_ROLE_ID = lazy_re.compile(
    r"(?:股东|董事|监事|合伙人|出资人|投资人|发起人|签约方|当事人|原告|被告|第三人|申请人|被申请人|甲方|乙方|丙方|"
    r"买方|卖方|委托人|受托人|借款人|出借人|担保人|保证人|继承人|证人)[ 　]?[0-9０-９A-Za-z一二三四五六七八九十甲乙丙丁]{1,2}"
    r"|(?:[A-Z][a-z]+ )?(?i:party|buyer|seller|shareholder|investor|director|member|partner|founder|purchaser|"
    r"guarantor|lender|borrower|signatory|witness|company|customer|vendor|supplier|licensee|"
    r"licensor|employee|employer|tenant|landlord|client)[ ][0-9A-Z]{1,2}"
)
# an instruction to the drafter inside 【…】: write, fill in, state, e.g.
# (【具体情况】 alone is a heading: an instruction says what to write or gives an example)
_CJK_INSTRUCTION = lazy_re.compile(
    r"写明|填写|注明|列明|载明|填明|请填|请输入|此处|例如|比如|如[：:（(]"
)


def _cjk_instruction(label: str) -> bool:
    return _CJK_INSTRUCTION.search(label) is not None


def _defined_party(text: str, role: str, memo: dict[str, object]) -> bool:
    """Whether the text defines who ``role`` is: a definition quotes or parenthesises the name
    (ABC Ltd. ("Party A"), （“乙方”）). Once per role and text (``memo``: the text's scratch)."""
    key = f"labels.defined:{role}"
    known = memo.get(key)
    if not isinstance(known, tuple) or known[0] is not text:
        quoted = (f'"{role}"', f"“{role}”", f"「{role}」", f"({role})", f"（{role}）")
        known = (text, any(q in text for q in quoted))
        memo[key] = known
    return bool(known[1])


# [describe the services], [Fill in city or county and state, i.e. “…”], [To be provided]:
# a bracket that tells the writer what to put there or says the content is missing
_EN_INSTRUCTION = lazy_re.compile(
    r"(?i)(?:insert|enter|fill in|fill|describe|specify|state the|list|identify|add|provide|"
    r"include|select|choose|type|write|attach|name of|details of|amount of|number of|date of|"
    r"description of)\b"
)
_EN_PENDING = lazy_re.compile(
    r"(?i)(?:to be (?:provided|confirmed|determined|agreed|added|completed|supplied|inserted|"
    r"advised|decided|finali[sz]ed)|information (?:needed|required|to follow)|details to follow|"
    r"pending|placeholder|tbd|tbc|tba)\b"
)
# [once per month / semimonthly / every two weeks]: alternatives the writer picks from
_EN_CHOICE = lazy_re.compile(r"[^/\n]{1,40}(?: / [^/\n]{1,40})+")


def _en_slot(raw: str, label: str) -> bool:
    """English bracket slots beyond the value-noun labels of :func:`_en_label`."""
    if not label or not label[0].isascii() or len(label.split()) > 30:
        return False
    if raw.lstrip().startswith("<mark>"):
        return True  # a highlighted bracket is a slot the template marks to fill
    if _EN_PENDING.match(label):
        return True
    if _EN_INSTRUCTION.match(label):
        return len(label.split()) >= 2  # [Add] alone is a button name, [Add the price] a slot
    return (
        len(label.split()) <= 12 and _EN_CHOICE.fullmatch(label) is not None and label[0].islower()
    )
