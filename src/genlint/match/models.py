"""Input and output shapes of ``genlint match`` (docs/commands/match.md), and loaders that name the bad entry."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from ..errors import SchemaError


def _as_text(value: object) -> object:
    # Ids are often numbers in hand-written JSON; they are still ids, not quantities.
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return str(value)
    return value


class Criterion(BaseModel):
    """One review criterion. Fields beyond the documented ones are kept and passed through."""

    model_config = ConfigDict(extra="allow")

    criterion_id: str = Field(min_length=1)
    clause_ref: str | None = ""
    review_point: str | None = ""
    risk_level: str | None = ""
    baseline_text: str | None = ""
    suggested_action: str | None = ""

    _coerce = field_validator("criterion_id", "clause_ref", mode="before")(_as_text)

    def embedding_text(self) -> str:
        """What the semantic index sees: the point to review and the wording it expects."""
        parts = [self.review_point or "", self.baseline_text or ""]
        return "\n".join(p.strip() for p in parts if p and p.strip())


class Clause(BaseModel):
    model_config = ConfigDict(extra="allow")

    clause_id: str = Field(min_length=1)
    clause_ref: str | None = None
    text: str = ""

    _coerce = field_validator("clause_id", "clause_ref", mode="before")(_as_text)


class MatchedCriterion(Criterion):
    match_type: Literal["exact", "semantic"]
    match_score: float
    applicable: bool = True
    applicability_reason: str | None = None


class LoadReviewCriteriaOutput(BaseModel):
    """The criteria that apply to one clause, best first (at most ``max_results``)."""

    clause_id: str
    matched_criteria: list[MatchedCriterion] = Field(default_factory=list)
    total_matched: int = 0
    has_criteria: bool = False
    llm_filtered: bool = False

    def to_dict(self) -> dict[str, Any]:
        return self.model_dump(mode="json")


def _first_error(exc: ValidationError) -> str:
    err = exc.errors()[0]
    field = ".".join(str(p) for p in err["loc"]) or "entry"
    if err["type"] == "missing":
        return f"field '{field}' is required"
    return f"field '{field}': {err['msg'].lower()}"


def _unwrap(data: object, key: str, source: str) -> list[Any]:
    if isinstance(data, dict) and isinstance(data.get(key), list):
        data = data[key]
    if not isinstance(data, list):
        raise SchemaError(f"{source}: expected a list of {key} (or an object with a '{key}' list)")
    return data


def load_criteria(data: object, source: str = "criteria") -> list[Criterion]:
    """Validate criteria as read from JSON; the error names the entry (index and id)."""
    entries = _unwrap(data, "criteria", source)
    result: list[Criterion] = []
    seen: dict[str, int] = {}
    for i, entry in enumerate(entries):
        where = f"{source}: entry [{i}]"
        if not isinstance(entry, dict):
            raise SchemaError(f"{where}: expected an object, got {type(entry).__name__}")
        if entry.get("criterion_id") not in (None, ""):
            where += f" (criterion_id {entry['criterion_id']!r})"
        try:
            criterion = Criterion.model_validate(entry)
        except ValidationError as exc:
            raise SchemaError(f"{where}: {_first_error(exc)}") from None
        if not (criterion.clause_ref or "").strip() and not criterion.embedding_text():
            # Nothing to match by: neither a reference nor any text to compare with.
            raise SchemaError(
                f"{where}: needs a clause_ref, a review_point or a baseline_text to match by"
            )
        if criterion.criterion_id in seen:
            raise SchemaError(
                f"{where}: duplicate criterion_id (also entry [{seen[criterion.criterion_id]}])"
            )
        seen[criterion.criterion_id] = i
        result.append(criterion)
    return result


def load_clause(data: object, source: str = "clause", index: int | None = None) -> Clause:
    where = source if index is None else f"{source}: entry [{index}]"
    if not isinstance(data, dict):
        raise SchemaError(f"{where}: expected an object with clause_id and text")
    try:
        clause = Clause.model_validate(data)
    except ValidationError as exc:
        raise SchemaError(f"{where}: {_first_error(exc)}") from None
    if not clause.text.strip() and not (clause.clause_ref or "").strip():
        raise SchemaError(f"{where}: needs a text or a clause_ref to match by")
    return clause


def load_clauses(data: object, source: str = "clauses") -> list[Clause]:
    return [load_clause(e, source, i) for i, e in enumerate(_unwrap(data, "clauses", source))]


def coerce_criteria(criteria: Iterable[Criterion | dict[str, Any]]) -> list[Criterion]:
    items = list(criteria)
    if all(isinstance(c, Criterion) for c in items):
        return items  # type: ignore[return-value]
    return load_criteria([c.model_dump() if isinstance(c, Criterion) else c for c in items])
