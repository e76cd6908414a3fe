"""Human report: ``file:location: rule message``, a window of the line, and carets under the span.

Everything fits the terminal: widths are display cells (``_cells``: a CJK character or an emoji
takes two), the window around the span is cut with an ellipsis where the line goes on, the
carets sit exactly under the span, and a header wider than the terminal puts the location on a
line of its own. A DOCX or PDF paragraph is one "line" of the extracted text, so without the
window a long Chinese paragraph wrapped over many rows and the carets landed under other text.

The fourth and later findings of one rule with the same text in a file fold into one line
(``… and 212 more placeholder/mou-name '李某'``): an anonymised judgment's hundreds of 李某
would bury the ID number beside them. The location is what a person looks for (``_where``):
``line:col`` in text files, ``table 2 row 3 cell 1`` in a DOCX, ``page 4 line 7`` in a PDF.

Colour (plain ANSI escapes, so rich is not imported for it) only when asked for; the CLI asks
when standard output is a terminal.
"""

from __future__ import annotations

import shutil
from typing import TYPE_CHECKING

from . import _lang
from ._cells import ELLIPSIS, cells, fit, fit_end, wrap
from ._safe import printable
from ._span import shown_length, shown_message
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
_INDENT = "    "
_FIX = {"zh": "修改建议：", "en": "fix: "}
# below this a terminal is not worth fitting; lines are cut to it instead
_NARROWEST = 20
# cells of a document line shown when no terminal bounds them (a DOCX paragraph is one line)
_UNBOUNDED_WINDOW = 116


def terminal_width() -> int:
    """Columns of the terminal (``COLUMNS`` first, as the shell sets it; 80 when not a tty)."""
    return shutil.get_terminal_size((80, 24)).columns


def window(line: str, column: int, length: int, width: int) -> tuple[str, str]:
    """The part of ``line`` shown around the span ``[column, column + length)`` within ``width``
    cells, and the caret line under it. Where the line is cut an ellipsis stands; when the span
    itself is too wide, its start is shown and the carets stop at the cut."""
    before, span, after = line[:column], line[column : column + length], line[column + length :]
    # only a terminal's width of each side can be shown: measure no more than that (a paragraph
    # can be thousands of characters); a clipped side counts as wider than the terminal
    limit = 2 * width + 8
    wider = width + 1
    clipped_left, clipped_right = len(before) > limit, len(after) > limit
    before, after = before[-limit:], after[:limit]
    before_cells = cells(before) + (wider if clipped_left else 0)
    after_cells = cells(after) + (wider if clipped_right else 0)
    real_span_cells = cells(span[:limit]) + (wider if len(span) > limit else 0)
    span_cells = max(1, real_span_cells)
    if before_cells + real_span_cells + after_cells <= width and before_cells + span_cells <= width:
        return before + span + after, " " * before_cells + "^" * span_cells
    left = ELLIPSIS if before else ""
    if span_cells > width - 2:  # no room for context: the span's start, cut
        shown_span = fit(span, width - cells(left) - 1)
        return left + shown_span + ELLIPSIS, " " * cells(left) + "^" * max(1, cells(shown_span))
    room = width - span_cells
    want_left = max(1, room // 3) if before else 0
    want_right = room - want_left
    if after_cells < want_right:
        want_left = room - after_cells
    if before_cells < want_left:
        want_left = before_cells
        want_right = room - want_left
    left = before if before_cells <= want_left else ELLIPSIS + fit_end(before, want_left - 1)
    right = after if after_cells <= want_right else fit(after, want_right - 1) + ELLIPSIS
    return left + span + right, " " * cells(left) + "^" * span_cells


def _excerpt(finding: Finding, width: int) -> tuple[str, str]:
    line = finding.source_line
    if line is None:
        return "", ""
    shown = printable(line.replace("\t", " ").rstrip("\r"))
    column = min(finding.source_column, len(shown))
    return window(shown, column, shown_length(finding), width)


def render(
    report: CheckReport, *, color: bool = False, width: int | None = None, lang: str | None = None
) -> str:
    """The report as text lines of at most ``width`` cells. Without a width (the report goes to
    a file or a pipe) no header is wrapped, so ``grep path:line`` finds one line, and a line of
    the document is shown in a window of :data:`_UNBOUNDED_WINDOW` cells. ``lang`` (zh, en):
    messages in that language and the one-line fix under each finding; None keeps the rules'
    own messages, so scripts that read the report see the same text on every document."""
    from ..redact import mask_report
    from ..report import display_path

    report = mask_report(report)
    wrapping = width is not None
    width = max(width, _NARROWEST) if width is not None else _UNBOUNDED_WINDOW + len(_INDENT)

    def paint(style: str, text: str) -> str:
        return f"{style}{text}{_RESET}" if color else text

    out: list[str] = []

    def emit(text: str, style: str = "", indent: str = "  ") -> None:
        parts = wrap(text, width, indent) if wrapping else [text]
        out.extend(paint(style, part) if style else part for part in parts)

    for file in report.files:
        path = printable(display_path(file.path))
        if file.error is not None:
            emit(f"{path}: error: {printable(file.error)}", _STYLE["error"])
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
            message = printable(_lang.message(f, lang) if lang else shown_message(f))
            _header(out, f"{path}:{place(f)}", f, message, width if wrapping else None, paint)
            shown, caret = _excerpt(f, width - len(_INDENT))
            if shown:
                sev = str(f.severity)
                out.append(f"{_INDENT}{shown}")
                out.append(f"{_INDENT}{paint(_STYLE.get(sev, ''), caret)}")
            for r in f.related:
                where = f"page {r['page']} line {r['line']}" if "page" in r else f"{r['line']}:{r['column']}"
                emit(f"{_INDENT}related: {where} '{printable(str(r['text']))}'", _DIM, _INDENT)
            if lang:
                emit(f"{_INDENT}{_FIX[lang]}{printable(_lang.fix(f, lang))}", _DIM, _INDENT)
        for (rule, text), index in fold_at.items():
            more = seen[(rule, text)] - _SHOWN_REPEATS
            fold = (
                f"{path}: … 另有 {more} 处 {rule} '{printable(text)}'（--statistics）"
                if lang == "zh"
                else f"{path}: … and {more} more {rule} '{printable(text)}' (--statistics)"
            )
            # one slot was kept for the fold: cut to the width rather than shift the lines
            if wrapping and cells(fold) > width:
                fold = fit(fold, width - 1) + ELLIPSIS
            out[index] = paint(_DIM, fold)
    n = len(report.findings)
    files = len(report.files)
    with_findings = sum(1 for f in report.files if f.findings)
    summary = (
        f"{n} finding{'s' if n != 1 else ''} in {with_findings} of {files} "
        f"file{'s' if files != 1 else ''}"
    )
    if report.errors:
        summary += f"; {len(report.errors)} file{'s' if len(report.errors) != 1 else ''} unreadable"
    if report.suppressed:
        # a silenced finding is counted, never dropped unseen (docs/configuration.md)
        summary += f"; {report.suppressed} suppressed (--format json lists them)"
    if report.configuration is not None:
        summary += f"; configuration {printable(display_path(report.configuration))}"
    emit(summary, _BOLD if n or report.errors else "")
    return "\n".join(out) + "\n"


def _header(
    out: list[str], where: str, f: Finding, message: str, width: int | None, paint: _Paint
) -> None:
    """``where: severity rule message`` on one line when it fits, else the location on its own
    line and the rest wrapped under it."""
    sev = str(f.severity)
    line = f"{where}: {sev} {f.rule} {message}"
    if width is None or cells(line) <= width:
        out.append(
            f"{paint(_BOLD, where)}: {paint(_STYLE.get(sev, ''), sev)} "
            f"{paint(_DIM, f.rule)} {message}"
        )
        return
    out.extend(paint(_BOLD, part) for part in wrap(where + ":", width, "  "))
    rest = wrap(f"  {sev} {f.rule} {message}", width, "  ")
    first = rest[0].replace(sev, paint(_STYLE.get(sev, ""), sev), 1)
    out.append(first)
    out.extend(rest[1:])


if TYPE_CHECKING:
    from collections.abc import Callable

    _Paint = Callable[[str, str], str]
