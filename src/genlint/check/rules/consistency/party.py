"""consistency/party: a contract party defined by name, then named otherwise in the same role."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import Hit, Rule, RuleContext

# roles one party holds in a contract (not 原告/被告: a suit may have several)
_ROLES = "甲方|乙方|丙方|丁方|出租方|承租方|出租人|承租人|出卖人|买受人|卖方|买方|转让方|受让方|贷款人|借款人|出借人|委托方|受托方|发包人|承包人|发包方|承包方"
_ORG = r"[\u4e00-\u9fff（）()]{2,30}?(?:有限责任公司|股份有限公司|有限公司|公司|银行|集团|事务所|合作社|研究院|医院|大学|学校|中心)"
DEFINED = re.compile(
    rf"(?P<role>{_ROLES})\s*(?:[（(][^）)\n]{{0,8}}[）)])?\s*[：:]\s*(?P<name>{_ORG})(?![\u4e00-\u9fff])"
)
ALIAS = re.compile(
    r"(?:以下简称|下称|简称)\s*[：:]?\s*[“\"「『]?(?P<alias>[^”\"」』）)\n]{2,12})[”\"」』]"
)
_PLACEHOLDER = re.compile(r"某|X|×|＿|_|\*|…")


class Party(Rule):
    id = "consistency/party"
    description = "a party defined by name is later given another name in the same role"
    bad = ("甲方：华夏金融租赁有限公司\n乙方：张三\n……\n甲方（盖章）：华夏银行",)
    good = (
        "甲方：华夏金融租赁有限公司（以下简称“华夏租赁”）\n甲方（盖章）：华夏金融租赁有限公司",
        "甲方：华夏金融租赁有限公司\n乙方：华夏银行",
    )
    trigger = None

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        if "方" not in text and "人" not in text:
            return
        first: dict[str, tuple[str, tuple[int, int], set[str]]] = {}
        for m in DEFINED.finditer(text):
            role, name = m.group("role"), m.group("name")
            if _PLACEHOLDER.search(name):
                continue
            if role not in first:
                names = {name}
                alias = ALIAS.match(text, m.end("name") + 1) or ALIAS.search(
                    text, m.end("name"), min(len(text), m.end("name") + 30)
                )
                if alias:
                    names.add(alias.group("alias"))
                first[role] = (name, m.span("name"), names)
                continue
            defined, span, names = first[role]
            if name in names or any(n in name or name in n for n in names):
                continue
            yield Hit(
                m.start("name"),
                m.end("name"),
                message=f"{role} was defined as {defined}, here it is {name}",
                fix=defined,
                related=(span,),
            )
