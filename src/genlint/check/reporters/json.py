"""The docs/commands/check.md JSON document: files with their findings, and a summary."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._io import to_json

if TYPE_CHECKING:
    from ..report import CheckReport


def as_dict(report: CheckReport) -> dict[str, Any]:
    from ..redact import mask_report
    from ..report import display_path

    report = mask_report(report)

    files: list[dict[str, Any]] = []
    for file in report.files:
        entry: dict[str, Any] = {
            "path": display_path(file.path),
            "findings": [f.to_dict() for f in file.findings],
        }
        if file.error is not None:
            entry["error"] = file.error
        if file.encoding is not None:
            entry["encoding"] = file.encoding
        if file.warnings:
            entry["warnings"] = list(file.warnings)
        if file.images_not_read:
            entry["images_not_read"] = list(file.images_not_read)
        if file.suppressed:
            entry["suppressed"] = [
                {**f.to_dict(), "suppressed_by": why}
                for f, why in zip(file.suppressed, file.suppressed_by, strict=True)
            ]
        files.append(entry)
    summary: dict[str, Any] = {
        "files": len(report.files),
        "findings": sum(len(f.findings) for f in report.files),
        "by_rule": report.by_rule(),
        "suppressed": report.suppressed,
    }
    if report.configuration is not None:
        summary["configuration"] = display_path(report.configuration)
    out: dict[str, Any] = {"version": 1, "files": files, "summary": summary}
    if report.skipped:
        out["skipped"] = list(report.skipped)
    return out


def render(report: CheckReport, *, color: bool = False) -> str:
    return to_json(as_dict(report), pretty=False)
