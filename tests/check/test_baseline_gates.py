"""A baseline wherever a gate runs: ``[check] baseline`` in genlint.toml (pre-commit and CI read
the same file), and a damaged baseline as one line of exit 2 (docs/configuration.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PHONE = "13812345678"


def _repo(tmp_path: Path) -> Path:
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "a.txt").write_text(f"电话：{PHONE}\n甲方：某某公司\n", "utf-8")
    return tmp_path


def test_the_config_file_names_the_baseline(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    repo = _repo(tmp_path)
    monkeypatch.chdir(repo)
    assert run_cli("check", "docs", "--write-baseline", ".genlint-baseline.json").code == 0
    (repo / "genlint.toml").write_text('[check]\nbaseline = ".genlint-baseline.json"\n', "utf-8")
    # relative to the configuration file's folder, from a subfolder too
    monkeypatch.chdir(repo / "docs")
    quiet = run_cli("check", "a.txt")
    assert quiet.code == 0, quiet.out + quiet.err
    assert "2 findings accepted by" in quiet.err
    # an edit above the findings does not bring them back; a new finding is reported
    (repo / "docs" / "a.txt").write_text(
        f"新增的一段\n\n电话：{PHONE}\n甲方：某某公司\n邮箱 new@example.com\n", "utf-8"
    )
    new = run_cli("check", "a.txt", "--format", "json")
    assert new.code == 1
    assert [f["rule"] for f in json.loads(new.out)["files"][0]["findings"]] == ["sensitive/email"]
    # the flag beats the file
    flag = run_cli("check", "a.txt", "--baseline", str(repo / "missing.json"))
    assert flag.code == 2 and "missing.json" in flag.err


def test_a_bad_baseline_key_in_the_config_is_named(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(_repo(tmp_path))
    (tmp_path / "genlint.toml").write_text("[check]\nbaseline = 3\n", "utf-8")
    result = run_cli("check", "docs")
    assert result.code == 2 and "'baseline'" in result.err and result.err.count("\n") == 1


@pytest.mark.parametrize(
    ("content", "says"),
    [
        ("", "invalid JSON"),
        ("[]", "not a genlint baseline"),
        ('{"findings": []}', "not a genlint baseline"),
        ('{"version": 2, "findings": []}', "baseline version 2, this genlint reads version 1"),
        ('{"version": true, "findings": []}', "baseline version"),
        ('{"version": 1, "findings": {}}', "'findings' must be a list"),
        ('{"version": 1, "findings": []}', "no 'key_check'"),
        ('{"version": 1, "key_check": 7, "findings": []}', "no 'key_check'"),
        ("KEY", "findings[0] needs a 'fingerprint'"),
    ],
)
def test_a_baseline_from_another_version_or_edited_by_hand(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, content: str, says: str
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(_repo(tmp_path))
    if content == "KEY":  # a real baseline with one row edited
        assert run_cli("check", "docs", "--write-baseline", "b.json").code == 0
        data = json.loads((tmp_path / "b.json").read_text("utf-8"))
        data["findings"][0]["count"] = "2"
        content = json.dumps(data)
    (tmp_path / "b.json").write_text(content, "utf-8")
    result = run_cli("check", "docs", "--baseline", "b.json")
    assert result.code == 2
    assert result.err.startswith("genlint: error: b.json: ") and says in result.err, result.err
    assert result.err.count("\n") == 1 and "Traceback" not in result.err


def test_pre_commit_use_of_a_baseline_is_documented() -> None:
    ci = (Path(__file__).parents[2] / "docs" / "ci.md").read_text("utf-8")
    assert "args: [--baseline, .genlint-baseline.json]" in ci
    assert "baseline = " in ci
