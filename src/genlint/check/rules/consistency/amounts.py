"""consistency/amount-words: an amount in words beside the figures it restates, differing."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ...windows import anchor_windows
from .. import Hit, Rule, RuleContext
from .numerals import amount_fen, english_number, figure_fen, to_capital

_CAPS = "零壹贰叁肆伍陆柒捌玖拾佰仟万亿圆元角分整正萬億貳參陸"
_ORDS = "〇零一二三四五六七八九十百千万亿两"
# words: capital numerals ending in 元/圆/角/分/整 (ordinary numerals only after 大写)
# (one start per run of numerals, and no split of a run: linear in the run's length)
_WORDS = rf"(?<![{_CAPS}])(?P<w>[{_CAPS}]+)(?![{_CAPS}])"
_FIG = r"(?P<cur>人民币|RMB|CNY|¥|￥|USD|US\$|\$)?\s*(?P<f>\d{1,3}(?:[,，]\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)\s*(?P<u>万元|亿元|元|圆)?"
_BRIDGE = r"\s*[（(]\s*(?:大写|小写)?\s*[：:]?\s*(?:人民币|RMB|CNY)?\s*"
_CLOSE = r"\s*(?:元)?\s*[）)]"
# words then (figures), figures then (words), 大写…小写… in a row
WORDS_FIG = re.compile(_WORDS + _BRIDGE + _FIG + _CLOSE)
# starts with its digit (a leading optional currency would be tried at every position)
FIG_WORDS = re.compile(
    r"(?P<f>\d[\d,，]*(?:\.\d{1,2})?)\s*(?P<u>万元|亿元|元|圆)?" + _BRIDGE + _WORDS + r"\s*[）)]"
)
PAIRED = re.compile(r"大写\s*[：:]\s*" + _WORDS + r"\s*[，,；;、\s]\s*小写\s*[：:]\s*" + _FIG)
_EN = r"(?P<e>(?:(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion|and)[\s-]+)*(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|million|billion))"
EN_FIG = re.compile(
    r"(?i:(?:US\s*dollars|dollars|yuan|RMB)\s+)?"
    + _EN
    + r"(?i:\s+(?:US\s+)?(?:dollars|yuan|renminbi))?\s*\(\s*(?P<cur>USD|US\$|\$|RMB|CNY|¥)\s*(?P<f>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)\s*\)",
    re.IGNORECASE,
)
FIG_EN = re.compile(
    r"(?P<cur>USD|US\$|\$|RMB|CNY|¥)\s*(?P<f>\d{1,3}(?:,\d{3})+(?:\.\d{1,2})?|\d+(?:\.\d{1,2})?)\s*\(\s*(?i:say\s+)?"
    + _EN
    + r"(?i:\s+(?:US\s+)?(?:dollars|yuan|renminbi))?(?i:\s+only)?\s*\)",
    re.IGNORECASE,
)


_CAPITAL = re.compile("[壹贰叁肆伍陆柒捌玖拾佰仟貳參陸]+")
_SCALE = re.compile(
    r"(?i)hundred|thousand|million|billion|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)\b"
)


def _words_fen(words: str, unit: str | None) -> int | None:
    if not re.search("[元圆角分]", words) or not _CAPITAL.search(words):
        return None
    return amount_fen(words)


def _yuan(fen: int) -> str:
    return f"{fen // 100:,}.{fen % 100:02d}"


def _fig_fen(m: re.Match[str]) -> int | None:
    fen = figure_fen(m.group("f"))
    if fen is None:
        return None
    unit = m.groupdict().get("u") or ""
    if unit.startswith("万"):
        fen *= 10**4
    elif unit.startswith("亿"):
        fen *= 10**8
    return fen


class AmountWords(Rule):
    id = "consistency/amount-words"
    description = "an amount in words differs from the figures beside it that it restates"
    bad = (
        "租金人民币壹拾万元整（¥1,000,000.00）",
        "¥100,000.00（大写：人民币壹万元整）",
        "大写：伍仟元整，小写：¥50,000元",
        "USD 10,000 (one thousand US dollars)",
    )
    good = (
        "租金人民币壹拾万元整（¥100,000.00）",
        "100000元（大写：壹拾万元整）",
        "押金人民币伍仟元，总价¥100,000.00",
        "USD 10,000 (ten thousand US dollars)",
        "壹万贰仟叁佰肆拾伍元陆角柒分（¥12,345.67）",
    )
    # no trigger: a leading class makes trigger windows cost more than the rule's own anchors
    trigger = None

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        # the pair patterns start with optional parts, which ``re`` tries at every position:
        # run them only near a capital numeral (or an English scale word), in small windows
        seen: set[tuple[int, int]] = set()
        for window in anchor_windows(text, _CAPITAL, 80, 80):
            for pattern in (WORDS_FIG, FIG_WORDS, PAIRED):
                for m in pattern.finditer(text, *window):
                    words = _words_fen(m.group("w"), None)
                    fig = _fig_fen(m)
                    if words is None or fig is None or words == fig or m.span("w") in seen:
                        continue
                    seen.add(m.span("w"))
                    yield self._hit(m, "w", words, fig)
        for window in anchor_windows(text, _SCALE, 200, 200):
            for m in (m for p in (EN_FIG, FIG_EN) for m in p.finditer(text, *window)):
                if m.span("e") in seen:
                    continue
                seen.add(m.span("e"))
                n = english_number(m.group("e"))
                fig = figure_fen(m.group("f"))
                if n is None or fig is None or n * 100 == fig:
                    continue
                yield self._hit(m, "e", n * 100, fig, english=True)

    def _hit(
        self, m: re.Match[str], group: str, words: int, fig: int, english: bool = False
    ) -> Hit:
        ws, we = m.span(group)
        fs, fe = m.span("f")
        shown = _yuan(fig)
        fix = None if english else f"{to_capital(fig)}"
        message = f"the amount in words is {_yuan(words)}, the figures say {shown}"
        return Hit(ws, we, message=message, fix=fix, related=((fs, fe),))
