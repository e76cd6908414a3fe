"""consistency/case-number: a Chinese case number that does not have the form
（年份）法院代字 + 类型代字 + 序号 + 号."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import Hit, Rule, RuleContext

_PROVINCES = "京津沪渝冀豫云辽黑湘皖鲁新苏浙赣鄂桂甘晋蒙陕吉闽贵粤青藏川宁琼兵"
# what looks like a case number: a bracketed year, then a court's province (or 最高法)
FRAME = re.compile(
    rf"[（(〔](?P<y>\d{{2,5}})[）)〕]\s*(?P<court>最高法|[{_PROVINCES}])(?P<code>\d*)"
    r"(?P<type>(?:(?!号)[\u4e00-\u9fff]){0,6})(?P<num>\d*)(?P<hao>号?)"
)
_TYPES = re.compile(
    r"(?:民|刑|行|执|赔|知民|商|破|财|司|法|清|强清|诉前|认|刑罚|移|请|协|督|催|他)"
    r"(?:初|终|再|申|监|抗|提|特|辖|辖终|督|催|他|撤|执|恢|异|复|保|清|破|更|救|赔|认|令|外|协|请|监|审|指)*"
)


class CaseNumber(Rule):
    id = "consistency/case-number"
    description = (
        "a Chinese case number that does not have the form (year) court code, type, number, 号"
    )
    bad = ("案号：（2023）京0105民初号", "（2023）京0105民初12345，", "（203）京0105民初12345号")
    good = ("（2023）京0105民初12345号", "（2022）最高法民终123号", "（2021）沪01民终5678号")
    trigger = r"[（(〔][0-9０-９]"

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in ctx.finditer(FRAME, text):
            problem = None
            if len(m.group("y")) != 4:
                problem = "the year must have four digits"
            elif len(m.group("code")) not in (0, 2, 4):
                problem = "the court code has two or four digits"
            elif not m.group("type") or not _TYPES.fullmatch(m.group("type")):
                continue  # not a case number at all (or a type this rule does not know)
            elif not m.group("num"):
                problem = "the case number has no serial number"
            elif not m.group("hao"):
                if m.end() < len(text) and text[m.end()] in "号-":
                    continue
                problem = "a case number ends with 号"
            if problem:
                yield Hit(m.start(), m.end(), message=f"malformed case number: {problem}")
