"""consistency/statute: an article beyond a law's last, or a law cited as in force after its
repeal (docs/rules.md "consistency/statute"; the facts are in laws.toml)."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import Hit, Rule, RuleContext
from .dates import document_date
from .laws import law_named
from .numerals import parse_cn

CITE = re.compile(
    r"《(?P<law>[^《》\n]{2,80}?)》\s*(?:（[^）\n]{0,20}）)?\s*"
    r"(?:第\s*(?P<art>\d{1,6}|[〇零一二两三四五六七八九十百千万]{1,12})\s*条)?"
)
# the citation says itself that the law is old or applied as of its time: no claim it is in force
_HISTORIC = re.compile(
    r"已废止|已失效|废止|失效|施行前|原审|一审|二审|当时|彼时|时任|原《|旧《|适用当时|行为发生时|"
    r"修订前|替代|取代|对应|现为|现行|改为"
)


class Statute(Rule):
    id = "consistency/statute"
    description = (
        "an article beyond the law's last article, or a law cited as in force after its repeal"
    )
    bad = (
        "依据《中华人民共和国民法典》第1300条的规定",
        "根据《合同法》第一百零七条，乙方应承担违约责任。签订日期：2026年3月1日",
        "依照《劳动合同法》第一百二十条",
    )
    good = (
        "依据《中华人民共和国民法典》第五百七十七条的规定",
        "根据原《合同法》第一百零七条（现《民法典》第五百七十七条）",
        "根据《合同法》第一百零七条。签订日期：2019年3月1日",
        "《主合同》第十五条",
    )
    trigger = r"《"

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in ctx.finditer(CITE, text):
            law = law_named(m.group("law"))
            if law is None:
                continue
            art = m.group("art")
            number = None
            if art is not None:
                number = int(art) if art.isdigit() else parse_cn(art)
            if number is not None and law.articles is not None and number > law.articles:
                yield Hit(
                    m.start("art") - 1,
                    m.end(),
                    message=f"《{law.title}》 has {law.articles} articles; there is no article {number}",
                    related=(m.span("law"),),
                )
                continue
            if law.repealed is None:
                continue
            sentence = _sentence(text, m.start(), m.end())
            if _HISTORIC.search(sentence) or text[max(0, m.start() - 1) : m.start()] in (
                "原",
                "旧",
            ):
                continue
            if document_date(text, ctx.memo) < law.repealed:
                continue
            instead = law.replacement.get(number) if number is not None else None
            fix = instead or (f"《{law.replaced_by}》" if law.replaced_by else None)
            message = (
                f"《{m.group('law')}》 was repealed on {law.repealed.isoformat()}"
                + (f" by 《{law.replaced_by}》" if law.replaced_by else "")
                + (f"; cite {instead}" if instead else "")
            )
            yield Hit(m.start(), m.end(), message=message, fix=fix)


def _sentence(text: str, start: int, end: int) -> str:
    """The sentence around a citation, at most 120 characters either side."""
    left = max(text.rfind(c, max(0, start - 120), start) for c in "。；\n!?！？")
    right_candidates = [i for c in "。；\n!?！？" if (i := text.find(c, end, end + 120)) >= 0]
    right = min(right_candidates) if right_candidates else min(len(text), end + 120)
    return text[max(left + 1, start - 120) : right]
