"""``--format gitlab``: GitLab Code Quality JSON, validated against the report format of
GitLab's documentation (docs.gitlab.com/ci/testing/code_quality, "Code Quality report
format"), with no personal value and bounded work on a large report."""

from __future__ import annotations

import json
import time
from pathlib import Path

import jsonschema
import pytest

PHONE = "13812345678"

# the fields GitLab reads from each issue; the array is the whole report
SCHEMA = {
    "type": "array",
    "items": {
        "type": "object",
        "required": ["description", "check_name", "fingerprint", "severity", "location"],
        "properties": {
            "description": {"type": "string", "minLength": 1},
            "check_name": {"type": "string", "minLength": 1},
            "fingerprint": {"type": "string", "minLength": 1},
            "severity": {"enum": ["info", "minor", "major", "critical", "blocker"]},
            "location": {
                "type": "object",
                "required": ["path", "lines"],
                "properties": {
                    "path": {"type": "string", "minLength": 1},
                    "lines": {
                        "type": "object",
                        "required": ["begin"],
                        "properties": {"begin": {"type": "integer", "minimum": 1}},
                    },
                },
            },
        },
    },
}


def test_report_validates_and_masks(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text(f"电话：{PHONE}\n\n甲方：某某公司\n", "utf-8")
    (tmp_path / "docs" / "bad.pdf").write_bytes(b"not a pdf")
    result = run_cli("check", "docs", "--format", "gitlab")
    assert result.code == 2  # the unreadable PDF
    issues = json.loads(result.out)
    jsonschema.validate(issues, SCHEMA)
    assert PHONE not in result.out and PHONE[3:7] not in result.out
    by_rule = {i["check_name"]: i for i in issues}
    assert by_rule["sensitive/mobile"]["location"] == {"path": "docs/a.txt", "lines": {"begin": 1}}
    assert by_rule["placeholder/mou-entity"]["location"]["lines"]["begin"] == 3
    assert by_rule["genlint/unreadable"]["severity"] == "critical"
    assert len({i["fingerprint"] for i in issues}) == len(issues)


def test_an_edit_above_keeps_fingerprints(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    body = f"电话：{PHONE}\n甲方：某某公司\n"
    (tmp_path / "a.txt").write_text(body, "utf-8")
    before = [
        i["fingerprint"] for i in json.loads(run_cli("check", "a.txt", "--format", "gitlab").out)
    ]
    (tmp_path / "a.txt").write_text("前言\n\n" + body, "utf-8")
    after = [
        i["fingerprint"] for i in json.loads(run_cli("check", "a.txt", "--format", "gitlab").out)
    ]
    assert before == after and len(before) == 2


def test_100000_findings_in_bounded_time() -> None:
    from genlint.check.report import CheckReport, FileResult
    from genlint.check.reporters import render
    from genlint.findings import Finding

    findings = [
        Finding("sensitive/mobile", "unmasked mobile number", PHONE, 0, 11, line=i + 1)
        for i in range(100_000)
    ]
    report = CheckReport(files=[FileResult("big.txt", findings)])
    started = time.perf_counter()
    out = render("gitlab", report)
    assert time.perf_counter() - started < 60
    issues = json.loads(out)
    assert len(issues) == 100_000 and PHONE not in out
    assert len({i["fingerprint"] for i in issues}) == 100_000
