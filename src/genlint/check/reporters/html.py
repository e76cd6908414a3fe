"""``genlint check --format html``: one self-contained page for a whole run (inline CSS and
script, nothing fetched), for a person reviewing the findings in a browser.

The page: a summary by rule and by file, then each file (a collapsible section) with its findings
in document order, each with its human location (``_where``), severity, rule id, message and
one-line fix in the reader's language (``_lang``), and the line around the span with the span
highlighted; a finding on a scanned page also shows a crop of the page with the OCR box drawn
(``annotate.crops``, inline PNG, at most :data:`_MAX_CROPS` a run). Filters by rule and
severity hide rows (the state lives in the URL's fragment,
``#rule=placeholder/mou-entity&severity=error``, so a filtered view can be shared). Personal
values are masked unless the report shows them (``redact.mask_report``).

A run with tens of thousands of findings stays usable: rows are plain HTML (every finding is in
the page, found by the browser's search), drawn lazily by the browser
(``content-visibility: auto``), and a file with many findings starts collapsed.
"""

from __future__ import annotations

import base64
from collections import Counter
from html import escape
from typing import TYPE_CHECKING, Any

from . import _lang
from ._safe import printable
from ._span import shown_length
from ._where import where

if TYPE_CHECKING:
    from collections.abc import Callable

    from ...findings import Finding
    from ..report import CheckReport

# characters of context shown on each side of a span
_CONTEXT = 60
# a file with more findings than this starts collapsed
_OPEN_UP_TO = 500
# pictures of scanned pages per run (each a PNG crop inline in the page)
_MAX_CROPS = 300

_STYLE = """
:root{--err:#c92a2a;--warn:#e67700;--info:#1971c2}
*{box-sizing:border-box}
body{font:14px/1.55 system-ui,"Noto Sans CJK SC","Microsoft YaHei",sans-serif;margin:0;
 color:#1d1d1f;background:#f6f7f9}
header{padding:14px 24px;background:#243b53;color:#fff}
header h1{font-size:18px;margin:0}
main{padding:16px 24px;max-width:1400px}
table.summary{border-collapse:collapse;margin:0 24px 12px 0;background:#fff;display:inline-table;
 vertical-align:top}
table.summary td,table.summary th{border:1px solid #dde;padding:3px 10px;text-align:left}
.filters{position:sticky;top:0;background:#f6f7f9;padding:8px 0;border-bottom:1px solid #dde;
 z-index:1}
.filters label{margin-right:12px;white-space:nowrap}
details{background:#fff;border:1px solid #dde;margin:12px 0;border-radius:4px}
summary{padding:8px 12px;font-weight:600;cursor:pointer}
.finding{border-top:1px solid #eef;padding:6px 12px;content-visibility:auto;
 contain-intrinsic-size:auto 72px}
.finding[hidden]{display:none}
.where{font-weight:600}
.sev{font-weight:600;text-transform:uppercase;font-size:11px;padding:0 4px;border-radius:3px;
 color:#fff}
.sev.error{background:var(--err)}.sev.warning{background:var(--warn)}.sev.info{background:var(--info)}
.rule{color:#555;font-family:ui-monospace,monospace;font-size:12px}
.context{font-family:ui-monospace,"Noto Sans Mono CJK SC",monospace;background:#f8f9fa;
 padding:2px 6px;margin-top:3px;white-space:pre-wrap;word-break:break-all}
mark{background:#ffe066;border-bottom:2px solid var(--err)}
.fix{color:#2b8a3e}
.count{color:#666;font-weight:400}
.file-error{color:var(--err);padding:6px 12px}
.picture img{max-width:100%;max-height:160px;border:1px solid #dde;margin-top:4px}
"""

# filters: checkboxes -> hidden rows; the state is kept in (and read from) location.hash
_SCRIPT = """
(function(){
var rows=document.querySelectorAll('.finding');
var boxes=document.querySelectorAll('.filters input');
function apply(){
 var off={rule:{},severity:{}};
 boxes.forEach(function(b){if(!b.checked)off[b.dataset.kind][b.value]=1;});
 var shown=0;
 rows.forEach(function(r){
  var hide=off.rule[r.dataset.rule]||off.severity[r.dataset.severity];
  r.hidden=!!hide; if(!hide)shown++;});
 document.querySelectorAll('details').forEach(function(d){
  var n=d.querySelectorAll('.finding:not([hidden])').length;
  d.querySelector('.shown').textContent=n;});
 document.getElementById('shown').textContent=shown;
 var only=[];['rule','severity'].forEach(function(k){
  var on=[];boxes.forEach(function(b){if(b.dataset.kind===k&&b.checked)on.push(b.value);});
  var all=[];boxes.forEach(function(b){if(b.dataset.kind===k)all.push(b.value);});
  if(on.length<all.length)only.push(k+'='+on.map(encodeURIComponent).join(','));});
 history.replaceState(null,'',only.length?'#'+only.join('&'):location.pathname);
}
function fromHash(){
 var want={};location.hash.replace(/^#/,'').split('&').forEach(function(p){
  var kv=p.split('=');if(kv.length===2)want[kv[0]]=kv[1].split(',').map(decodeURIComponent);});
 boxes.forEach(function(b){var w=want[b.dataset.kind];b.checked=!w||w.indexOf(b.value)>=0;});
}
boxes.forEach(function(b){b.addEventListener('change',apply);});
fromHash();apply();
document.body.dataset.ready='1';
})();
"""


def render(report: CheckReport, *, color: bool = False, lang: str | None = None) -> str:
    """The page (``color`` is ignored: the page has its own)."""
    from ..redact import mask_report
    from ..report import display_path

    del color
    report = mask_report(report)
    budget = [_MAX_CROPS]
    language = _lang.for_findings(report.findings, lang)
    zh = language == "zh"
    by_rule: Counter[str] = Counter()
    severity_of: dict[str, str] = {}
    for f in report.findings:
        by_rule[f.rule] += 1
        severity_of[f.rule] = str(f.severity)
    n = len(report.findings)
    title = "genlint 检查报告" if zh else "genlint check report"
    out = [
        f'<!DOCTYPE html>\n<html lang="{language}"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{title}</title><style>{_STYLE}</style></head><body>"
        f"<header><h1>{title}</h1><div>"
        + (
            f'{len(report.files)} 个文件，{n} 处问题（显示 <span id="shown">{n}</span> 处）'
            if zh
            else f"{n} finding{'s' if n != 1 else ''} in {len(report.files)} "
            f"file{'s' if len(report.files) != 1 else ''} "
            f'(<span id="shown">{n}</span> shown)'
        )
        + "</div></header><main>"
    ]
    out.append(_summary(report, by_rule, severity_of, zh, display_path))
    out.append(_filters(by_rule, severity_of, zh))
    for index, file in enumerate(report.files):
        path = escape(printable(display_path(file.path)))
        count = len(file.findings)
        opened = " open" if count <= _OPEN_UP_TO else ""
        out.append(
            f'<details id="file-{index}" data-path="{path}"{opened}><summary>{path} '
            f'<span class="count">(<span class="shown">{count}</span>/{count})</span></summary>'
        )
        if file.error is not None:
            out.append(f'<div class="file-error">{escape(printable(file.error))}</div>')
        file_lang = _lang.for_findings(file.findings, lang)
        pictures = _Pictures(file.path, budget, file.findings)
        try:
            out.extend(_finding(f, file_lang, pictures.of(f)) for f in file.findings)
        finally:
            pictures.close()
        out.append("</details>")
    out.append(f"</main><script>{_SCRIPT}</script></body></html>\n")
    return "".join(out)


def _summary(
    report: CheckReport,
    by_rule: Counter[str],
    severity_of: dict[str, str],
    zh: bool,
    display_path: Callable[[str], str],
) -> str:
    heads = ("规则", "级别", "数量") if zh else ("Rule", "Severity", "Findings")
    rows = "".join(
        f"<tr><td>{escape(rule)}</td><td>{_lang.severity(severity_of[rule], 'zh' if zh else 'en')}"
        f"</td><td>{count}</td></tr>"
        for rule, count in sorted(by_rule.items(), key=lambda item: (-item[1], item[0]))
    )
    files = "".join(
        f'<tr><td><a href="#file-{i}">{escape(printable(display_path(f.path)))}</a></td>'
        f"<td>{len(f.findings) if f.error is None else ('无法读取' if zh else 'unreadable')}</td></tr>"
        for i, f in enumerate(report.files)
    )
    file_heads = ("文件", "数量") if zh else ("File", "Findings")
    return (
        f'<table class="summary" id="by-rule"><tr><th>{heads[0]}</th><th>{heads[1]}</th>'
        f"<th>{heads[2]}</th></tr>{rows}</table>"
        f'<table class="summary" id="by-file"><tr><th>{file_heads[0]}</th>'
        f"<th>{file_heads[1]}</th></tr>{files}</table>"
    )


def _filters(by_rule: Counter[str], severity_of: dict[str, str], zh: bool) -> str:
    severities = sorted(set(severity_of.values()), key=["error", "warning", "info"].index)
    lang = "zh" if zh else "en"
    boxes = [f"<strong>{'级别' if zh else 'Severity'}:</strong> "]
    boxes += [
        f'<label><input type="checkbox" data-kind="severity" value="{s}" checked> '
        f"{_lang.severity(s, lang)}</label>"
        for s in severities
    ]
    boxes.append(f"<br><strong>{'规则' if zh else 'Rules'}:</strong> ")
    boxes += [
        f'<label><input type="checkbox" data-kind="rule" value="{escape(rule)}" checked> '
        f"{escape(rule)} ({by_rule[rule]})</label>"
        for rule in sorted(by_rule)
    ]
    return f'<div class="filters">{"".join(boxes)}</div>'


class _Pictures:
    """The crop of a scanned page around each OCR finding of one file (``annotate.crops``), at
    most :data:`_MAX_CROPS` per run; a page that cannot be drawn says so in the row."""

    def __init__(self, path: str, budget: list[int], findings: list[Finding]) -> None:
        from ..annotate.crops import span_box
        from ..redact import MaskedFinding

        self.path = path
        self.budget = budget  # crops left for the run, shared by its files
        self.pages: Any = None
        # page -> boxes of the file's masked personal values: a crop shows none of them, as
        # the row's text does not (a crop's margin may take in a value on another line)
        self.cover: dict[int, list[list[float]]] = {}
        for f in findings:
            box = span_box(f) if isinstance(f, MaskedFinding) else None
            if box is not None:
                self.cover.setdefault(f.page or 1, []).append(box)

    def of(self, f: Finding) -> str:
        from ..annotate.crops import Pages, crop_png, span_box

        bbox = span_box(f)
        if bbox is None or self.budget[0] <= 0:
            return ""

        try:
            if self.pages is None:
                self.pages = Pages(self.path)
            png = crop_png(self.pages, f.page or 1, bbox, self.cover.get(f.page or 1, ()))
        except Exception as exc:  # a moved or damaged file: the row still shows the finding
            return f'<div class="picture">(no picture: {escape(type(exc).__name__)})</div>'
        self.budget[0] -= 1
        encoded = base64.b64encode(png).decode()
        return (
            f'<div class="picture"><img alt="{escape(printable(where(f)))}" '
            f'src="data:image/png;base64,{encoded}"></div>'
        )

    def close(self) -> None:
        if self.pages is not None:
            self.pages.close()


def _finding(f: Finding, lang: str, picture: str = "") -> str:
    sev = str(f.severity)
    label = "修改建议：" if lang == "zh" else "Fix: "
    return (
        f'<div class="finding" data-rule="{escape(f.rule)}" data-severity="{sev}">'
        f'<span class="where">{escape(printable(where(f)))}</span> '
        f'<span class="sev {sev}">{_lang.severity(sev, lang)}</span> '
        f'<span class="rule">{escape(f.rule)}</span> '
        f'<span class="message">{escape(printable(_lang.message(f, lang)))}</span>'
        f"{_context(f)}{picture}"
        f'<div class="fix">{label}{escape(printable(_lang.fix(f, lang)))}</div></div>'
    )


def _context(f: Finding) -> str:
    line = f.source_line
    if line is None:
        return ""
    line = printable(line)
    col = min(f.source_column, len(line))
    length = shown_length(f)
    start, end = max(0, col - _CONTEXT), min(len(line), col + length + _CONTEXT)
    before = ("…" if start else "") + line[start:col]
    after = line[col + length : end] + ("…" if end < len(line) else "")
    span = line[col : col + length]
    return f'<div class="context">{escape(before)}<mark>{escape(span)}</mark>{escape(after)}</div>'
