"""The language a person reads a review in (``--lang zh|en``, ``[check] lang``, else the
document's own language): messages and one-line fixes in the text report, the HTML page and the
review copies. Rule ids, JSON fields and machine formats stay as they are.

The English message is the rule's own (``Rule.message``); the Chinese one is built here from the
rule id, quoting the same span, so a rule without a Chinese title still reads (in English).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._span import shown_message, shown_text

if TYPE_CHECKING:
    from ...findings import Finding

LANGS = ("zh", "en")

# rule id -> (Chinese title, Chinese fix, English fix)
_RULES: dict[str, tuple[str, str, str]] = {
    "placeholder/mou-entity": (
        "未填写的占位符",
        "写明具体的名称、机构或日期。",
        "Write the actual name, institution or date.",
    ),
    "placeholder/mou-mou": (
        "未填写的占位符",
        "写明具体的姓名或数值。",
        "Write the actual name or value.",
    ),
    "placeholder/mou-name": (
        "未填写的姓名占位符",
        "写明当事人的真实姓名（裁判文书有意匿名的，用 --profile judgment）。",
        "Write the party's real name (an anonymised judgment: --profile judgment).",
    ),
    "placeholder/x-value": (
        "未填写的占位符",
        "填入具体的数字或名称。",
        "Fill in the number or name.",
    ),
    "placeholder/circle-value": (
        "未填写的占位符",
        "填入具体的名称或数字。",
        "Fill in the name or number.",
    ),
    "placeholder/slot-label": (
        "未填写的栏目",
        "用实际内容替换括号及其标签。",
        "Replace the bracketed label with its value.",
    ),
    "placeholder/empty-field": (
        "空白的填写项",
        "在冒号后填写内容，或删除该项。",
        "Fill in the value after the colon, or delete the field.",
    ),
    "placeholder/empty-slot": (
        "空白的填写处",
        "在括号内填写内容，或删除该括号。",
        "Fill in the slot, or delete it.",
    ),
    "placeholder/underscore-blank": ("空白的填写线", "在横线处填写内容。", "Fill in the blank."),
    "placeholder/box-blank": ("空白的方框", "在方框处填写内容。", "Fill in the boxes."),
    "placeholder/blank-date": ("未填写的日期", "写明完整的年月日。", "Write the full date."),
    "placeholder/template-var": (
        "未替换的模板变量",
        "替换为实际内容。",
        "Substitute the variable's value.",
    ),
    "placeholder/filler": ("填充文字", "写出实际内容。", "Write the real content."),
    "sensitive/resident-id": (
        "未脱敏的身份证号",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "sensitive/mobile": (
        "未脱敏的手机号码",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "sensitive/bank-card": (
        "未脱敏的银行卡号",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "sensitive/email": (
        "未脱敏的电子邮箱",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "sensitive/landline": (
        "未脱敏的固定电话",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "sensitive/bank-account": (
        "未脱敏的银行账号",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "sensitive/passport": (
        "未脱敏的证件号码",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "sensitive/plate": (
        "未脱敏的车牌号",
        "脱敏（genlint mask）或删除。",
        "Mask it (genlint mask) or remove it.",
    ),
    "citation/leftover-marker": (
        "残留的引用标记",
        "替换为编号引用（genlint cite）。",
        "Replace it with a numbered citation (genlint cite).",
    ),
    "citation/malformed-marker": (
        "格式错误的引用标记",
        "修正或删除该标记。",
        "Repair or remove the marker.",
    ),
    "citation/unknown-id": (
        "引用了不存在的来源",
        "改为来源列表中的编号，或补充来源。",
        "Cite an id of the source list, or add the source.",
    ),
    "document/tracked-changes": (
        "修订",
        "接受或拒绝全部修订后再发出。",
        "Accept or reject every change before it goes out.",
    ),
    "document/comments": (
        "批注",
        "处理并删除全部批注后再发出。",
        "Resolve and delete every comment before it goes out.",
    ),
}
_GENERIC_FIX = ("修改或删除这段文字。", "Change or remove this text.")


def message(finding: Finding, lang: str) -> str:
    """The finding's message in ``lang`` (the span quoted as :func:`shown_text` shows it)."""
    if lang != "zh" or finding.rule not in _RULES:
        return shown_message(finding)
    title = _RULES[finding.rule][0]
    if finding.rule.startswith("document/"):
        count = finding.extra.get("count", 0)
        verb = "接受或拒绝" if finding.rule.endswith("tracked-changes") else "处理并删除"
        return f"文档中仍有 {count} 处{title}；发出前请{verb}"
    text = shown_text(finding)
    # a personal value is not quoted (the English message does not quote it either)
    if (
        not text
        or finding.rule.startswith("sensitive/")
        or f"'{finding.text}'" not in finding.message
    ):
        return title
    return f"{title}「{text}」"


def fix(finding: Finding, lang: str) -> str:
    """The one-line fix: the finding's own when the rule gave one, else the rule's."""
    if finding.fix:
        return finding.fix
    entry = _RULES.get(finding.rule)
    if entry is None:
        return _GENERIC_FIX[0 if lang == "zh" else 1]
    return entry[1] if lang == "zh" else entry[2]


def severity(name: str, lang: str) -> str:
    if lang != "zh":
        return name
    return {"error": "错误", "warning": "警告", "info": "提示"}.get(name, name)


def detect(texts: list[str]) -> str:
    """``zh`` when the text is mostly Chinese (Han characters outnumber Latin letters), else
    ``en``: the language of a document, from its findings' lines."""
    han = latin = 0
    for text in texts:
        for ch in text:
            if "\u4e00" <= ch <= "\u9fff" or "\u3400" <= ch <= "\u4dbf":
                han += 1
            elif ch.isascii() and ch.isalpha():
                latin += 1
    return "zh" if han and han >= latin / 2 else "en"


def for_findings(findings: list[Finding], chosen: str | None) -> str:
    """``chosen`` if given, else the language the findings' document is written in."""
    if chosen in LANGS:
        return chosen
    return detect([f.source_line or f.text for f in findings[:200]])
