"""SARIF 2.1.0 as GitHub code scanning accepts it: one run, the selected rules as
``tool.driver.rules`` (id, short description, default level), one result per finding with a
physical location (file, 1-based line and column; the end column on the same line) and, for
DOCX, PDF and OCR input, a logical location a person can find (``table 2 row 3 cell 1``,
``page 4 line 7``) with the location fields as properties.

A file that could not be read becomes a tool execution notification, so the upload still
shows why it has no results.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..._io import to_json
from ._where import where

if TYPE_CHECKING:
    from ...findings import Finding
    from ..report import CheckReport

SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
_LEVEL = {"error": "error", "warning": "warning", "info": "note"}


def as_dict(report: CheckReport) -> dict[str, Any]:
    from ... import __version__
    from ..redact import mask_report
    from ..report import display_path

    report = mask_report(report)

    rules = {rule.id: rule for rule in report.rules}
    for finding in report.findings + [f for file in report.files for f in file.suppressed]:
        rules.setdefault(finding.rule, None)  # type: ignore[arg-type]
    rule_ids = sorted(rules)
    index = {rule_id: i for i, rule_id in enumerate(rule_ids)}
    driver_rules = []
    for rule_id in rule_ids:
        rule = rules[rule_id]
        entry: dict[str, Any] = {"id": rule_id, "name": rule_id.replace("/", "-")}
        if rule is not None:
            entry["shortDescription"] = {"text": rule.description}
            entry["defaultConfiguration"] = {"level": _LEVEL[str(rule.severity)]}
            if rule.bad:
                entry["help"] = {
                    "text": f"{rule.description}. Flagged: {rule.bad[0]}"
                    + (f" Not flagged: {rule.good[0]}" if rule.good else "")
                }
        driver_rules.append(entry)

    results = []
    notifications = []
    for file in report.files:
        # the how-manyth finding of its rule and text in the file: the fingerprint's part that
        # tells equal findings apart without a line number (an edit above moves every line)
        occurrence: dict[tuple[str, str], int] = {}
        uri = display_path(file.path)
        if file.error is not None:
            notifications.append(
                {
                    "level": "error",
                    "message": {"text": file.error},
                    "locations": [{"physicalLocation": {"artifactLocation": {"uri": uri}}}],
                }
            )
            continue
        # a silenced finding is a result with its suppression, as code scanning expects
        listed: list[tuple[Finding, str | None]] = [(f, None) for f in file.findings]
        listed += zip(file.suppressed, file.suppressed_by, strict=True)
        for f, why in listed:
            nth = occurrence[(f.rule, f.text)] = occurrence.get((f.rule, f.text), 0) + 1
            region: dict[str, Any] = {"startLine": f.line, "startColumn": f.column}
            if "\n" not in f.text:
                region["endColumn"] = f.column + len(f.text)
            region["snippet"] = {"text": f.text}
            location: dict[str, Any] = {
                "physicalLocation": {"artifactLocation": {"uri": uri}, "region": region}
            }
            if f.location or f.page is not None:
                # where a person finds it in the original (a DOCX cell, a PDF page)
                location["logicalLocations"] = [
                    {"name": where(f), "fullyQualifiedName": f"{uri}:{where(f)}", "kind": "element"}
                ]
            message = f.message
            if f.location or f.page is not None:
                # code scanning shows the message, not the logical location: "line 17" of a
                # .docx says nothing, "table 1 row 3 cell 2" does
                message = f"{f.message} ({where(f)})"
            result: dict[str, Any] = {
                "ruleId": f.rule,
                "ruleIndex": index[f.rule],
                "level": _LEVEL[str(f.severity)],
                "message": {"text": message},
                "locations": [location],
                "partialFingerprints": {"genlint/v1": finding_fingerprint(f, uri, nth)},
            }
            properties: dict[str, Any] = {}
            if f.page is not None:
                properties["page"] = f.page
            if f.pointer is not None:
                properties["pointer"] = f.pointer
            properties.update(f.location or {})
            if properties:
                result["properties"] = properties
            if why is not None:
                kind = "external" if why.startswith("[check") else "inSource"
                result["suppressions"] = [{"kind": kind, "justification": why}]
            results.append(result)

    driver: dict[str, Any] = {"name": "genlint", "version": __version__}
    info_uri = information_uri()
    if info_uri is not None:
        driver["informationUri"] = info_uri
    driver["rules"] = driver_rules
    run: dict[str, Any] = {
        "tool": {"driver": driver},
        "results": results,
        # genlint counts columns in code points (SARIF's default is UTF-16 code units)
        "columnKind": "unicodeCodePoints",
        "invocations": [
            {
                "executionSuccessful": not report.errors,
                "toolExecutionNotifications": notifications,
            }
        ],
    }
    return {"$schema": SCHEMA_URI, "version": "2.1.0", "runs": [run]}


def information_uri() -> str | None:
    """The project's own page as its metadata names it (``Documentation``, else ``Homepage``
    or ``Repository``); None when it names none. Never a package index: genlint is not
    published there, and a name nobody holds there is a name anybody could register."""
    from importlib import metadata

    try:
        urls = metadata.metadata("genlint").get_all("Project-URL") or []
    except metadata.PackageNotFoundError:
        return None
    named = dict(
        (label.strip().lower(), url.strip())
        for label, _, url in (entry.partition(",") for entry in urls)
    )
    for label in ("documentation", "homepage", "repository", "source"):
        if named.get(label, "").startswith("https://"):
            return named[label]
    return None


def finding_fingerprint(f: Finding, uri: str, nth: int) -> str:
    """What code scanning follows an alert by: rule, text, file and ``nth`` (which finding of
    that rule and text in the file), never the line, so an edit above does not reopen it; a
    keyed hash, of the masked value for a ``sensitive`` finding (:mod:`._fingerprint`: a plain
    hash of an 11-digit number is the number), the same with and without ``--show-values``."""
    from ..redact import MaskedFinding, is_personal, masked_value
    from ._fingerprint import fingerprint

    shown = f.text
    if is_personal(f) and not isinstance(f, MaskedFinding):
        shown = masked_value(f.rule, f.text)
    # keyed for every finding: a JSON pointer can hold a personal value (a phone number as key)
    return "hmac-sha256:" + fingerprint(f.rule, shown, uri, f.pointer, nth)


def render(report: CheckReport, *, color: bool = False) -> str:
    return to_json(as_dict(report))
