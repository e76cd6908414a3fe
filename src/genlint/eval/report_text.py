"""The ``--format text`` report: metrics against thresholds, then a table of violations."""

from __future__ import annotations

import unicodedata

from . import metrics as _metrics
from .models import EvaluationResult, Metrics, PageResult, Thresholds

_CLAIM_WIDTH = 40


def width(text: str) -> int:
    """Terminal columns: CJK characters take two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _fit(text: str, limit: int) -> str:
    text = " ".join(text.split())
    if width(text) <= limit:
        return text
    out, used = [], 0
    for c in text:
        w = width(c)
        if used + w > limit - 1:
            break
        out.append(c)
        used += w
    return "".join(out) + "…"


def _pad(text: str, columns: int) -> str:
    return text + " " * max(0, columns - width(text))


def _metric_lines(m: Metrics, t: Thresholds) -> list[str]:
    bad = " ".join(_metrics.failures(m, t))
    rows = [
        ("faithfulness", m.faithfulness, "≥", t.faithfulness),
        ("hallucination_rate", m.hallucination_rate, "≤", t.hallucination_rate),
        ("key_fact_recall", m.key_fact_recall, "≥", t.key_fact_recall),
        ("redundancy_rate", m.redundancy_rate, "≤", t.redundancy_rate),
    ]
    return [
        f"  {'✗' if name in bad else '✓'} {name:<19} {value:6.3f}  (needs {op} {limit:.2f})"
        for name, value, op, limit in rows
    ]


def _table(rows: list[tuple[str, ...]]) -> list[str]:
    header = ("page", "#", "reason", "claim", "detail")
    widths = [max(width(r[i]) for r in [header, *rows]) for i in range(len(header) - 1)]
    lines = []
    for row in [header, *rows]:
        cells = [_pad(cell, widths[i]) for i, cell in enumerate(row[:-1])]
        lines.append("  " + "  ".join([*cells, row[-1]]).rstrip())
    return lines


def render(result: EvaluationResult) -> str:
    verdict = "PASS" if result.passed else "FAIL"
    c = result.counts
    lines = [
        f"{verdict}: {c.claims} claims on {len(result.pages)} page(s), "
        f"{c.covered}/{c.key_facts} key facts covered, {len(result.violations)} violation(s)",
        *_metric_lines(result.metrics, result.thresholds),
    ]
    if len(result.pages) > 1:
        lines.append("")
        lines.append("pages:")
        lines.extend(_page_line(p) for p in result.pages)
    if result.violations:
        lines.append("")
        lines.append("violations:")
        lines.extend(
            _table(
                [
                    (v.page, str(v.claim_index + 1), v.reason, _fit(v.claim, _CLAIM_WIDTH), v.detail)
                    for v in result.violations
                ]
            )
        )
    if result.uncovered_facts:
        lines.append("")
        lines.append("uncovered key facts:")
        for p in result.pages:
            lines.extend(f"  {p.page}: {u}" for u in p.uncovered_facts)
    return "\n".join(lines) + "\n"


def _page_line(p: PageResult) -> str:
    m = p.metrics
    return (
        f"  {'PASS' if p.passed else 'FAIL'} {p.page}: faithfulness {m.faithfulness:.3f}, "
        f"hallucination {m.hallucination_rate:.3f}, recall {m.key_fact_recall:.3f}, "
        f"redundancy {m.redundancy_rate:.3f}"
    )


def summary(result: EvaluationResult) -> str:
    """One line for stderr when the report goes to a file."""
    m = result.metrics
    return (
        f"{'PASS' if result.passed else 'FAIL'}: faithfulness {m.faithfulness:.3f}, "
        f"hallucination_rate {m.hallucination_rate:.3f}, key_fact_recall {m.key_fact_recall:.3f}, "
        f"redundancy_rate {m.redundancy_rate:.3f}"
    )
