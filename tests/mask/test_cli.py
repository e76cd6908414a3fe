"""`genlint mask` / `genlint unmask` end to end: outputs, reports, and bad input (exit 2, one
line, the input untouched, no partial output)."""

from __future__ import annotations

import json
import os
import re
import stat
from pathlib import Path
from typing import Any

import pytest

TEXT = "原告张三，电话13812345678，邮箱zhangsan@163.com。\n"


def _tree(tmp_path: Path) -> Path:
    src = tmp_path / "in"
    (src / "sub").mkdir(parents=True)
    (src / "a.txt").write_text(TEXT, encoding="utf-8")
    (src / "sub" / "b.md").write_text("# 联系\n身份证 11010519491231002X\n", encoding="utf-8")
    (src / "c.json").write_text(json.dumps({"tel": "13812345678", "n": 1}), encoding="utf-8")
    return src


def test_mask_a_folder_into_another_keeps_the_layout(run_cli: Any, tmp_path: Path) -> None:
    src = _tree(tmp_path)
    result = run_cli("mask", str(src), "--out", str(tmp_path / "out"), "--format", "json")
    assert result.code == 0, result.err
    report = json.loads(result.out)
    assert report["summary"] == {"files": 3, "masked": 4, "by_rule": {
        "sensitive/email": 1, "sensitive/mobile": 2, "sensitive/resident-id": 1}}
    assert "13812345678" not in result.out and "zhangsan" not in result.out
    first = report["files"][0]["masked"][0]
    assert set(first) >= {"rule", "line", "column", "original_length", "replacement"}
    assert (tmp_path / "out" / "a.txt").read_text() == "原告张三，电话138****5678，邮箱z*******@163.com。\n"
    assert "110105********002X" in (tmp_path / "out" / "sub" / "b.md").read_text()
    assert json.loads((tmp_path / "out" / "c.json").read_text()) == {"tel": "138****5678", "n": 1}
    assert (src / "a.txt").read_text() == TEXT
    check = run_cli("check", str(tmp_path / "out"), "--select", "sensitive")
    assert check.code == 0, check.out


def test_in_place_and_styles(run_cli: Any, tmp_path: Path) -> None:
    f = tmp_path / "a.txt"
    f.write_text(TEXT, encoding="utf-8")
    assert run_cli("mask", str(f), "--in-place", "--style", "label").code == 0
    assert f.read_text() == "原告张三，电话[手机号]，邮箱[邮箱]。\n"


def test_token_vault_round_trip(run_cli: Any, tmp_path: Path) -> None:
    src = _tree(tmp_path)
    vault = tmp_path / "vault.json"
    assert run_cli("mask", str(src), "--out", str(tmp_path / "m"), "--style", "token",
                   "--vault", str(vault)).code == 0
    assert stat.S_IMODE(os.stat(vault).st_mode) == 0o600
    # a file vault's tokens carry its random id (issue 25: two vaults' tokens never collide)
    token = re.search(r"<PHONE_1_[a-z]{6}>", (tmp_path / "m" / "a.txt").read_text())
    assert token is not None
    assert token.group() in (tmp_path / "m" / "c.json").read_text()  # one token per value
    result = run_cli("unmask", str(tmp_path / "m"), "--vault", str(vault), "--out",
                     str(tmp_path / "back"))
    assert result.code == 0, result.err
    for rel in ("a.txt", "sub/b.md", "c.json"):
        assert (tmp_path / "back" / rel).read_bytes() == (src / rel).read_bytes()


@pytest.mark.parametrize("case", ["missing-vault", "wrong-vault", "same-folder", "token-no-vault",
                                  "bad-json"])
def test_bad_input_is_one_line_exit_2_and_nothing_written(
    run_cli: Any, tmp_path: Path, case: str
) -> None:
    src = _tree(tmp_path)
    before = {p: p.read_bytes() for p in src.rglob("*") if p.is_file()}
    out = tmp_path / "out"
    if case == "missing-vault":
        result = run_cli("unmask", str(src), "--vault", str(tmp_path / "none.json"), "--out", str(out))
    elif case == "wrong-vault":
        (src / "a.txt").write_text("电话<PHONE_7>", encoding="utf-8")
        before[src / "a.txt"] = (src / "a.txt").read_bytes()
        vault = tmp_path / "v.json"
        vault.write_text(json.dumps({"version": 1, "tokens": {"<PHONE_1>": "13812345678"}}))
        result = run_cli("unmask", str(src / "a.txt"), "--vault", str(vault), "--out", str(out))
    elif case == "same-folder":
        result = run_cli("mask", str(src), "--out", str(src))
    elif case == "token-no-vault":
        result = run_cli("mask", str(src), "--out", str(out), "--style", "token")
    else:
        (src / "c.json").write_text('{"tel": "13812345678"', encoding="utf-8")
        before[src / "c.json"] = (src / "c.json").read_bytes()
        result = run_cli("mask", str(src / "c.json"), "--out", str(out))
    assert result.code == 2
    assert result.err.startswith("genlint: error: ") and result.err.count("\n") == 1, result.err
    assert {p: p.read_bytes() for p in src.rglob("*") if p.is_file()} == before
    assert not out.exists() or not any(out.rglob("*"))
