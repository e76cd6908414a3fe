"""X/x/× and ○/〇 standing for digits or names (X4, X年X月X日, XX元, ×××, ○○公司).

Not placeholders: X光/X射线/X轴, product models (宝马X5, RTX 4090, Xbox, iPhone X), English
words, multiplication and sizes (3×4, 1920x1080), hex (0x1F), masks inside numbers
(138XXXX5678), and 〇 in a date written in Chinese numerals (二〇二六年).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from .... import _lazy_re as lazy_re
from .. import Hit, Rule, RuleContext
from .blanks import BLANK_CLASS, BLANK_SET
from .mou import judgment
from .words import (
    AMBIGUOUS_SURNAMES,
    MODEL_BRANDS,
    ROLE_ENDINGS,
    SURNAMES,
    VERBS_ENDING_IN_SURNAME,
    X_THING_NEXT,
    WordIndex,
    entity_end,
)

_HAN = lazy_re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# units after the marks that belong to the span (X年, XX元, 副本×份)
_UNIT = "年月日号条款项章节编卷册页期次届岁个名人元份件套台辆间户天"
_THINGS = WordIndex(X_THING_NEXT)
_BRANDS = WordIndex(MODEL_BRANDS)


def _thing_at(text: str, pos: int) -> bool:
    """X光, X射线, X5车型: a word after the marks that makes them a thing, not a slot."""
    return _THINGS.longest_at(text, pos) > 0


def _brand_before(text: str, pos: int) -> bool:
    """宝马X5, Model X5, iPhone X: a brand, a model word or a Latin word just before."""
    if pos > 0 and text[pos - 1] in " \t":
        pos -= 1
    if pos > 0 and text[pos - 1].isascii() and text[pos - 1].isalpha():
        return True
    return _BRANDS.longest_before(text, pos) > 0


# thing words that are also ordinal units: 第X款 is an unfilled clause number, X款 a model
# year; the regex lets them through and the Python check below decides by the 第
_ORDINAL_THINGS = frozenset(["款", "代", "版"])
_MODEL_SUFFIX = lazy_re.compile(r"[ \t]?(?:Pro|Max|Plus|Ultra|mini|Mini|SE|Lite|\+)(?![a-z])")


# brands rejected in the pattern (the model words are tested in Python: 车型X款), and the
# characters they end with
_LOOKBEHIND_BRANDS = tuple(
    b for b in MODEL_BRANDS if len(b) >= 2 and b not in ("型号", "车型", "机型", "系列")
)
_BRAND_ENDS = re.escape("".join(sorted({b[-1] for b in _LOOKBEHIND_BRANDS})))


class XValue(Rule):
    id = "placeholder/x-value"
    description = "X/x/× stands for digits or a name never filled in"
    bad = (
        "按X4计算违约金",
        "于X年X月X日前付款",
        "支付XX元",
        "XXX有限公司",
        "第X条",
        "甲方×××",
        "xx月xx日",
        "（202X）京01民初XXX号",
        "联系人张XX",
        "副本×份",
        "赔偿损失 × 元",
        "公诉机关××××人民检察院",
        "× 件专利侵权民事案件",
    )
    good = (
        "拍X光片",
        "X射线检查",
        "沿X轴方向",
        "宝马X5车型",
        "RTX 4090显卡",
        "Xbox游戏机",
        "iPhone X手机",
        "3×4的矩阵",
        "分辨率1920x1080",
        "the next box",
        "地址0x1F",
        "手机138XXXX5678",
        "拍X片",
        "单价 × 数量",
        "6228 **** xxxx 1234",
        "622848xxxxxxxx1234",
        "尾号622867114270xxxxx号银行卡",
        "尾号××××的银行卡",
        "手机尾号XXXX",
    )
    trigger = ("X", "x", "×", "Ｘ", "ｘ")  # full-width forms too: Chinese IMEs type them
    skip_code = True

    # A whole run of X-like marks, rejected in C when glued to a Latin word (RTX, box, 0x1F),
    # after a brand (宝马X5) or followed by a thing word (X光, X射线, X-ray). One pattern per
    # first mark, each starting with its literal: re skips to a literal at memchr speed, and
    # the lookbehinds come after it for the same reason. The brand lookbehinds run only after
    # a character that ends some brand (a class test; without it they cost 2.5x the scan).
    _runs = tuple(
        lazy_re.compile(
            f"{first}(?<![A-Za-zＡ-Ｚａ-ｚ_.×]{first})"
            + f"(?:(?<=[{_BRAND_ENDS}]{first})"
            + "".join(f"(?<!{re.escape(b)}{first})" for b in _LOOKBEHIND_BRANDS)
            + f"|(?<![{_BRAND_ENDS}]{first}))"
            + r"[Xx×Ｘｘ]*(?![Xx×ＸｘA-Za-zＡ-Ｚａ-ｚ]|-(?![Xx×Ｘｘ])[A-Za-z]|"
            + "|".join(
                re.escape(w)
                for w in sorted(X_THING_NEXT, key=len, reverse=True)
                if w not in _ORDINAL_THINGS
            )
            + ")"
        )
        for first in ("X", "x", "×", "Ｘ", "ｘ")
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        # pattern i starts with trigger pattern i: each scans only where its mark occurs
        for part, run_pattern in enumerate(self._runs):
            yield from self._find_runs(run_pattern, text, ctx, part)

    def _find_runs(
        self, run_pattern: re.Pattern[str], text: str, ctx: RuleContext, part: int
    ) -> Iterable[Hit]:
        covered = -1  # the end of the last hit: X年X月X日 is one hit, its later X runs are in it
        for m in ctx.finditer(run_pattern, text, part):
            run_start, run_end = m.span()
            if run_start < covered:
                continue
            if run_start > 0 and text[run_start - 1] in _GLUE_LEFT:
                continue
            run = m.group()
            if run_start > 0 and text[run_start - 1].isdigit():
                # 202X年 / 20XX年: digits of a year or date never completed; any other X
                # glued to digits is a mask, a size or a product (138XXXX5678, 1920x1080)
                start = run_start
                while start > 0 and text[start - 1].isdigit():
                    start -= 1
                if run_start - start > 4:
                    continue  # 622867114270xxxxx号: a card number already masked, not a date
                year_like = (
                    run_end - start == 4
                    and text[start : start + 2] in ("19", "20")
                    and not text[run_end : run_end + 1].isalnum()
                )
                if year_like or (
                    text[run_end : run_end + 1] in _DATE_UNITS
                    and not text[run_end + 1 : run_end + 2].isdigit()
                ):
                    end = _extend(text, run_end)
                    covered = end
                    yield Hit(start, end, message=f"unfilled placeholder '{text[start:end]}'")
                continue
            has_ordinal = run_start > 0 and text[run_start - 1] == "第"
            start, end = run_start - has_ordinal, run_end
            nxt = text[run_end : run_end + 1]
            prev = text[run_start - 1] if run_start > 0 else ""
            if (
                nxt == "-"
                and text[run_end + 1 : run_end + 2].isalpha()
                and text[run_end + 1] not in _MARKS
            ):
                continue  # X-ray, X-Men
            if _masked_group(text, run_start, run_end) or _masked_tail(text, run_start, run_end):
                continue  # 6222 XXXX XXXX 1234, 尾号××××的银行卡: a number already masked
            if _thing_at(text, run_end) and not has_ordinal:
                continue  # X光, X轴, XX世纪, X5车型 handled below too
            digits = _DIGITS.match(text, run_end, run_end + 12)
            if digits:
                if len(run) >= 2 and len(digits.group()) >= 3:
                    continue  # XXXX5678: a masked number
                if "×" in run and len(run) == 1:
                    continue  # ×100: multiplication
                if run[0] == "x" and len(run) == 1 and not _HAN.match(prev or " "):
                    continue  # x86, x2
                if len(run) == 1 and digits.group() in ("86", "64"):
                    continue  # 和x86服务器: the processor architecture
                after = run_end + len(digits.group())
                if _brand_before(text, run_start):
                    continue  # 宝马X5, Model X5
                if _thing_at(text, after) or _MODEL_SUFFIX.match(text, after):
                    continue  # X5车型, X9 Pro
                covered = after
                yield Hit(start, after, message=f"unfilled placeholder '{text[start:after]}'")
                continue
            if prev in ",." and run_start >= 2 and text[run_start - 2] in _MARK_SET:
                continue  # the XXX of X,XXX: reported with the X before the comma
            if nxt in ",." and nxt and text[run_end + 1 : run_end + 2] in _MARK_SET:
                # X,XXX.XX元, X.X%: an amount written with separators is one placeholder
                while text[end : end + 1] in (",", ".") and text[end + 1 : end + 2] in _MARK_SET:
                    end += 1
                    while text[end : end + 1] in _MARK_SET:
                        end += 1
                end = _extend(text, end)
                covered = end
                yield Hit(start, end, message=f"unfilled placeholder '{text[start:end]}'")
                continue
            han_next = bool(_HAN.match(nxt))
            han_prev = bool(_HAN.match(prev)) if prev else False
            at_line_start = prev in ("", "\n", "\r")
            if (
                len(run) == 1
                and (prev in _BLANK or at_line_start)
                and nxt in _BLANK
                and not has_ordinal
            ):
                # 损失 × 元, a line starting "× 件": a mark set apart by blanks before a unit is
                # the amount or count; 单价 × 数量 and 3 × 4 are products
                unit = _SPACED_UNIT.match(text, run_end)
                word = run_start  # the word before the blank run (损失   ×   元: any width)
                while word > 0 and text[word - 1] in _BLANK:
                    word -= 1
                if unit is not None and (
                    word == 0 or text[word - 1] in "\r\n" or _HAN.match(text[word - 1])
                ):
                    covered = unit.end()
                    yield Hit(
                        start,
                        unit.end(),
                        message=f"unfilled placeholder '{text[start : unit.end()]}'",
                    )
                continue
            if len(run) == 1 and not (han_next or han_prev or has_ordinal or prev in _CURRENCY):
                continue  # a lone X among Latin text: a letter, a variable, a product
            if len(run) == 1 and not han_next and _brand_before(text, run_start):
                continue
            if (
                len(run) == 1
                and prev in (" ", "\t")
                and _LATIN_SPACE.search(text, max(0, run_start - 2), run_start)
            ):
                continue  # iPhone X手机
            if (
                len(run) == 1
                and run == "×"
                and not (
                    has_ordinal
                    or nxt in _UNIT
                    or (han_prev and han_next and _surname_before(text, run_start))
                )
            ):
                continue  # 单价×数量, 月租金×租赁月数: multiplication; 张× stands for a name
            # XXX-XXXX-XXXX: one placeholder, not three
            while text[end : end + 1] == "-" and text[end + 1 : end + 2] in _MARK_SET:
                end += 1
                while text[end : end + 1] in _MARK_SET:
                    end += 1
            end = _extend(text, end)
            if not has_ordinal and end == run_end and _surname_before(text, run_start):
                if judgment(ctx):
                    continue  # 马XX in a published judgment: an anonymised name
                start -= 1  # 张XX: a name never filled in, like 张某某
            covered = end
            yield Hit(start, end, message=f"unfilled placeholder '{text[start:end]}'")


def _surname_before(text: str, pos: int) -> bool:
    """A surname just before ``pos`` that is not the end of another word (关于X)."""
    if pos == 0 or text[pos - 1] not in _SURNAMES:
        return False
    if text[max(0, pos - 2) : pos] in VERBS_ENDING_IN_SURNAME:
        return False  # 支付XX元
    before = text[pos - 2] if pos >= 2 else ""
    # the same reading as the 某 name rule: 提高XX is not a name, 原告于X is
    return not (
        text[pos - 1] in AMBIGUOUS_SURNAMES
        and _HAN.match(before or " ")
        and before not in ROLE_ENDINGS
    )


_SURNAMES = frozenset(SURNAMES)
_DATE_UNITS = frozenset("年月日号")
_MARKS = "Xx×Ｘｘ"
_MARK_SET = frozenset(_MARKS)
_DIGITS = lazy_re.compile(r"[0-9]+")
_CURRENCY = frozenset("$¥￥€£")
_GROUP_SEPARATORS = frozenset(" -")


def _masked_group(text: str, start: int, end: int) -> bool:
    """X marks between digit groups (6222 XXXX 1234, 138-XXXX-5678) mask a number."""
    before = False
    i = start
    # 090-XXXX-XXXX: walk left over mark groups to the digits the mask starts from
    while i >= 2 and text[i - 1] in _GROUP_SEPARATORS:
        if text[i - 2].isdigit():
            before = True
            break
        if text[i - 2] not in _MARK_SET:
            break
        i -= 1
        while i > 0 and text[i - 1] in _MARK_SET:
            i -= 1
    after = end + 1 < len(text) and text[end] in _GROUP_SEPARATORS and text[end + 1].isdigit()
    return before or (after and end - start >= 3)


# 尾号××××的银行卡, 手机尾号XXXX: the marks stand for digits masked on purpose (docs/commands/check.md: masked
# with ×/*/X in any length), named so by the words around them
_MASK_BEFORE = lazy_re.compile(
    rf"(?:尾号|尾数|末尾|[后末][0-9一二三四五六七八九十]{{1,2}}位)[为是：:]?[{BLANK_CLASS}]?$"
)
_MASK_AFTER = lazy_re.compile(
    r"号?的?(?:银行卡|借记卡|信用卡|卡|账户|帐户|账号|帐号|手机|电话|身份证)"
)


def _masked_tail(text: str, start: int, end: int) -> bool:
    if end - start < 3:
        return False
    return (
        _MASK_BEFORE.search(text, max(0, start - 8), start) is not None
        or _MASK_AFTER.match(text, end) is not None
    )


_BLANK = BLANK_SET
_SPACED_UNIT = lazy_re.compile(
    rf"[{BLANK_CLASS}]+[元份件张套台辆间户个名人天年月日号条款项次](?![数量额值率])"
)
_LATIN_SPACE = lazy_re.compile(r"[A-Za-z][ \t]$")
_GLUE_LEFT = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_.×")

_CHAIN_UNITS = frozenset("年月日号")


def _extend(text: str, end: int, marks: str = "Xx×Ｘｘ") -> int:
    """Take the unit or entity word after the marks into the span: X年X月X日, XX元,
    XXX有限公司 (a chain of unit + marks, ending in a unit or an entity word)."""
    best = end
    pos = end
    n = len(text)
    while True:
        stop = entity_end(text, pos)
        if stop < 0 and pos < n and text[pos] in _UNIT and text[pos : pos + 2] != "人民":
            stop = pos + 1
        if stop > 0:
            best = stop
        q = pos + 1 if pos < n and text[pos] in _CHAIN_UNITS else pos
        r = q
        while r < n and text[r] in marks:
            r += 1
        if r == q:
            return best
        pos = r


class CircleValue(Rule):
    id = "placeholder/circle-value"
    description = "○○/〇〇 stands for a name or number never filled in"
    bad = ("○○公司", "〇〇年〇〇月", "法定代表人：○○○", "令和○年○月○日", "第○条")
    good = ("二〇二六年二月一日", "二〇〇〇年", "评价：○")
    # a lone 〇 is a numeral (二〇二六) unless a unit follows and no numeral precedes (令和○年)
    trigger = ("○[○〇◯年月日号条]", "〇[○〇◯年月日号条]", "◯[○〇◯年月日号条]")
    skip_code = True

    # the numeral check on the left is done in Python: a leading lookbehind slows re down
    _pattern = lazy_re.compile(
        r"[○〇◯](?:[○〇◯]+|(?=[年月日号条款项章节]))(?![零一二三四五六七八九十])"
    )

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in ctx.finditer(self._pattern, text):
            start = m.start()
            if start > 0 and text[start - 1] in _NUMERALS:
                continue  # 二〇〇〇年: a year in Chinese numerals
            if (
                m.end() - start == 1
                and start >= 2
                and text[start - 1] in "年月"
                and text[start - 2] in _NUMERALS
            ):
                continue  # 二〇〇〇年〇月: one more numeral of a date written in numerals
            if start > 0 and text[start - 1] == "第":
                start -= 1  # 第○条, like 第X条
            end = _extend_circle(text, m.end())
            yield Hit(start, end, message=f"unfilled placeholder '{text[start:end]}'")


_NUMERALS = frozenset("零一二三四五六七八九十〇○◯")


def _extend_circle(text: str, end: int) -> int:
    return _extend(text, end, "○〇◯")
