"""Batch statistics over gate results: the numbers a team tracks run after run."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from .result import GateResult


@dataclass(frozen=True, slots=True)
class BatchStats:
    """``first_try_pass_rate``: clean at the first content attempt. ``final_pass_rate``: clean
    in the end (first_try + reasked). ``mean_attempts``: content attempts per item.
    ``retry_tokens``: tokens spent beyond each item's first content attempt (re-asks, resends). ``fix_rate``: per rule, of the items whose first reply had it, the share whose
    returned text no longer has it (a failed item returns nothing, so it counts as not fixed)."""

    items: int
    first_try_pass_rate: float
    final_pass_rate: float
    mean_attempts: float
    total_tokens: int
    retry_tokens: int
    tokens_per_item: float
    statuses: dict[str, int] = field(default_factory=dict)
    fix_rate: dict[str, float] = field(default_factory=dict)

    @classmethod
    def of(cls, results: Sequence[GateResult]) -> BatchStats:
        n = len(results)
        statuses = Counter(r.status for r in results)
        first_rules: Counter[str] = Counter()
        fixed: Counter[str] = Counter()
        for r in results:
            first = next((a for a in r.attempts if a.complete), None)
            if first is None:
                continue
            had = {f.rule for f in first.findings}
            remaining = {f.rule for f in r.findings} if r.text is not None else had
            for rule in had:
                first_rules[rule] += 1
                if rule not in remaining:
                    fixed[rule] += 1
        total = sum(r.total_usage.total_tokens for r in results)
        return cls(
            items=n,
            first_try_pass_rate=_rate(statuses["first_try"], n),
            final_pass_rate=_rate(statuses["first_try"] + statuses["reasked"], n),
            mean_attempts=_rate(sum(r.content_attempts for r in results), n),
            total_tokens=total,
            retry_tokens=sum(r.retry_usage.total_tokens for r in results),
            tokens_per_item=_rate(total, n),
            statuses=dict(sorted(statuses.items())),
            fix_rate={rule: _rate(fixed[rule], c) for rule, c in sorted(first_rules.items())},
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "items": self.items,
            "first_try_pass_rate": round(self.first_try_pass_rate, 4),
            "final_pass_rate": round(self.final_pass_rate, 4),
            "mean_attempts": round(self.mean_attempts, 3),
            "total_tokens": self.total_tokens,
            "retry_tokens": self.retry_tokens,
            "tokens_per_item": round(self.tokens_per_item, 1),
            "statuses": self.statuses,
            "fix_rate": {k: round(v, 4) for k, v in self.fix_rate.items()},
        }


def _rate(part: float, whole: int) -> float:
    return part / whole if whole else 0.0
