"""The small things a new user met (issue 27): help that says what runs, one error line per
problem, a suggestion for a mistyped rule id, findings that know their file."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from genlint.check import check_paths
from genlint.check.rules import DEFAULT_PACKS, select_rules

ROOT = Path(__file__).resolve().parents[2]


def _genlint(*args: str, cwd: Path, merged: bool) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "genlint", *args],
        cwd=cwd,
        env={"PYTHONPATH": str(ROOT / "src"), "PATH": "/usr/bin:/bin"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT if merged else subprocess.PIPE,
        text=True,
        timeout=120,
    )


def test_check_help_names_the_default_packs(run_cli) -> None:  # type: ignore[no-untyped-def]
    text = " ".join(run_cli("check", "--help").out.split())
    assert f"[default: {','.join(DEFAULT_PACKS)}]" in text
    assert {r.pack for r in select_rules()} == set(DEFAULT_PACKS)


def test_a_missing_path_is_one_error_line(tmp_path: Path) -> None:
    merged = _genlint("check", "missing.txt", cwd=tmp_path, merged=True)
    assert merged.returncode == 2
    assert merged.stdout.count("no such file") == 1, merged.stdout
    assert "missing.txt: error: no such file" in merged.stdout  # the path once
    apart = _genlint("check", "missing.txt", cwd=tmp_path, merged=False)
    assert apart.stderr == "genlint: error: missing.txt: no such file\n"
    json_run = _genlint("check", "missing.txt", "--format", "json", cwd=tmp_path, merged=False)
    assert json_run.stderr.count("genlint: error:") == 1


def test_did_you_mean_for_rule_ids(run_cli) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("rule", "mou-name")
    assert result.code == 2
    assert result.err == (
        "genlint: error: unknown rule 'mou-name' (did you mean placeholder/mou-name?)\n"
    )
    typo = run_cli("rule", "sensitve/mobile")
    assert "did you mean sensitive/mobile" in typo.err
    nothing = run_cli("rule", "qqqq")
    assert "see 'genlint rule' for the list" in nothing.err


@pytest.mark.parametrize(
    ("flag", "value", "hint"),
    [
        ("--select", "placholder", "did you mean placeholder?"),
        ("--select", "mobile", "did you mean sensitive/mobile?"),
        ("--select", "sensitive/mobil", "did you mean sensitive/mobile"),
        ("--ignore", "placeholder/mou-nam", "did you mean placeholder/mou-name"),
        ("--select", "qqqq", "packs: placeholder, sensitive"),
    ],
)
def test_did_you_mean_for_select_and_ignore(run_cli, tmp_path: Path, flag: str, value: str, hint: str) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / "a.txt").write_text("正文\n", "utf-8")
    result = run_cli("check", str(tmp_path / "a.txt"), flag, value)
    assert result.code == 2 and result.err.count("\n") == 1
    assert f"'{value}'" in result.err and hint in result.err


def test_findings_carry_their_path(tmp_path: Path) -> None:
    (tmp_path / "a.txt").write_text("甲方：某某公司\n", "utf-8")
    (tmp_path / "b.md").write_text("电话 13812345678\n", "utf-8")
    report = check_paths([tmp_path])
    assert {(Path(f.path).name, f.rule) for f in report.findings if f.path} == {
        ("a.txt", "placeholder/mou-entity"),
        ("b.md", "sensitive/mobile"),
    }
    assert all(f.path is not None for f in report.findings)
    assert "path" not in report.findings[0].to_dict()  # the JSON shape lists them per file
    parallel = check_paths([tmp_path / "a.txt", tmp_path / "b.md", tmp_path / "a.txt"], jobs=2)
    assert [Path(f.path or "").name for f in parallel.findings] == ["a.txt", "b.md", "a.txt"]
