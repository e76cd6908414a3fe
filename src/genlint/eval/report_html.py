"""The ``--format html`` report: one self-contained file, no network, no script.

Claims come from a model, so every piece of text goes through :func:`html.escape`; a strict
Content-Security-Policy (no scripts, no external loads) is the second line of defence. The
"only problems" filter is a CSS checkbox, so the page needs no JavaScript at all.
"""

from __future__ import annotations

import math
from html import escape

from . import metrics as _metrics
from .models import EvaluationResult, Metrics, PageResult, Thresholds, Violation

# worst reason first: a claim's colour is that of its worst violation
_SEVERITY = {
    "missing_ref": "bad",
    "invalid_ref": "bad",
    "misaligned": "warn",
    "over_inference": "warn",
    "redundant": "dull",
}
_RANK = {"bad": 0, "warn": 1, "dull": 2, "ok": 3}

_CSS = """
:root{--ok:#1a7f37;--bad:#cf222e;--warn:#bc4c00;--dull:#6e7781;--bg:#f6f8fa;--line:#d0d7de}
*{box-sizing:border-box}body{font:14px/1.5 system-ui,-apple-system,"Segoe UI","Noto Sans CJK SC",
"Noto Sans CJK JP",sans-serif;margin:0;color:#1f2328;background:#fff}
header{padding:20px 28px;border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:16px;align-items:center}
h1{font-size:20px;margin:0;white-space:nowrap}h2{font-size:16px;margin:0 0 8px}
.verdict{font-weight:700;padding:4px 12px;border-radius:999px;color:#fff}
.verdict.pass{background:var(--ok)}.verdict.fail{background:var(--bad)}
.gauges{display:flex;flex-wrap:wrap;gap:16px;padding:20px 28px;background:var(--bg)}
.gauge{background:#fff;border:1px solid var(--line);border-radius:8px;padding:10px 14px;width:200px;text-align:center}
.gauge svg{width:170px;height:100px}.gauge .name{font-weight:600}.gauge .limit{color:var(--dull);font-size:12px}
.gauge.pass .arc{stroke:var(--ok)}.gauge.fail .arc{stroke:var(--bad)}
.gauge.fail .value{fill:var(--bad)}.gauge.pass .value{fill:var(--ok)}
main{padding:8px 28px 40px}section.page{margin-top:24px}
.page-head{display:flex;gap:12px;align-items:baseline;flex-wrap:wrap}
.small{color:var(--dull);font-size:12px}
table{border-collapse:collapse;width:100%;margin-top:8px;table-layout:fixed}
th:nth-child(1){width:3em}th:nth-child(2){width:45%}th:nth-child(3){width:25%}
th,td{border-bottom:1px solid var(--line);padding:6px 8px;text-align:left;vertical-align:top}
th{background:var(--bg);font-weight:600}
tr.claim td:first-child{border-left:5px solid var(--ok)}
tr.claim.bad td:first-child{border-left-color:var(--bad)}tr.claim.bad{background:#ffebe9}
tr.claim.warn td:first-child{border-left-color:var(--warn)}tr.claim.warn{background:#fff1e5}
tr.claim.dull td:first-child{border-left-color:var(--dull)}tr.claim.dull{background:#f6f8fa}
.text{white-space:pre-wrap;word-break:break-word}
code{font-size:12px;background:var(--bg);border:1px solid var(--line);border-radius:4px;padding:0 4px;word-break:break-all}
.tag{display:inline-block;border-radius:4px;padding:0 6px;margin:1px 4px 1px 0;color:#fff;font-size:12px;font-weight:600}
.tag.bad{background:var(--bad)}.tag.warn{background:var(--warn)}.tag.dull{background:var(--dull)}
.tag.ok{background:var(--ok)}.detail{font-size:12px}
.uncovered code{border-color:var(--bad);color:var(--bad)}
.legend{display:flex;gap:12px;flex-wrap:wrap;font-size:12px;align-items:center}
#only-problems:checked ~ main tr.claim.ok{display:none}
label{font-size:13px;margin-left:28px;cursor:pointer}
"""


def _number(value: float) -> str:
    """Two decimals, or three when the third matters (0.154 must not read as 0.15)."""
    three = f"{value:.3f}"
    return three[:-1] if three.endswith("0") else three


def _gauge(name: str, value: float, limit: float, higher_is_better: bool, ok: bool) -> str:
    """A half-circle gauge (SVG) with a tick at the threshold."""
    v = min(max(value, 0.0), 1.0)
    angle = math.pi * (1 - limit)
    x1, y1 = 85 + 58 * math.cos(angle), 85 - 58 * math.sin(angle)
    x2, y2 = 85 + 82 * math.cos(angle), 85 - 82 * math.sin(angle)
    op = "≥" if higher_is_better else "≤"
    state = "pass" if ok else "fail"
    return (
        f'<div class="gauge {state}" data-metric="{name}" data-value="{value:.4f}" data-state="{state}">'
        f'<svg viewBox="0 0 170 100" role="img" aria-label="{name} {value:.2f}">'
        '<path d="M15,85 A70,70 0 0 1 155,85" fill="none" stroke="#d0d7de" stroke-width="14"/>'
        f'<path class="arc" d="M15,85 A70,70 0 0 1 155,85" fill="none" stroke-width="14" '
        f'pathLength="100" stroke-dasharray="{v * 100:.2f} 100"/>'
        f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#1f2328" stroke-width="3"/>'
        f'<text class="value" x="85" y="80" text-anchor="middle" font-size="26" font-weight="700">{_number(value)}</text>'
        "</svg>"
        f'<div class="name">{escape(name)}</div>'
        f'<div class="limit">threshold {op} {limit:.2f} · {"pass" if ok else "fail"}</div></div>'
    )


def _gauges(m: Metrics, t: Thresholds) -> str:
    failed = " ".join(_metrics.failures(m, t))
    specs = [
        ("faithfulness", m.faithfulness, t.faithfulness, True),
        ("hallucination_rate", m.hallucination_rate, t.hallucination_rate, False),
        ("key_fact_recall", m.key_fact_recall, t.key_fact_recall, True),
        ("redundancy_rate", m.redundancy_rate, t.redundancy_rate, False),
    ]
    return "".join(_gauge(n, v, lim, hib, n not in failed) for n, v, lim, hib in specs)


def _claim_row(index: int, text: str, refs: tuple[str, ...], found: list[Violation]) -> str:
    levels = [_SEVERITY.get(v.reason, "warn") for v in found]
    level = min(levels, key=_RANK.__getitem__) if levels else "ok"
    ref_html = (
        " ".join(f"<code>{escape(r)}</code>" for r in refs) or '<span class="small">none</span>'
    )
    if found:
        tags = "".join(
            f'<div><span class="tag {_SEVERITY.get(v.reason, "warn")}">{escape(v.reason)}</span>'
            f'<span class="detail">{escape(v.detail)}</span></div>'
            for v in found
        )
    else:
        tags = '<span class="tag ok">ok</span>'
    reasons = " ".join(v.reason for v in found)
    return (
        f'<tr class="claim {level}" data-index="{index}" data-reasons="{escape(reasons)}">'
        f'<td>{index + 1}</td><td class="text">{escape(text)}</td><td>{ref_html}</td><td>{tags}</td></tr>'
    )


def _page(p: PageResult, number: int) -> str:
    by_claim: dict[int, list[Violation]] = {}
    for v in p.violations:
        by_claim.setdefault(v.claim_index, []).append(v)
    rows = "".join(
        _claim_row(i, c.text, c.fact_refs, by_claim.get(i, [])) for i, c in enumerate(p.claims)
    )
    m = p.metrics
    uncovered = (
        '<p class="uncovered">Uncovered key facts: '
        + " ".join(f"<code>{escape(u)}</code>" for u in p.uncovered_facts)
        + "</p>"
        if p.uncovered_facts
        else '<p class="small">Every key fact is covered.</p>'
    )
    source = f' <span class="small">{escape(p.source)}</span>' if p.source else ""
    return (
        f'<section class="page" id="page-{number}" data-page="{escape(p.page)}" '
        f'data-pass="{str(p.passed).lower()}">'
        f'<div class="page-head"><h2>{escape(p.page)}</h2>{source}'
        f'<span class="tag {"ok" if p.passed else "bad"}">{"PASS" if p.passed else "FAIL"}</span>'
        f'<span class="small">faithfulness {m.faithfulness:.2f} · hallucination {m.hallucination_rate:.2f}'
        f" · recall {m.key_fact_recall:.2f} · redundancy {m.redundancy_rate:.2f}</span></div>"
        f"{uncovered}"
        "<table><thead><tr><th>#</th><th>claim</th><th>fact_refs</th><th>violations</th></tr></thead>"
        f"<tbody>{rows}</tbody></table></section>"
    )


def render(result: EvaluationResult, title: str = "genlint eval") -> str:
    verdict = "pass" if result.passed else "fail"
    c = result.counts
    legend = (
        '<div class="legend"><span class="tag ok">ok</span>'
        '<span class="tag bad">missing_ref / invalid_ref</span>'
        '<span class="tag warn">misaligned / over_inference</span>'
        '<span class="tag dull">redundant</span></div>'
    )
    pages = "".join(_page(p, i) for i, p in enumerate(result.pages))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta http-equiv="Content-Security-Policy" content="default-src \'none\'; '
        "style-src 'unsafe-inline'; img-src data:\">"
        '<meta name="viewport" content="width=device-width,initial-scale=1">'
        f"<title>{escape(title)} — {verdict.upper()}</title><style>{_CSS}</style></head>"
        f'<body data-pass="{str(result.passed).lower()}">'
        f'<header><h1>{escape(title)}</h1><span class="verdict {verdict}" id="verdict">{verdict.upper()}</span>'
        f'<span class="small">{c.claims} claims · {len(result.pages)} page(s) · '
        f"{c.covered}/{c.key_facts} key facts covered · {len(result.violations)} violation(s)</span>"
        f"{legend}</header>"
        f'<div class="gauges">{_gauges(result.metrics, result.thresholds)}</div>'
        '<input type="checkbox" id="only-problems" style="margin-left:28px">'
        '<label for="only-problems">show only claims with violations</label>'
        f"<main>{pages}</main></body></html>\n"
    )
