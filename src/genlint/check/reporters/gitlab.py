"""GitLab Code Quality (``--format gitlab``): the JSON array a pipeline job saves as its
``artifacts:reports:codequality`` report, which the merge request shows beside the changed
lines (docs/ci.md "GitLab CI"). One issue per finding: ``description``, ``check_name`` (the
rule id), ``fingerprint``, ``severity`` and ``location`` (path and first line).

The fingerprint is SARIF's (:func:`.sarif.finding_fingerprint`): a keyed hash of rule, masked
text, file and occurrence, without the line, so an edit above a finding keeps its issue, and
no personal value. A file that could not be read is an issue of its own (``genlint/unreadable``,
severity ``critical``): the widget would otherwise show a file that failed as clean.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._io import to_json
from ._where import where

if TYPE_CHECKING:
    from ..report import CheckReport

__all__ = ["as_list", "render"]

_SEVERITY = {"error": "major", "warning": "minor", "info": "info"}


def as_list(report: CheckReport) -> list[dict[str, Any]]:
    from ..redact import mask_report
    from ..report import display_path
    from ._fingerprint import fingerprint
    from .sarif import finding_fingerprint

    report = mask_report(report)
    issues: list[dict[str, Any]] = []
    for file in report.files:
        path = display_path(file.path)
        if file.error is not None:
            issues.append(
                {
                    "description": file.error,
                    "check_name": "genlint/unreadable",
                    "fingerprint": fingerprint("gitlab-unreadable", path),
                    "severity": "critical",
                    "location": {"path": path, "lines": {"begin": 1}},
                }
            )
            continue
        occurrence: dict[tuple[str, str], int] = {}
        for f in file.findings:
            nth = occurrence[(f.rule, f.text)] = occurrence.get((f.rule, f.text), 0) + 1
            message = f.message
            if f.location or f.page is not None:  # a line of a .docx says nothing to a reviewer
                message = f"{message} ({where(f)})"
            issues.append(
                {
                    "description": message,
                    "check_name": f.rule,
                    "fingerprint": finding_fingerprint(f, path, nth).removeprefix("hmac-sha256:"),
                    "severity": _SEVERITY[str(f.severity)],
                    "location": {"path": path, "lines": {"begin": max(1, f.line)}},
                }
            )
    return issues


def render(report: CheckReport, *, color: bool = False) -> str:
    return to_json(as_list(report))
