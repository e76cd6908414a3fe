"""Counts → metrics, and metrics against thresholds → pass/fail (docs/commands/eval.md)."""

from __future__ import annotations

from .models import Counts, Metrics, Thresholds

# Float division can land a hair off a threshold (0.85 vs 17/20); compare with a tolerance.
_EPS = 1e-9


def compute(counts: Counts) -> Metrics:
    """Empty denominators read as perfect: no claims cannot be unfaithful, no key facts
    cannot be missed."""
    n = counts.claims
    return Metrics(
        faithfulness=counts.faithful / n if n else 1.0,
        hallucination_rate=counts.hallucinated / n if n else 0.0,
        key_fact_recall=counts.covered / counts.key_facts if counts.key_facts else 1.0,
        redundancy_rate=counts.redundant / n if n else 0.0,
    )


def failures(metrics: Metrics, thresholds: Thresholds) -> list[str]:
    """The metrics outside their bounds, as short sentences (empty when the page passes)."""
    out: list[str] = []
    if metrics.faithfulness < thresholds.faithfulness - _EPS:
        out.append(f"faithfulness {metrics.faithfulness:.3g} < {thresholds.faithfulness:.3g}")
    if metrics.hallucination_rate > thresholds.hallucination_rate + _EPS:
        out.append(
            f"hallucination_rate {metrics.hallucination_rate:.3g} > {thresholds.hallucination_rate:.3g}"
        )
    if metrics.key_fact_recall < thresholds.key_fact_recall - _EPS:
        out.append(
            f"key_fact_recall {metrics.key_fact_recall:.3g} < {thresholds.key_fact_recall:.3g}"
        )
    if metrics.redundancy_rate > thresholds.redundancy_rate + _EPS:
        out.append(
            f"redundancy_rate {metrics.redundancy_rate:.3g} > {thresholds.redundancy_rate:.3g}"
        )
    return out


def passes(metrics: Metrics, thresholds: Thresholds) -> bool:
    """``not failures(...)`` without formatting the sentences (called once per page)."""
    return (
        metrics.faithfulness >= thresholds.faithfulness - _EPS
        and metrics.hallucination_rate <= thresholds.hallucination_rate + _EPS
        and metrics.key_fact_recall >= thresholds.key_fact_recall - _EPS
        and metrics.redundancy_rate <= thresholds.redundancy_rate + _EPS
    )
