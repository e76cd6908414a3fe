"""What a rule sees about one claim: its page, fact, parsed references and wording."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import NamedTuple

from .glossary import Glossary, Span, mentions
from .lexicon import Hit, Matcher
from .model import REF_KINDS, Claim, Fact, Page


class Ref(NamedTuple):
    kind: str
    target: str

    def __str__(self) -> str:
        return f"{self.kind}:{self.target}"


def parse_ref(raw: str) -> Ref | None:
    """``"calls: AuthService.checkPermission"`` → Ref; None when there is no ``kind:``."""
    kind, sep, target = raw.partition(":")
    if not sep:
        return None
    return Ref(kind.strip().lower(), target.strip())


def ref_exists(ref: Ref, page: Page, fact: Fact | None) -> bool:
    if fact is None:
        return False
    if ref.kind == "method":
        return ref.target in (page.method, fact.name, fact.id)
    return ref.kind in REF_KINDS and ref.target in fact.entries(ref.kind)


@dataclass
class Environment:
    """Shared by every claim of one evaluation."""

    matcher: Matcher
    glossary: Glossary


@dataclass
class ClaimContext:
    page: Page
    fact: Fact | None
    index: int
    claim: Claim
    env: Environment
    valid_refs: list[Ref]
    invalid_refs: list[str]
    #: valid references (as strings) made by the page's earlier claims, with the first claim
    covered_before: dict[str, int]
    hits: list[Hit] = field(default_factory=list)
    _mentions: dict[str, list[Span]] = field(default_factory=dict)

    @property
    def text(self) -> str:
        return self.claim.text

    def mentions(self, entry: str) -> list[Span]:
        """Spans of the claim that mention a fact entry (identifier, word or glossary word)."""
        spans = self._mentions.get(entry)
        if spans is None:
            spans = mentions(self.claim.text, self.env.glossary.profile(entry))
            self._mentions[entry] = spans
        return spans

    def fact_entries(self) -> list[Ref]:
        """Every entry of the page's fact (calls, writes, annotations, conditions)."""
        if self.fact is None:
            return []
        return [Ref(kind, e) for kind in REF_KINDS for e in self.fact.entries(kind)]

    def hits_of(self, *categories: str) -> list[Hit]:
        return [h for h in self.hits if h.category in categories]
