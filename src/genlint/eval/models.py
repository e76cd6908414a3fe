"""The data of an evaluation: facts, wiki pages, violations and results.

Plain dataclasses rather than pydantic models: ``genlint eval`` must start in well under
0.3 s, and these objects carry no validation of their own (``inputs`` validates the JSON).
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any, NamedTuple

#: Reasons defined by docs/commands/eval.md, in the order they are reported for one claim.
REASONS: tuple[str, ...] = (
    "missing_ref",
    "invalid_ref",
    "misaligned",
    "over_inference",
    "redundant",
)

#: Fact lists a reference may point into; the first three hold the key facts.
REF_KINDS: tuple[str, ...] = ("calls", "writes", "annotations", "conditions")
KEY_KINDS: tuple[str, ...] = ("calls", "writes", "annotations")


@dataclass(frozen=True)
class Fact:
    """One extracted fact (a method) with the entries a claim may reference."""

    id: str
    kind: str = "method"
    role: str | None = None
    calls: tuple[str, ...] = ()
    writes: tuple[str, ...] = ()
    annotations: tuple[str, ...] = ()
    conditions: tuple[str, ...] = ()

    @property
    def name(self) -> str:
        return self.id.split(":", 1)[1] if ":" in self.id else self.id

    def entries(self, kind: str) -> tuple[str, ...]:
        value: tuple[str, ...] = getattr(self, kind)
        return value

    def key_facts(self) -> list[str]:
        """Every calls/writes/annotations entry as a reference string, in fact order."""
        seen: dict[str, None] = {}
        for kind in KEY_KINDS:
            for entry in self.entries(kind):
                seen.setdefault(f"{kind}:{entry}", None)
        return list(seen)


class Claim(NamedTuple):
    """One claim of a page (a tuple: ten thousand of them are built per medium evaluation)."""

    text: str
    fact_refs: tuple[str, ...] = ()


@dataclass(frozen=True)
class Page:
    """One wiki page: claims about the method ``method`` (scoped to fact ``method:<method>``)."""

    method: str
    claims: tuple[Claim, ...] = ()
    source: str | None = None  # the file it came from, in batch mode


@dataclass  # not frozen: built once per finding, and a frozen __init__ is 3x slower
class Violation:
    page: str
    claim_index: int
    claim: str
    reason: str
    detail: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "page": self.page,
            "claim_index": self.claim_index,
            "claim": self.claim,
            "reason": self.reason,
            "detail": self.detail,
        }


@dataclass(frozen=True)
class Thresholds:
    """Pass bounds: minimums for faithfulness and recall, maximums for the two rates."""

    faithfulness: float = 0.95
    hallucination_rate: float = 0.0
    key_fact_recall: float = 0.85
    redundancy_rate: float = 0.15

    def to_dict(self) -> dict[str, float]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


@dataclass(frozen=True)
class Metrics:
    faithfulness: float
    hallucination_rate: float
    key_fact_recall: float
    redundancy_rate: float

    def to_dict(self) -> dict[str, float]:
        return {f.name: round(getattr(self, f.name), 4) for f in fields(self)}


@dataclass(frozen=True)
class Counts:
    """The raw counts behind the metrics, so pages can be summed exactly."""

    claims: int = 0
    faithful: int = 0
    hallucinated: int = 0
    redundant: int = 0
    key_facts: int = 0
    covered: int = 0

    def __add__(self, other: Counts) -> Counts:
        return Counts(
            self.claims + other.claims,
            self.faithful + other.faithful,
            self.hallucinated + other.hallucinated,
            self.redundant + other.redundant,
            self.key_facts + other.key_facts,
            self.covered + other.covered,
        )


@dataclass(frozen=True)
class PageResult:
    page: str
    metrics: Metrics
    counts: Counts
    violations: tuple[Violation, ...]
    uncovered_facts: tuple[str, ...]
    thresholds: Thresholds
    passed: bool
    claims: tuple[Claim, ...] = ()
    source: str | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {"page": self.page}
        if self.source is not None:
            out["source"] = self.source
        out.update(
            metrics=self.metrics.to_dict(),
            violations=[v.to_dict() for v in self.violations],
            uncovered_facts=list(self.uncovered_facts),
            thresholds=self.thresholds.to_dict(),
        )
        out["pass"] = self.passed
        return out


@dataclass(frozen=True)
class EvaluationResult:
    """The result of :func:`genlint.evaluate`; ``to_dict()`` is the docs/commands/eval.md JSON.

    ``pages`` always holds one block per page; ``to_dict()`` shows it only for several
    pages (a wiki given as a list, or a folder), as the the contract's single-page example has none.
    """

    metrics: Metrics
    counts: Counts
    violations: tuple[Violation, ...]
    uncovered_facts: tuple[str, ...]
    thresholds: Thresholds
    passed: bool
    pages: tuple[PageResult, ...] = field(default_factory=tuple)
    multi_page: bool = False

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "metrics": self.metrics.to_dict(),
            "violations": [v.to_dict() for v in self.violations],
            "uncovered_facts": list(self.uncovered_facts),
            "thresholds": self.thresholds.to_dict(),
            "pass": self.passed,
        }
        if self.multi_page:
            out["pages"] = [p.to_dict() for p in self.pages]
        return out
