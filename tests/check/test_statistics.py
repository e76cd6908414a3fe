"""Reports that stay readable: ``--statistics`` and folded repeats in the text report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

JUDGMENT = "\n".join(["原告李某诉被告王某，李某称：", *["李某于当日到场。"] * 8]) + (
    "\n身份证号110101199003074573\n"
)


@pytest.fixture
def judgment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    path = tmp_path / "judgment.txt"
    path.write_text(JUDGMENT, "utf-8")
    return path


def test_text_report_folds_the_fourth_and_later_repeats(run_cli, judgment: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("check", "judgment.txt")
    assert result.code == 1
    lines = result.out.splitlines()
    li = [line for line in lines if line.startswith("judgment.txt:") and "'李某'" in line]
    # three shown in full, then one folded line for the other seven
    assert len(li) == 4
    assert li[3] == "judgment.txt: … and 7 more placeholder/mou-name '李某' (--statistics)"
    # the folded line sits right after the third shown finding, before later findings
    assert lines.index(li[3]) < next(i for i, line in enumerate(lines) if "resident-id" in line)
    assert "judgment.txt:1:8: error placeholder/mou-name" in result.out  # 王某 is not folded
    assert lines[-1] == "12 findings in 1 of 1 file"


def test_json_keeps_every_finding(run_cli, judgment: Path) -> None:  # type: ignore[no-untyped-def]
    data = json.loads(run_cli("check", "judgment.txt", "--format", "json").out)
    assert sum(f["text"] == "李某" for f in data["files"][0]["findings"]) == 10


def test_statistics_count_per_rule_and_text(run_cli, judgment: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("check", "judgment.txt", "--statistics")
    assert result.code == 1  # the exit code still says what was found
    assert result.out.splitlines() == [
        "11  placeholder/mou-name   李某 ×10, 王某 ×1",
        # personal data is masked in reports (keep-ends, same length) unless --show-values
        " 1  sensitive/resident-id  110101********4573 ×1",
    ]
    shown = run_cli("check", "judgment.txt", "--statistics", "--show-values").out
    assert shown.splitlines()[1] == " 1  sensitive/resident-id  110101199003074573 ×1"
    data = json.loads(run_cli("check", "judgment.txt", "--statistics", "--format", "json").out)
    assert data["statistics"][0] == {
        "rule": "placeholder/mou-name",
        "severity": "error",
        "count": 11,
        "texts": [{"text": "李某", "count": 10}, {"text": "王某", "count": 1}],
    }
    assert data["summary"] == {"files": 1, "findings": 12, "unreadable": 0}


def test_statistics_with_an_ignored_rule_and_a_clean_file(run_cli, judgment: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("check", "judgment.txt", "--statistics", "--ignore", "placeholder/mou-name")
    assert result.out == "1  sensitive/resident-id  110101********4573 ×1\n"
    (judgment.parent / "clean.txt").write_text("合同已签署。", "utf-8")
    result = run_cli("check", "clean.txt", "--statistics")
    assert (result.code, result.out) == (0, "no findings in 1 file\n")


def test_statistics_refuse_sarif(run_cli, judgment: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("check", "judgment.txt", "--statistics", "--format", "sarif")
    assert result.code == 2
    assert "--statistics prints text or json" in result.err
