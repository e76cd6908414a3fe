"""``genlint eval --explain``: per claim, the verb classes its wording asserts and the class of
each reference they were compared with (docs/commands/eval.md, "Why a claim was judged so").

The same lexicon, constructions and reference classes as the misaligned and over-inference rules
(rules/builtin.py, refclass.py), so what is printed is what was compared.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .context import parse_ref
from .engine import FactsInput, WikiInput, _environment, _facts, _freeze, _wiki
from .lexicon import VERB_CATEGORIES
from .refclass import ACCEPTS_BY_CLASS, call_class
from .rules.builtin import _ACCEPTS

_REF_CLASS = {"writes": "write", "annotations": "declare", "conditions": "condition"}


@dataclass(frozen=True)
class ClaimExplanation:
    page: str
    claim_index: int
    #: (word as written, verb class) for each verb the wording asserts
    verbs: tuple[tuple[str, str], ...]
    #: (reference, its class, the verb classes it accepts)
    refs: tuple[tuple[str, str, tuple[str, ...]], ...]
    #: words and constructions that read as a purpose, effect or guarantee
    inferences: tuple[str, ...]

    def line(self) -> str:
        verbs = ", ".join(f"'{w}' {c}" for w, c in self.verbs) or "no verb"
        refs = (
            "; ".join(
                f"{r} is {cls} (accepts {', '.join(acc) or 'any'})" for r, cls, acc in self.refs
            )
            or "no reference"
        )
        text = f"{self.page} claim {self.claim_index + 1}: {verbs} | {refs}"
        if self.inferences:
            text += " | inferred: " + ", ".join(f"'{w}'" for w in self.inferences)
        return text


def reference_class(raw: str) -> tuple[str, tuple[str, ...]]:
    """A reference's verb class and the verb classes it accepts."""
    ref = parse_ref(raw)
    if ref is None:
        return "invalid", ()
    if ref.kind == "calls":
        cls = call_class(ref.target)
        return cls, tuple(sorted(ACCEPTS_BY_CLASS[cls]))
    if ref.kind == "method":
        return "method", tuple(VERB_CATEGORIES)
    if ref.kind == "conditions":
        return "condition", ("compute", "any verb in a condition clause")
    return _REF_CLASS.get(ref.kind, "unknown"), tuple(sorted(_ACCEPTS.get(ref.kind, ())))


def explain(
    facts: FactsInput,
    wiki: WikiInput,
    *,
    glossary: Mapping[str, Sequence[str]] | None = None,
    lexicon: Mapping[str, Sequence[str]] | None = None,
) -> list[ClaimExplanation]:
    """One explanation per claim of ``wiki``, in page and claim order."""
    _facts(facts)  # validates facts the way evaluate does
    pages, _ = _wiki(wiki)
    matcher = _environment(_freeze(glossary), _freeze(lexicon)).matcher
    out: list[ClaimExplanation] = []
    for page in pages:
        for index, claim in enumerate(page.claims):
            hits = matcher.find(claim.text)
            verbs = tuple(
                (claim.text[h.start : h.end], h.category)
                for h in hits
                if h.category in VERB_CATEGORIES
            )
            inferences = tuple(
                claim.text[h.start : h.end] for h in hits if h.category == "over_inference"
            )
            refs = tuple((raw, *reference_class(raw)) for raw in claim.fact_refs)
            out.append(ClaimExplanation(page.method, index, verbs, refs, inferences))
    return out
