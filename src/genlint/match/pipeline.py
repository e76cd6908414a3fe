"""From a clause to the criteria that apply to it (docs/commands/match.md).

exact reference match ─ yes → those criteria, applicable, the LLM is not asked
        │ no
semantic top-k (cosine ≥ the embedder's threshold for the clause's text; none at all when the
        │         best is below the embedder's "covered" cut-off: nothing applies)
        │
LLM verdicts (when configured) ─ failure → every candidate kept, llm_filtered false
        │
at most ``max_results``, best first
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, Literal

from ..llm.base import ChatModel
from .clause_ref import normalize_clause_ref
from .embedders import Embedder, covered_threshold_of
from .index import VectorIndex
from .llm_filter import judge
from .models import (
    Clause,
    Criterion,
    LoadReviewCriteriaOutput,
    MatchedCriterion,
    coerce_criteria,
    load_clause,
)

logger = logging.getLogger(__name__)

TOP_K = 5
MAX_RESULTS = 3
_OUTPUT_FIELDS = frozenset({"match_type", "match_score", "applicable", "applicability_reason"})


def template_of(item: Criterion | Clause) -> str | None:
    """The optional ``template`` (contract template or type) a criterion or clause carries."""
    value = (item.model_extra or {}).get("template")
    text = "" if value is None else str(value).strip()
    return text or None


def _matched(
    c: Criterion,
    match_type: Literal["exact", "semantic"],
    score: float,
    applicable: bool,
    reason: str | None,
) -> MatchedCriterion:
    # An input criterion may carry fields of the same names (a previous run's output fed back);
    # this run's values win.
    fields = {k: v for k, v in c.model_dump().items() if k not in _OUTPUT_FIELDS}
    return MatchedCriterion(
        **fields,
        match_type=match_type,
        match_score=round(score, 4),
        applicable=applicable,
        applicability_reason=reason,
    )


class Matcher:
    """Criteria indexed once, matched against any number of clauses."""

    def __init__(
        self,
        criteria: Iterable[Criterion | dict[str, Any]],
        embedder: Embedder | None = None,
        llm: ChatModel | None = None,
        *,
        top_k: int = TOP_K,
        max_results: int = MAX_RESULTS,
        threshold: float | None = None,
        llm_timeout: float | None = 30.0,
        cache_dir: str | Path | None = None,
    ) -> None:
        self.criteria = coerce_criteria(criteria)
        if embedder is None:
            from .embedders.lexical import LexicalEmbedder

            self.embedder: Embedder = LexicalEmbedder()
        else:
            self.embedder = embedder
        self.llm = llm
        self.top_k = top_k
        self.max_results = max_results
        # None: the embedder's calibrated cut-off, which may depend on the clause (its language).
        self.threshold = threshold
        self.llm_timeout = llm_timeout
        self._by_ref: dict[str, list[Criterion]] = {}
        for c in self.criteria:
            ref = normalize_clause_ref(c.clause_ref)
            if ref is not None:
                self._by_ref.setdefault(ref, []).append(c)
        self._cache_dir = cache_dir
        self._index: VectorIndex | None = None

    @property
    def index(self) -> VectorIndex:
        # Built on first semantic need: a contract whose clauses all match by reference never
        # pays for embedding the criteria.
        if self._index is None:
            texts = [c.embedding_text() for c in self.criteria]
            self._index = VectorIndex(self.embedder, texts, cache_dir=self._cache_dir)
        return self._index

    def _exact(self, clause: Clause) -> list[Criterion]:
        ref = normalize_clause_ref(clause.clause_ref)
        if ref is None:
            return []
        # An article number names a criterion only in the contract it was written for: a
        # criterion with a ``template`` takes the exact path only for clauses of that template.
        template = template_of(clause)
        return [c for c in self._by_ref.get(ref, []) if template_of(c) in (None, template)]

    def match(
        self,
        clause: Clause | dict[str, Any],
        *,
        hits: list[tuple[int, float]] | None = None,
    ) -> LoadReviewCriteriaOutput:
        """The criteria for one clause; ``hits`` are its semantic hits when already searched."""
        if not isinstance(clause, Clause):
            clause = load_clause(clause)
        exact = self._exact(clause)
        if exact:
            reason = f"clause reference {clause.clause_ref!r} matches the criterion's exactly"
            chosen = [_matched(c, "exact", 1.0, True, reason) for c in exact]
            return self._output(clause, chosen[: self.max_results], llm_filtered=False)

        if hits is None:
            hits = self.index.search(clause.text, k=self.top_k, threshold=self.threshold)
        # "Nothing applies" is decided on the best candidate; the runners-up may be weaker.
        best = hits[0][1] if hits else None
        if best is not None and self.threshold is None:
            hits = hits if best >= covered_threshold_of(self.embedder, clause.text) else []
        candidates = [(self.criteria[i], score) for i, score in hits]
        if self.llm is None or not candidates:
            why = "no LLM configured; applicability not checked"
            kept = [_matched(c, "semantic", s, True, why) for c, s in candidates]
            return self._output(clause, kept[: self.max_results], llm_filtered=False)

        verdicts, failure = judge(
            self.llm, clause, [c for c, _ in candidates], timeout=self.llm_timeout
        )
        if verdicts is None:
            why = f"LLM unavailable ({failure}); applicability not checked"
            kept = [_matched(c, "semantic", s, True, why) for c, s in candidates]
            return self._output(clause, kept[: self.max_results], llm_filtered=False)

        kept = []
        for c, s in candidates:
            verdict = verdicts.get(c.criterion_id)
            if verdict is None:
                kept.append(_matched(c, "semantic", s, True, "no verdict from the LLM; kept"))
            elif verdict.applicable:
                kept.append(_matched(c, "semantic", s, True, verdict.reason or "applicable"))
            else:
                logger.debug("LLM rejected %s: %s", c.criterion_id, verdict.reason)
        return self._output(clause, kept[: self.max_results], llm_filtered=True)

    def match_many(
        self,
        clauses: Sequence[Clause | dict[str, Any]],
        progress: Callable[[int], None] | None = None,
    ) -> list[LoadReviewCriteriaOutput]:
        """Every clause of a contract; the semantic search runs batched over the clauses that
        have no exact match."""
        parsed = [c if isinstance(c, Clause) else load_clause(c) for c in clauses]
        need = [i for i, c in enumerate(parsed) if not self._exact(c)]
        searched: dict[int, list[tuple[int, float]]] = {}
        if need:
            found = self.index.search_many(
                [parsed[i].text for i in need], k=self.top_k, threshold=self.threshold
            )
            searched = dict(zip(need, found, strict=True))
        results = []
        for i, clause in enumerate(parsed):
            results.append(self.match(clause, hits=searched.get(i)))
            if progress is not None:
                progress(1)
        return results

    @staticmethod
    def _output(
        clause: Clause, chosen: list[MatchedCriterion], *, llm_filtered: bool
    ) -> LoadReviewCriteriaOutput:
        # Candidates arrive best first (exact: in file order, all scoring 1.0).
        return LoadReviewCriteriaOutput(
            clause_id=clause.clause_id,
            matched_criteria=chosen,
            total_matched=len(chosen),
            has_criteria=bool(chosen),
            llm_filtered=llm_filtered,
        )


def match_criteria(
    clause: Clause | dict[str, Any],
    criteria: Iterable[Criterion | dict[str, Any]],
    embedder: Embedder | None = None,
    llm: ChatModel | None = None,
    **options: Any,
) -> LoadReviewCriteriaOutput:
    """The review criteria that apply to ``clause`` (docs/commands/match.md). ``options`` go to
    :class:`Matcher` (top_k, max_results, threshold, llm_timeout, cache_dir)."""
    return Matcher(criteria, embedder, llm, **options).match(clause)
