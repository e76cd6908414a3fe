"""``genlint match``: review criteria for a contract clause.

Exact match on the normalised clause reference, else semantic candidates from an embedder, then
an optional LLM applicability filter that never loses a candidate when the LLM fails.
"""

from __future__ import annotations

from .clause_ref import normalize_clause_ref, same_clause
from .models import (
    Clause,
    Criterion,
    LoadReviewCriteriaOutput,
    MatchedCriterion,
    load_clause,
    load_clauses,
    load_criteria,
)
from .pipeline import Matcher, match_criteria

__all__ = [
    "Clause",
    "Criterion",
    "LoadReviewCriteriaOutput",
    "MatchedCriterion",
    "Matcher",
    "load_clause",
    "load_clauses",
    "load_criteria",
    "match_criteria",
    "normalize_clause_ref",
    "same_clause",
]
