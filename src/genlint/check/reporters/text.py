"""Human report: ``file:location: rule message``, the line, and a caret under the span.

The fourth and later findings of one rule with the same text in a file fold into one line
(``… and 212 more placeholder/mou-name '李某'``): an anonymised judgment's hundreds of 李某
would bury the ID number beside them. The location is what a person looks for (``_where``): ``line:col`` in text files,
``table 2 row 3 cell 1`` in a DOCX, ``page 4 line 7`` in a PDF.

Colour (plain ANSI escapes, so rich is not imported for it) only when asked for; the CLI asks
when standard output is a terminal.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING

from ._safe import printable
from ._where import where as place

if TYPE_CHECKING:
    from ...findings import Finding
    from ..report import CheckReport

_RESET = "\x1b[0m"
_STYLE = {"error": "\x1b[31m", "warning": "\x1b[33m", "info": "\x1b[36m"}
_BOLD = "\x1b[1m"
_DIM = "\x1b[2m"
# how many findings of one rule with one text a file shows before folding the rest (JSON, SARIF
# and JUnit keep every finding)
_SHOWN_REPEATS = 3


def _width(text: str) -> int:
    """Terminal cells: CJK characters take two, so the caret lines up under them."""
    return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _excerpt(finding: Finding) -> tuple[str, str]:
    line = finding.source_line
    col = finding.source_column
    if line is None:
        return "", ""
    shown = printable(line.replace("\t", " ").rstrip("\r"))
    before = shown[:col]
    span = shown[col : col + (finding.end - finding.start)]
    return shown, " " * _width(before) + "^" * max(1, _width(span))


def render(report: CheckReport, *, color: bool = False) -> str:
    from ..redact import mask_report
    from ..report import display_path

    report = mask_report(report)

    def paint(style: str, text: str) -> str:
        return f"{style}{text}{_RESET}" if color else text

    out: list[str] = []
    for file in report.files:
        path = printable(display_path(file.path))
        if file.error is not None:
            error = printable(file.error)
            out.append(f"{paint(_BOLD, path)}: {paint(_STYLE['error'], 'error')}: {error}")
            continue
        # the 4th and later repeats of one rule and text fold into one line after the 3rd
        seen: dict[tuple[str, str], int] = {}
        fold_at: dict[tuple[str, str], int] = {}
        for f in file.findings:
            key = (f.rule, f.text)
            seen[key] = seen.get(key, 0) + 1
            if seen[key] > _SHOWN_REPEATS:
                if key not in fold_at:
                    fold_at[key] = len(out)
                    out.append("")
                continue
            where = f"{path}:{place(f)}"
            sev = str(f.severity)
            out.append(
                f"{paint(_BOLD, where)}: {paint(_STYLE.get(sev, ''), sev)} "
                f"{paint(_DIM, f.rule)} {printable(f.message)}"
            )
            shown, caret = _excerpt(f)
            if shown:
                out.append(f"    {shown}")
                out.append(f"    {paint(_STYLE.get(sev, ''), caret)}")
        for (rule, text), index in fold_at.items():
            more = seen[(rule, text)] - _SHOWN_REPEATS
            out[index] = paint(
                _DIM, f"{path}: … and {more} more {rule} '{printable(text)}' (--statistics)"
            )
    n = len(report.findings)
    files = len(report.files)
    with_findings = sum(1 for f in report.files if f.findings)
    summary = (
        f"{n} finding{'s' if n != 1 else ''} in {with_findings} of {files} "
        f"file{'s' if files != 1 else ''}"
    )
    if report.errors:
        summary += f"; {len(report.errors)} file{'s' if len(report.errors) != 1 else ''} unreadable"
    out.append(paint(_BOLD, summary) if n or report.errors else summary)
    return "\n".join(out) + "\n"
