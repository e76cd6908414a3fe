"""The 某 rules: 某某 anywhere, 某 + an entity or quantity word, a surname + 某/某某."""

from __future__ import annotations

from collections.abc import Iterable

from .... import _lazy_re as lazy_re
from .. import Hit, Rule, RuleContext
from .words import (
    AMBIGUOUS_SURNAMES,
    COMPOUND_SURNAMES,
    DETERMINER_NEXT,
    ROLE_ENDINGS,
    SURNAMES,
    VERBS_ENDING_IN_SURNAME,
    any_word,
    determiner_at,
    entity_end,
    modified_entity_end,
    person_word_end,
    role_word_end,
)

_HAN = lazy_re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# 某年某月某日 and its parts; 年 followed by 级/龄/纪/轻 starts another word (某年级)
_DATE = lazy_re.compile(
    r"某某?年(?![级龄纪轻級齡紀輕])(?:某某?月(?:某某?[日号號])?)?|某某?月(?:某某?[日号號])?"
)
# 某 not followed by a determiner word (某些, 某种…): most 某 in prose are rejected in C
_MOU = lazy_re.compile("某某?(?!" + any_word(DETERMINER_NEXT) + ")")
_ORDINAL_UNITS = frozenset("条款项章节号次届期條項節號屆")
_NOT_AFTER_YEAR = frozenset("级龄纪轻級齡紀輕")
# 某甲/某乙 name people; 甲方, 乙醇, 甲级, 乙肝 start other words
_STEMS = frozenset("甲乙丙丁")
_NOT_AFTER_STEM = frozenset("方醇酸烯烷炔醛醚肝级等类級類")


class MouEntity(Rule):
    id = "placeholder/mou-entity"
    description = "某 + an entity or quantity word stands for a value never filled in"
    bad = (
        "某公司于某年某月某日签署",
        "某某公司5签署合同",
        "支付某元",
        "第某条约定",
        "某人称",
        "证人某甲称",
        "某中介公司",
        "某某銀行",
        "委託某縣政府",
    )
    good = (
        "某些条款",
        "某种程度上",
        "某一方违约",
        "某个时候",
        "某天他来了",
        "某方面来说",
        "某年级",
    )
    trigger = "某"
    skip_code = True

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        for m in ctx.finditer(_MOU, text):
            start, end = m.span()
            if start > 0 and text[start - 1] == "某":
                continue  # inside a longer 某 run: reported from its start
            if start > 0 and text[start - 1] == "第":
                # 第某条: an ordinal never filled in
                stop = end + 1 if text[end : end + 1] in _ORDINAL_UNITS else end
                yield _hit(text, start - 1, stop)
                continue
            date = _DATE.match(text, start)
            if date is not None:
                yield _hit(text, start, date.end())
                continue
            stop = entity_end(text, end)
            # 某中介公司; never after a word already found (某某公司金融租赁有限公司 is two
            # names run together, and a chain word such as 中介 extends 某房地产中介公司);
            # after a surname the name reading wins (张某远航公司 names 张某)
            if stop < 0 and not _name_before(text, start):
                stop = modified_entity_end(text, end)
            if stop < 0:
                if (
                    text[end : end + 1] in _STEMS
                    and text[end + 1 : end + 2] not in _NOT_AFTER_STEM
                    and not _name_before(text, start)
                ):
                    yield _hit(text, start, end + 1)  # 某甲、某乙: people never named
                continue
            if (person_word_end(text, end) > 0 or role_word_end(text, end) > 0) and _name_before(
                text, start
            ):
                continue  # 张某律师, 甲方张某乙方…: the name rule reports 张某
            if text[end:stop] == "年" and text[stop : stop + 1] in _NOT_AFTER_YEAR:
                continue
            yield _hit(text, start, stop)


def judgment(ctx: RuleContext) -> bool:
    """Whether the text is a published judgment, whose anonymised names (李某, 张某1, 王某某)
    are deliberate (``--profile judgment``): then they are not placeholders."""
    return ctx.options.get("profile") == "judgment"


def _hit(text: str, start: int, end: int) -> Hit:
    return Hit(start, end, message=f"unfilled placeholder '{text[start:end]}'")


class MouMou(Rule):
    id = "placeholder/mou-mou"
    description = "某某 stands for a name or value never filled in"
    bad = ("由某某负责", "某某某", "联系人：某某")
    good = ("某些人", "在某些部门")
    trigger = "某"  # shared with the other 某 rules: one scan for all three
    skip_code = True

    _pattern = lazy_re.compile("某某+")

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        anonymised = judgment(ctx)
        for m in ctx.finditer(self._pattern, text):
            if anonymised and _name_before(text, m.start()):
                continue  # 王某某 in a judgment: an anonymised name
            yield _hit(text, *m.span())


class MouName(Rule):
    """A surname + 某 or 某某 used as a name (张某, 李某某, 欧阳某)."""

    id = "placeholder/mou-name"
    description = "a surname + 某/某某 stands for a name never filled in"
    bad = (
        "原告张某诉称",
        "李某某与王某签订",
        "被告人于某称",
        "由欧阳某负责",
        "支付张某人民币5000元",
        "張某簽訂",
    )
    good = ("对某些问题", "关于某种情况", "完成某项工作", "由于某种原因", "根据某些规定")
    trigger = "某"
    skip_code = True

    # find 某 first (a literal: fast) and look back for the surname in Python
    _mou = lazy_re.compile(r"某某?(?:[甲乙丙丁](?!方))?(?!" + any_word(DETERMINER_NEXT) + ")")

    def find(self, text: str, ctx: RuleContext) -> Iterable[Hit]:
        if judgment(ctx):
            return  # a published judgment anonymises names on purpose
        for m in ctx.finditer(self._mou, text):
            at, end = m.span()
            if at == 0 or text[at - 1] == "某" or determiner_at(text, end):
                continue
            if text[max(0, at - 2) : at] in _COMPOUND:
                start = at - 2
            elif text[at - 1] in _SINGLE:
                start = at - 1
            else:
                continue
            sur, mou = text[start:at], m.group()
            prev = text[start - 1] if start > 0 else ""
            double = mou.startswith("某某")
            if prev + sur in VERBS_ENDING_IN_SURNAME:
                if double:
                    yield _hit(text, at, end)  # 感谢某某: the 某某 without the verb's 谢
                continue
            if (
                not double
                and entity_end(text, end) >= 0
                and person_word_end(text, end) < 0
                and role_word_end(text, end) < 0
            ):
                continue  # 向某公司: the entity rule reports 某公司
            if (
                len(sur) == 1
                and sur in AMBIGUOUS_SURNAMES
                and prev
                and _HAN.match(prev)
                and prev not in ROLE_ENDINGS
            ):
                # 关于某 / 完成某: the "surname" ends another word
                if double:
                    yield _hit(text, at, end)
                continue
            yield Hit(start, end, message=f"unfilled placeholder name '{text[start:end]}'")


_COMPOUND = frozenset(COMPOUND_SURNAMES)
_SINGLE = frozenset(SURNAMES)


def _name_before(text: str, at: int) -> bool:
    """A surname right before the 某 at ``at`` that the name rule reads as a name."""
    if text[max(0, at - 2) : at] in _COMPOUND:
        return True
    if at == 0 or text[at - 1] not in _SINGLE:
        return False
    if text[max(0, at - 2) : at] in VERBS_ENDING_IN_SURNAME:
        return False
    before = text[at - 2] if at >= 2 else ""
    return not (
        text[at - 1] in AMBIGUOUS_SURNAMES
        and before
        and _HAN.match(before)
        and before not in ROLE_ENDINGS
    )
