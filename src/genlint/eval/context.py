"""What a rule sees about one claim: its page, fact, parsed references and wording."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from typing import NamedTuple

from .glossary import Glossary, Span, TokenStems, mentions, token_stems
from .lexicon import LexiconHit, LexiconMatcher
from .models import REF_KINDS, Claim, Fact, Page

# Clause boundaries: a verb acts on what is mentioned in its own clause.
# Conjunctions split too ("calls X and writes Y"); a full stop inside an identifier does not.
_CLAUSE_BREAK = re.compile(
    r"[，,。;；!！?？\n、：:（）()]|\.(?=\s|$)|\b(?:and|then|but|before|after)\b|并且|并|然后|随后|再"
)


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

    matcher: LexiconMatcher
    glossary: Glossary
    #: fact id → its entries as references (pages share facts across a batch)
    entries: dict[str, list[Ref]] = field(default_factory=dict)


class ClaimContext:
    """One claim as the rules see it; derived data (mentions, clauses) is computed on demand."""

    __slots__ = (
        "_breaks", "_by_category", "_mentions", "_stems", "claim", "covered_before", "env",
        "fact", "hits", "index", "invalid_refs", "page", "valid_refs",
    )  # fmt: skip

    def __init__(
        self,
        page: Page,
        fact: Fact | None,
        index: int,
        claim: Claim,
        env: Environment,
        valid_refs: list[Ref],
        invalid_refs: list[str],
        covered_before: dict[Ref, int],
        hits: list[LexiconHit],
    ) -> None:
        self.page = page
        self.fact = fact
        self.index = index
        self.claim = claim
        self.env = env
        self.valid_refs = valid_refs
        self.invalid_refs = invalid_refs
        #: valid references of the page's earlier claims → the first claim that made each
        self.covered_before = covered_before
        self.hits = hits
        self._mentions: dict[str, list[Span]] = {}
        self._stems: TokenStems | None = None
        self._by_category: dict[str | tuple[str, ...], list[LexiconHit]] | None = None
        self._breaks: tuple[list[int], list[int]] | None = None

    @property
    def text(self) -> str:
        return self.claim.text

    def mentions(self, entry: str) -> list[Span]:
        """Spans of the claim that mention a fact entry (identifier, word or glossary word)."""
        spans = self._mentions.get(entry)
        if spans is None:
            if self._stems is None:
                self._stems = token_stems(self.claim.text)
            spans = mentions(self.claim.text, self.env.glossary.profile(entry), self._stems)
            self._mentions[entry] = spans
        return spans

    def fact_entries(self) -> list[Ref]:
        """Every entry of the page's fact (calls, writes, annotations, conditions)."""
        if self.fact is None:
            return []
        cache = self.env.entries
        found = cache.get(self.fact.id)
        if found is None:
            found = [Ref(kind, e) for kind in REF_KINDS for e in self.fact.entries(kind)]
            cache[self.fact.id] = found
        return found

    def hits_of(self, *categories: str) -> list[LexiconHit]:
        by = self._by_category
        if by is None:
            by = self._by_category = {}
            for h in self.hits:
                found = by.get(h.category)
                if found is None:
                    by[h.category] = [h]
                else:
                    found.append(h)
        if len(categories) == 1:
            return by.get(categories[0], [])
        # several categories: cached under the tuple itself (no key string per call)
        merged = by.get(categories)
        if merged is None:
            merged = by[categories] = [h for h in self.hits if h.category in categories]
        return merged

    def clause(self, start: int, end: int) -> tuple[int, int]:
        """Bounds of the clause (between punctuation) holding ``start:end``."""
        if self._breaks is None:
            found = [(m.start(), m.end()) for m in _CLAUSE_BREAK.finditer(self.claim.text)]
            self._breaks = ([a for a, _ in found], [b for _, b in found])
        starts, ends = self._breaks
        i = bisect_left(starts, start)
        lo = ends[i - 1] if i > 0 else 0
        j = bisect_left(starts, end)
        hi = starts[j] if j < len(starts) else len(self.claim.text)
        return lo, hi
