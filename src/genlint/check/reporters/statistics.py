"""``genlint check --statistics``: counts per rule and per distinct text instead of every
finding (as ``ruff --statistics`` does), in text or JSON. An anonymised judgment's 900 × 李某
become one line, and the three ID numbers beside it stay visible."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._io import to_json
from ._safe import printable

if TYPE_CHECKING:
    from ..report import CheckReport

# distinct texts shown per rule in the text table; JSON lists them all
_SHOWN_TEXTS = 5


def as_dict(report: CheckReport) -> dict[str, Any]:
    from ..redact import mask_report

    report = mask_report(report)
    return {
        "version": 1,
        "statistics": report.statistics(),
        "summary": {
            "files": len(report.files),
            "findings": len(report.findings),
            "unreadable": len(report.errors),
        },
    }


def render(report: CheckReport, fmt: str) -> str:
    if fmt == "json":
        return to_json(as_dict(report), pretty=False)
    from ..redact import mask_report

    rows = mask_report(report).statistics()
    if not rows:
        return f"no findings in {len(report.files)} file{'s' if len(report.files) != 1 else ''}\n"
    width = max(len(str(row["count"])) for row in rows)
    rule_width = max(len(row["rule"]) for row in rows)
    out: list[str] = []
    for row in rows:
        texts = row["texts"]
        shown = ", ".join(
            f"{printable(t['text']) or '(file)'} ×{t['count']}" for t in texts[:_SHOWN_TEXTS]
        )
        if len(texts) > _SHOWN_TEXTS:
            shown += f", … {len(texts) - _SHOWN_TEXTS} more distinct"
        out.append(f"{row['count']:>{width}}  {row['rule']:<{rule_width}}  {shown}")
    return "\n".join(out) + "\n"
