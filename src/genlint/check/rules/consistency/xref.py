"""consistency/cross-reference: a reference to a clause or annex of the same document that it
does not have."""

from __future__ import annotations

import re
from collections.abc import Iterable

from .. import Hit, Rule, RuleContext
from .numerals import parse_cn

_N = r"(?:\d{1,4}|[〇零一二两三四五六七八九十百千]{1,8})"
# a clause heading: 第十二条 at the start of a line (after spaces, #, *)
HEADING = re.compile(rf"^[ \t\u3000#*]*第\s*(?P<n>{_N})\s*条", re.MULTILINE)
# 本合同第十五条, 本协议第15条, 见第十五条 (not after 》: that is a law's or another document's)
REF = re.compile(
    rf"(?:本(?:合同|协议书?|契约|协议条款|合同条款)(?:正文)?|(?<![》>])(?:详见|参见|见))\s*第\s*(?P<n>{_N})\s*条"
)
ANNEX_HEADING = re.compile(
    rf"^[ \t\u3000#*]*附件\s*(?P<n>{_N})(?![\d一二三四五六七八九十])", re.MULTILINE
)
ANNEX_REF = re.compile(rf"(?<![》>])附件\s*(?P<n>{_N})(?![\d一二三四五六七八九十])")


def _value(s: str) -> int | None:
    return int(s) if s.isdigit() else parse_cn(s)


class CrossReference(Rule):
    id = "consistency/cross-reference"
    description = "a reference to a clause or annex of this document that it does not have"
    bad = (
        "第一条 定义\n第二条 租金\n第三条 违约\n违约金的计算见本合同第十五条。",
        "第一条 标的\n第二条 价款\n第三条 交付\n附件一 清单\n详见附件三。",
    )
    good = (
        "第一条 定义\n第二条 租金\n第三条 违约\n违约金的计算见本合同第三条。",
        "第一条 标的\n第二条 价款\n第三条 交付\n按《主合同》第十五条执行。",
        "本合同第十五条",
    )
    trigger = None

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        if "第" not in text and "附件" not in text:
            return
        spans: dict[int, tuple[int, int]] = {}
        for m in HEADING.finditer(text):
            v = _value(m.group("n"))
            if v is not None:
                spans.setdefault(v, (m.start("n") - 1, m.end()))
        numbers = list(spans)
        # a document with fewer than three clause headings has no structure to check against
        if len(numbers) >= 3:
            last = max(numbers)
            for m in REF.finditer(text):
                n = _value(m.group("n"))
                if n is not None and n > last and n not in numbers:
                    yield Hit(
                        m.start(),
                        m.end(),
                        message=f"this document has no clause {n}: its last is clause {last}",
                        related=(spans[last],),
                    )
        annexes = {
            v for m in ANNEX_HEADING.finditer(text) if (v := _value(m.group("n"))) is not None
        }
        if annexes and "附件清单" not in text and "附件：" not in text and "附件:" not in text:
            for m in ANNEX_REF.finditer(text):
                n = _value(m.group("n"))
                if n is not None and n not in annexes and n > max(annexes):
                    yield Hit(m.start(), m.end(), message=f"this document has no annex {n}")
