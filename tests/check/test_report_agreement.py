"""The reports of one run say the same thing: the github summary counts as the text one does,
and stderr names a file as the findings do (``drafts/x.png``, not ``./drafts/x.png``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from genlint.check.report import CheckReport, FileResult
from genlint.check.reporters import render
from genlint.findings import Finding


def test_github_and_text_summaries_agree() -> None:
    finding = Finding("placeholder/mou-entity", "unfilled placeholder", "某某公司", 0, 4)
    report = CheckReport(files=[FileResult("a.txt", [finding]), FileResult("b.txt")])
    text_summary = render("text", report).splitlines()[-1]
    github_summary = render("github", report).splitlines()[-1]
    assert text_summary == "1 finding in 1 of 2 files"
    assert github_summary == f"genlint: {text_summary}"


def test_warnings_and_errors_name_files_as_findings_do(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from genlint.cli.check import report_problems

    monkeypatch.chdir(tmp_path)
    files = [
        FileResult("./drafts/x.png", warnings=["./drafts/x.png: read by OCR", "repaired"]),
        FileResult("./drafts/y.pdf", error="./drafts/y.pdf: not a PDF"),
    ]
    report_problems(files)
    assert capsys.readouterr().err.splitlines() == [
        "genlint: warning: drafts/x.png: read by OCR",
        "genlint: warning: drafts/x.png: repaired",
        "genlint: error: drafts/y.pdf: not a PDF",
    ]
