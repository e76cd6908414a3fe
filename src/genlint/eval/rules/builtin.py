"""The five docs/commands/eval.md rules.

Each rule is a small class whose docstring's first line is its description; the wording rules
read the lexicons (data) and the glossary, and never look at other claims except through
``covered_before``.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..context import ClaimContext, Ref, parse_ref
from ..glossary import Profile, Span
from ..identifiers import is_identifier, stem
from ..lexicon import VERB_CATEGORIES, LexiconHit
from ..models import REF_KINDS
from ..refclass import ACCEPTS_BY_CLASS, call_class

# Which wording verbs each reference kind accepts. ``method`` (the fact itself) accepts any;
# ``conditions`` accepts any verb when the claim is phrased as a condition.
# (``calls`` depends on what the target's name says: refclass.call_class)
_ACCEPTS: dict[str, frozenset[str]] = {
    # a table is written; computing or logging what is written describes the same write
    "writes": frozenset({"write", "compute", "log"}),
    "annotations": frozenset({"declare", "compute", "log"}),
}
_ALL_VERBS = VERB_CATEGORIES
_EVERY_VERB = frozenset(_ALL_VERBS)
_NO_VERB: frozenset[str] = frozenset()
_COMPUTE_ONLY = frozenset({"compute"})
_KANA = re.compile("[\u3040-\u30ff]")
# "before/after X" between a verb and a mention puts them in different sub-clauses
# (修改监护人信息前会先进行权限检查, 保存する前に X を呼び出す); 当前/目前/然后/名前 are not time words.
_LOCATIVE = re.compile(r"[在于中内]|\b(?:in|inside|within|under)\b")
_TEMPORAL = re.compile("之前|以前|之后|以后|(?<![当目提向往此先然随最背名午])[前后後]")
# A mention on the "wrong" side of the verb counts as this many characters further away:
# Chinese and English put the object after the verb, Japanese before it.
_OFF_SIDE_PENALTY = 3


def _quote(words: list[str]) -> str:
    return ", ".join(f"'{w}'" for w in dict.fromkeys(words))


class MissingRef:
    """The claim has no fact reference."""

    example_bad = '{"text": "该方法返回监护人信息。", "fact_refs": []}'
    example_good = '{"text": "该方法调用 AuthService.checkPermission。", "fact_refs": ["calls:AuthService.checkPermission"]}'

    reason: str = "missing_ref"
    counts_as: str | None = "hallucination"

    def check(self, ctx: ClaimContext) -> str | None:
        return None if ctx.claim.fact_refs else "no fact_refs"


class InvalidRef:
    """A reference that does not exist in facts.json for this page."""

    example_bad = (
        '{"text": "调用 MailService.send 发送邮件。", "fact_refs": ["calls:MailService.send"]}'
    )
    example_good = '{"text": "调用 AuthService.checkPermission。", "fact_refs": ["calls:AuthService.checkPermission"]}'

    reason: str = "invalid_ref"
    counts_as: str | None = "hallucination"

    def check(self, ctx: ClaimContext) -> str | None:
        return _quote(ctx.invalid_refs) if ctx.invalid_refs else None


class Misaligned:
    """The wording asserts a different kind of action than the claim's references."""

    example_bad = '{"text": "将权限写入 AuthService.checkPermission。", "fact_refs": ["calls:AuthService.checkPermission"]}'
    example_good = '{"text": "进行权限校验。", "fact_refs": ["calls:AuthService.checkPermission"]}'

    reason: str = "misaligned"
    counts_as: str | None = "unfaithful"

    def check(self, ctx: ClaimContext) -> str | None:
        if not ctx.valid_refs:
            return None
        verb_hits = ctx.hits_of(*_ALL_VERBS)
        if not verb_hits:
            return None
        refs = list(dict.fromkeys(ctx.valid_refs))
        conditional = bool(ctx.hits_of("condition"))
        # Only a verb that some reference rejects can be misaligned; most claims stop here.
        accepted = _accepted_by_all(refs, conditional)
        verbs = [v for v in verb_hits if v.category not in accepted]
        if not verbs:
            return None
        spans = {r: ctx.mentions(r.target) if r.kind != "method" else [] for r in refs}
        verbs = [v for v in verbs if not _hypothetical(ctx, v) and not _compound_noun(ctx, v)]
        if not verbs:
            return None
        # An annotation is the object of a verb only by its code name: 事务/transaction is
        # the setting of the work (整个修改在同一事务中完成), not what is modified.
        candidates: dict[Ref, list[Span]] = {
            r: [x for x in ss if is_identifier(ctx.text[x[0] : x[1]])]
            if r.kind == "annotations"
            else ss
            for r, ss in spans.items()
        }
        unmentioned = [r for r in refs if r.kind != "method" and not spans[r]]
        if not unmentioned:
            # The claim names each of its references; a verb nearer another entry of the fact
            # is about that entry (修改监护人信息前会先进行权限检查 on calls:…checkPermission).
            for entry in ctx.fact_entries():
                if entry not in spans:
                    candidates.setdefault(Ref("other", entry.target), ctx.mentions(entry.target))
        # Invalid references take part in attribution (a verb governing one is already
        # reported as invalid_ref) but accept any verb.
        for raw in ctx.invalid_refs:
            bad = parse_ref(raw)
            if bad is not None and bad.target:
                candidates.setdefault(Ref("invalid", bad.target), _literal(ctx.text, bad.target))
        exact = {r: _literal(ctx.text, r.target) for r in candidates}
        japanese = _KANA.search(ctx.text) is not None
        problems: list[str] = []
        for verb in verbs:
            # A verb inside a mention of a target paraphrases it (更新 for
            # calls:HogosyaService.update) unless it plainly governs another reference
            # (HogosyaService.update を呼び出し、@Transactional を更新する).
            named = {r for r, ss in spans.items() if any(_overlaps(verb, x) for x in ss)}
            governed = _attribute(ctx, verb, candidates, exact, japanese)
            if governed:
                # a tie with another entry (guardian names both writes:HogosyaEntity and
                # HogosyaService.update) leaves the claim's own reference governed
                own = [r for r in governed if r.kind != "other"]
                if not own:
                    continue
                governed = own
            if named and (not governed or named & set(governed)):
                continue
            if governed and _calls_effect(ctx, verb, governed):
                continue
            # A verb governing nothing is charged to the references the claim never names:
            # a named reference has its own wording, the verb is about something else.
            targets = governed or unmentioned
            if not targets:
                continue
            if not any(_accepts(r, verb.category, conditional) for r in targets):
                problems.append(
                    f"'{ctx.text[verb.start : verb.end]}' on {', '.join(str(r) for r in targets)}"
                )
        return "; ".join(dict.fromkeys(problems)) or None


class OverInference:
    """A purpose, effect or guarantee that no fact states."""

    example_bad = (
        '{"text": "写入 HogosyaEntity，以确保数据一致性。", "fact_refs": ["writes:HogosyaEntity"]}'
    )
    example_good = '{"text": "写入 HogosyaEntity。", "fact_refs": ["writes:HogosyaEntity"]}'

    reason: str = "over_inference"
    counts_as: str | None = "unfaithful"

    def check(self, ctx: ClaimContext) -> str | None:
        hits = ctx.hits_of("over_inference")
        if not hits:
            return None
        # A fact that itself says it (calls:Lock.ensureUnique → 确保) makes the word a paraphrase.
        # a mention depends on the entry's target only: each target once, its profile looked
        # up once per claim rather than once per word
        profile = ctx.env.glossary.profile
        targets = [
            (t, profile(t))
            for t in dict.fromkeys([r.target for r in (*ctx.fact_entries(), *ctx.valid_refs)])
        ]
        words = [ctx.text[h.start : h.end] for h in hits if not _stated(ctx, h, targets)]
        return _quote(words) if words else None


def _stated(ctx: ClaimContext, hit: LexiconHit, targets: list[tuple[str, Profile]]) -> bool:
    """Is the word part of a mention of a fact entry? Cheap character/stem filter first."""
    if not hit.term:
        return False  # a construction (lexicon.py) is a shape: no fact name paraphrases it
    ascii_stems = {stem(w) for w in hit.term.split()} if hit.term.isascii() else set()
    for target, profile in targets:
        if ascii_stems:
            if ascii_stems.isdisjoint(profile.stems):
                continue
        elif profile.chars.isdisjoint(hit.term):
            continue
        if any(_overlaps(hit, span) for span in ctx.mentions(target)):
            return True
    return False


class Redundant:
    """The claim adds no fact: its valid references are already covered, or it is boilerplate."""

    example_bad = '{"text": "该方法处理相关业务逻辑。", "fact_refs": ["method:changeHogosyaJoho"]}'
    example_good = (
        '{"text": "该方法是监护人信息变更的入口。", "fact_refs": ["method:changeHogosyaJoho"]}'
    )

    reason: str = "redundant"
    counts_as: str | None = "redundant"

    def check(self, ctx: ClaimContext) -> str | None:
        boilerplate = ctx.hits_of("boilerplate")
        # A construction (handles the stock reconciliation logic) holds a topic in its gap: a
        # word of a fact entry there is the topic, so only a code name counts as content.
        shape_only = bool(boilerplate) and all(not h.term for h in boilerplate)
        if boilerplate and not (_names_code(ctx) if shape_only else _has_content(ctx)):
            first = boilerplate[0]
            return f"boilerplate {_quote([ctx.text[first.start : first.end]])}"
        refs = list(dict.fromkeys(ctx.valid_refs))
        if not refs:
            # A claim with no valid reference is a hallucination (missing_ref/invalid_ref), not a
            # repetition: reading "all its valid references are covered" vacuously would label
            # every hallucinated claim redundant too and double-count it.
            return None
        if all(r in ctx.covered_before for r in refs):
            return "; ".join(
                f"'{r}' already covered by claim {ctx.covered_before[r]}" for r in refs
            )
        return None


def _hypothetical(ctx: ClaimContext, verb: LexiconHit) -> bool:
    """A verb under a modal, a negation or a purpose (可以修改, does not write, 更新できるか,
    以确保…修改) asserts nothing."""
    for h in ctx.hits_of("modal"):
        if 0 <= verb.start - h.end <= 1:
            return True
    purposes = ctx.hits_of("over_inference")
    if not purposes:
        return any(0 <= h.start - verb.end <= 1 for h in ctx.hits_of("modal_after"))
    # a verb inside an inferred purpose (以确保只有授权用户才能修改) is that purpose, which
    # over_inference already reports, not an action asserted about the reference; Japanese
    # puts the purpose word after it (不正な更新を防ぐため)
    lo, hi = ctx.clause(verb.start, verb.end)
    if any(lo <= h.start and h.end <= verb.start for h in purposes):
        return True
    if _KANA.search(ctx.text) and any(verb.end <= h.start and h.end <= hi for h in purposes):
        return True
    return any(0 <= h.start - verb.end <= 1 for h in ctx.hits_of("modal_after"))


_KANJI_OR_KATAKANA = re.compile("[\u4e00-\u9fff\u30a0-\u30ff]")


def _compound_noun(ctx: ClaimContext, verb: LexiconHit) -> bool:
    """In Japanese a verbal noun followed by another noun is a compound noun, not the predicate
    (登録完了メールを送信する, 更新通知を送る, 付与履歴を登録する)."""
    if _KANA.search(ctx.text) is None or verb.category in ("call", "log"):
        return False
    nxt = ctx.text[verb.end : verb.end + 1]
    return bool(nxt) and _KANJI_OR_KATAKANA.match(nxt) is not None


def _calls_effect(ctx: ClaimContext, verb: LexiconHit, governed: list[Ref]) -> bool:
    """A verb after a call verb in its clause says what the call does (调用 UserRepository.save
    持久化新用户, X を呼び出して保存する), not a write by the method itself — unless the target's
    name says it does something else (a query or a calculation stores nothing)."""
    if any(r.kind != "calls" or call_class(r.target) not in ("unknown", "write") for r in governed):
        return False
    lo, _ = ctx.clause(verb.start, verb.end)
    return any(lo <= c.start and c.end <= verb.start for c in ctx.hits_of("call"))


def _overlaps(hit: LexiconHit, span: Span) -> bool:
    return hit.start < span[1] and span[0] < hit.end


def _accepted_by_all(refs: list[Ref], conditional: bool) -> frozenset[str]:
    """The verb categories every reference accepts (``_accepts`` for a set of references)."""
    accepted = _EVERY_VERB
    for ref in refs:
        kind = ref.kind
        if kind in ("method", "invalid", "other"):
            continue
        if kind == "conditions":
            if not conditional:
                accepted = accepted & _COMPUTE_ONLY
            continue
        accepted = accepted & _ref_accepts(ref)
    return accepted


def _accepts(ref: Ref, verb: str, conditional: bool) -> bool:
    if ref.kind in ("method", "invalid", "other"):
        return True
    if ref.kind == "conditions":
        # checking a condition is a computation whatever the wording around it
        return conditional or verb == "compute"
    return verb in _ref_accepts(ref)


def _ref_accepts(ref: Ref) -> frozenset[str]:
    if ref.kind == "calls":
        return ACCEPTS_BY_CLASS[call_class(ref.target)]
    return _ACCEPTS.get(ref.kind, _NO_VERB)


def _literal(text: str, target: str) -> list[Span]:
    """Where the claim writes the target itself, or its last segment (update of X.update)."""
    out: list[Span] = []
    for name in _literal_names(target):
        start = text.find(name)
        while start != -1:
            out.append((start, start + len(name)))
            start = text.find(name, start + 1)
    return out


@lru_cache(maxsize=16384)
def _literal_names(target: str) -> tuple[str, ...]:
    # per target, not per claim: every candidate of every misaligned-looking claim asks
    names = dict.fromkeys([target, target.rsplit(".", 1)[-1].lstrip("@")])
    return tuple(name for name in names if len(name) >= 3)


def _attribute(
    ctx: ClaimContext,
    verb: LexiconHit,
    spans: dict[Ref, list[Span]],
    exact: dict[Ref, list[Span]],
    japanese: bool,
) -> list[Ref]:
    """The references whose mention is nearest the verb within its clause (ties: all).

    A literal mention of the target beats a shared word at the same distance
    (``HogosyaHistory`` names writes:HogosyaHistory, not calls:HogosyaService.update).
    """
    lo, hi = ctx.clause(verb.start, verb.end)
    text = ctx.text
    verbs = ctx.hits_of(*_ALL_VERBS)
    best: list[Ref] = []
    best_distance = float(len(ctx.text) + 1)
    for ref, ref_spans in spans.items():
        literal = exact.get(ref, [])
        for s_start, s_end in [*ref_spans, *literal]:
            if s_start < lo or s_end > hi:
                continue
            gap = (verb.end, s_start) if s_start >= verb.end else (s_end, verb.start)
            between = text[gap[0] : gap[1]]
            if _TEMPORAL.search(between):
                continue
            # a nearer verb takes the mention (删除操作会同步更新 ShinseiEntity: 更新 governs it)
            g0, g1 = gap
            nearer = False
            for h in verbs:  # a plain loop, not any(): this runs for every candidate span
                if g0 <= h.start and h.end <= g1:
                    nearer = True
                    break
            if nearer:
                continue
            # an annotation as the place of the work (整个更新在 @Transactional 事务中完成)
            if ref.kind == "annotations" and _LOCATIVE.search(between):
                continue
            if s_start >= verb.end:  # after the verb
                distance = float(s_start - verb.end + (_OFF_SIDE_PENALTY if japanese else 0))
            elif s_end <= verb.start:  # before it
                distance = float(verb.start - s_end + (0 if japanese else _OFF_SIDE_PENALTY))
            else:
                continue
            if (s_start, s_end) in literal:
                distance -= 0.5
            if distance < best_distance:
                best, best_distance = [ref], distance
            elif distance == best_distance and ref not in best:
                best.append(ref)
    return best


def _has_content(ctx: ClaimContext) -> bool:
    """Does the claim name any fact entry (so it is more than boilerplate about the method)?"""
    for entry in ctx.fact_entries():
        if ctx.mentions(entry.target):
            return True
    return _names_code(ctx)


def _names_code(ctx: ClaimContext) -> bool:
    """Does the claim write a code name other than the method's own?"""
    method_words = {ctx.page.method, f"method:{ctx.page.method}"}
    from ..lexicon import tokenize

    return any(t.identifier and t.text not in method_words for t in tokenize(ctx.text))


BUILTIN = (MissingRef(), InvalidRef(), Misaligned(), OverInference(), Redundant())

__all__ = ["BUILTIN", "REF_KINDS"]
