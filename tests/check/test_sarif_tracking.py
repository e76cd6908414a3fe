"""SARIF alerts follow a finding across edits above it (no line in ``partialFingerprints``),
and the driver points to no package index page genlint does not own."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

PHONE = "13812345678"


def _prints(run_cli, text: str, path: Path) -> list[str]:  # type: ignore[no-untyped-def]
    path.write_text(text, "utf-8")
    sarif = json.loads(run_cli("check", path.name, "--format", "sarif").out)
    return [r["partialFingerprints"]["genlint/v1"] for r in sarif["runs"][0]["results"]]


def test_an_edit_above_keeps_every_fingerprint(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("GENLINT_FINGERPRINT_KEY", "sarif-test")
    body = f"电话：{PHONE}\n甲方：某某公司\n乙方：某某公司\n"
    before = _prints(run_cli, body, tmp_path / "a.txt")
    after = _prints(run_cli, "新增一段说明。\n\n" + body, tmp_path / "a.txt")
    assert len(before) == 3 and before == after
    assert len(set(before)) == 3, "two equal findings need two fingerprints"
    assert not any(PHONE in p or PHONE[-4:] in p for p in before)


def test_information_uri_is_no_package_index(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from genlint.check.reporters.sarif import information_uri

    (tmp_path / "a.txt").write_text("甲方：某某公司\n", "utf-8")
    driver = json.loads(run_cli("check", str(tmp_path / "a.txt"), "--format", "sarif").out)["runs"][
        0
    ]["tool"]["driver"]
    assert driver.get("informationUri") == information_uri()
    assert "pypi.org" not in json.dumps(driver)
