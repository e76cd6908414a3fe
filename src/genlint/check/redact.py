"""Reports never copy personal data (docs/commands/check.md, "Reports never
copy personal data").

A ``sensitive`` finding's value is shown in every report format in the ``keep-ends`` style of
``genlint mask`` (``138****5678``): the same length, so its span, columns and carets stay
right. This module is the one place that does it; every reporter, the Parquet writer and
``generate`` go through it, and only ``--show-values`` (``[check] show_values = true``)
skips it.

Masking the finding's own text is not enough: the text report prints the line around a
finding, and that line may hold another finding's value (two phone numbers on one line, or a
placeholder next to an ID number). :func:`mask_report` masks every personal value of a file in
every line shown for that file, and in JSON pointers (a key can be the value).
"""

from __future__ import annotations

import copy
import functools
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..findings import Finding

if TYPE_CHECKING:
    from .report import CheckReport, FileResult

__all__ = [
    "MaskedFinding",
    "is_personal",
    "mask_finding",
    "mask_findings",
    "mask_report",
    "mask_text_spans",
    "masked_value",
]

PERSONAL_PACK = "sensitive"


@dataclass(slots=True)
class MaskedFinding(Finding):
    """A ``sensitive`` finding as reports show it: ``text`` is the masked value. Its own type so
    that masking twice is a no-op (``keep-ends`` of a masked value would star more)."""


def is_personal(finding: Finding) -> bool:
    """Whether the finding's text is personal data (a ``sensitive`` rule's value)."""
    return finding.rule.startswith(PERSONAL_PACK + "/")


def masked_value(rule: str, value: str) -> str:
    """``value`` as a report shows it: ``genlint mask``'s keep-ends style, same length."""
    from ..mask.styles import keep_ends

    return keep_ends(rule, value)


def _swap(text: str | None, value: str, shown: str) -> str | None:
    if text is None or not value or value not in text:
        return text
    return text.replace(value, shown)


# cheap test before the sensitive rules run on a text: every personal value they find holds
# four digits in a row or an at sign
_MAYBE_PERSONAL = re.compile(r"[0-9\uff10-\uff19]{4}|[@\uff20]")


@functools.lru_cache(maxsize=4096)
def mask_personal_in(text: str) -> str:
    """``text`` with every personal value the ``sensitive`` rules find in it masked as a
    ``sensitive`` finding shows it: for another rule's finding whose text spans one
    (``{{联系电话13912345678}}``), so no report prints a value raw whatever rule found the text
    around it (docs/commands/check.md "Reports never copy personal data")."""
    if not _MAYBE_PERSONAL.search(text):
        return text
    found = _sensitive_checker().check(text)
    if not found:
        return text
    return mask_text_spans(
        text, [(f.start, f.text, masked_value(f.rule, f.text)) for f in found if f.text]
    )


@functools.cache
def _sensitive_checker() -> Any:
    from .engine import Checker

    return Checker(PERSONAL_PACK)


def _mask_inside(f: Finding) -> Finding:
    """Another rule's finding with the personal values in its text, message, fix and shown
    line masked (the finding itself when there are none)."""
    text = mask_personal_in(f.text) if f.text else f.text
    message = mask_personal_in(f.message) if f.message else f.message
    fix = mask_personal_in(f.fix) if f.fix else f.fix
    line = mask_personal_in(f.source_line) if f.source_line else f.source_line
    # a related place quotes the document too (an ID beside the age it contradicts)
    related = tuple(
        {**r, "text": mask_personal_in(str(r["text"]))} if r.get("text") else r for r in f.related
    )
    same_related = all(a.get("text") == b.get("text") for a, b in zip(related, f.related, strict=True))
    if (
        text is f.text
        and message is f.message
        and fix is f.fix
        and line is f.source_line
        and same_related
    ):
        return f
    g = copy.copy(f)
    g.text, g.message, g.fix, g.source_line = text, message, fix, line
    g.related = related
    return g


def mask_finding(finding: Finding) -> Finding:
    """The finding with its value masked in ``text``, ``message`` and ``fix`` (a new object;
    the finding itself is unchanged); another rule's finding with the personal values inside
    it masked; already masked: as it is."""
    if not is_personal(finding):
        return _mask_inside(finding)
    if isinstance(finding, MaskedFinding):
        return finding
    return _masked(finding, masked_value(finding.rule, finding.text), None)


def _masked(f: Finding, shown: str, line: str | None) -> MaskedFinding:
    """``f`` showing ``shown`` for its value; ``line``: its shown line with every value of the
    line masked (None: its own value masked in its line)."""
    value = f.text
    if line is None and f.source_line is not None:
        line = mask_text_spans(f.source_line, [(f.source_column, value, shown)])
    # positional: a dense file has tens of thousands of these (dataclasses.replace is 4x slower)
    return MaskedFinding(
        f.rule,
        _swap(f.message, value, shown) or "",
        shown,
        f.start,
        f.end,
        f.line,
        f.column,
        f.severity,
        f.page,
        f.pointer,
        _swap(f.fix, value, shown),
        f.location,
        f.extra,
        line,
        f.source_column,
        f.path,
    )


def mask_findings(findings: Iterable[Finding], *, show_values: bool = False) -> list[Finding]:
    """Each finding as reports show it (all of them unchanged with ``show_values``)."""
    if show_values:
        return list(findings)
    return [mask_finding(f) for f in findings]


def mask_text_spans(text: str, spans: Sequence[tuple[int, str, str]]) -> str:
    """``text`` with each ``(position, value, shown)`` replaced where ``text`` holds ``value``
    at ``position``; a span cut by either end of ``text`` is masked in the part inside. A span
    whose characters do not match is left alone (it is not that value)."""
    chars: list[str] | None = None
    n = len(text)
    for pos, value, shown in spans:
        lo, hi = max(pos, 0), min(pos + len(value), n)
        if lo >= hi or text[lo:hi] != value[lo - pos : hi - pos]:
            continue
        if chars is None:
            chars = list(text)
        chars[lo:hi] = shown[lo - pos : hi - pos]
    return text if chars is None else "".join(chars)


def _place(f: Finding) -> tuple[Any, ...]:
    """Which run of extracted text a finding's offsets count in (a JSON string, a DOCX
    paragraph, a PDF page line): findings with the same place can be shown in one line."""
    loc = f.location or {}
    return (
        f.pointer,
        f.page,
        f.line,
        loc.get("part"),
        loc.get("paragraph"),
        loc.get("table"),
        loc.get("row"),
        loc.get("cell"),
    )


def mask_file(file: FileResult) -> FileResult:
    """The file's findings as reports show them: every personal value masked in every
    finding's text, message, shown line and JSON pointer (silenced findings too)."""
    if file.suppressed:
        masked_silenced = mask_file(replace(file, findings=file.suppressed, suppressed=[])).findings
        if any(new is not old for new, old in zip(masked_silenced, file.suppressed, strict=True)):
            file = replace(file, suppressed=masked_silenced)
    personal = [f for f in file.findings if is_personal(f) and not isinstance(f, MaskedFinding)]
    if not personal:
        inside = [f if is_personal(f) else _mask_inside(f) for f in file.findings]
        if all(new is old for new, old in zip(inside, file.findings, strict=True)):
            return file
        return replace(file, findings=inside)
    by_place: dict[tuple[Any, ...], list[tuple[int, str, str]]] = {}
    shown_of: dict[tuple[str, str], str] = {}
    # a pointer token (a JSON key) that holds a value, and the token masked
    tokens: dict[str, str] = {}
    for f in personal:
        key = (f.rule, f.text)
        shown = shown_of.get(key)
        if shown is None:
            shown = shown_of[key] = masked_value(f.rule, f.text)
        # offsets into the segment text; each line below converts them to its own positions
        by_place.setdefault(_place(f), []).append((f.start, f.text, shown))
        if f.pointer:
            last = f.pointer.rpartition("/")[2]
            if f.text in last and last not in tokens:
                tokens[last] = last.replace(f.text, shown)
    lines: dict[tuple[int, int, tuple[Any, ...]], str] = {}
    pointers: dict[str, str] = {}
    out: list[Finding] = []
    for f in file.findings:
        line = f.source_line
        if line is not None:
            place = _place(f)
            spans = by_place.get(place)
            if spans:
                base = f.start - f.source_column  # where the shown line starts in the segment
                window = (id(line), base, place)
                masked = lines.get(window)
                if masked is None:
                    masked = lines[window] = mask_text_spans(
                        line, [(start - base, value, shown) for start, value, shown in spans]
                    )
                line = masked
        if is_personal(f) and not isinstance(f, MaskedFinding):
            g: Finding = _masked(f, shown_of[(f.rule, f.text)], line)
        elif line is not f.source_line:
            g = copy.copy(f)
            g.source_line = line
        else:
            g = f
        if not is_personal(g):
            g = _mask_inside(g)
        if g.pointer and tokens:
            pointer = pointers.get(g.pointer)
            if pointer is None:
                pointer = pointers[g.pointer] = "/".join(
                    tokens.get(t, t) for t in g.pointer.split("/")
                )
            if pointer != g.pointer:
                if g is f:
                    g = copy.copy(f)
                g.pointer = pointer
        out.append(g)
    return replace(file, findings=out)


def mask_report(report: CheckReport, *, show_values: bool | None = None) -> CheckReport:
    """The report as every format shows it: personal values masked unless ``show_values``
    (default: the report's own ``show_values``). Every reporter calls it first, so a report
    rendered anywhere (the CLI, ``genlint serve``, a user's script) is masked by default."""
    if report.show_values if show_values is None else show_values:
        return report
    files = [mask_file(file) for file in report.files]
    if all(new is old for new, old in zip(files, report.files, strict=True)):
        return report
    return replace(report, files=files)
