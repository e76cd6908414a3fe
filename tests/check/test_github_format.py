"""``--format github``: workflow commands with the human location, masked values and the
runner's escaping; SARIF messages carry the human location too."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genlint.check.reporters.github import escape_data, escape_property

from .conftest import make_docx

PHONE = "13812345678"
COMMAND = re.compile(r"^::(error|warning|notice) ([^:]*)::(.*)$")


def unescape(text: str) -> str:
    # what the runner does (actions/toolkit command.ts), in reverse order of escaping
    return (
        text.replace("%2C", ",").replace("%3A", ":").replace("%0A", "\n").replace("%0D", "\r")
    ).replace("%25", "%")


@given(st.text())
def test_escaping_round_trips_and_keeps_one_line(text: str) -> None:
    data, prop = escape_data(text), escape_property(text)
    assert "\n" not in data and "\r" not in data
    assert "," not in prop and ":" not in prop and "\n" not in prop
    assert unescape(data) == text and unescape(prop) == text


def test_one_command_per_finding_with_location_and_masking(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    make_docx(tmp_path / "合同,v1:终稿.docx", ["正文"], table=[["姓名", "电话"], ["张三", PHONE]])
    (tmp_path / "a.txt").write_text("甲方：某某公司\n", "utf-8")
    result = run_cli("check", ".", "--format", "github")
    assert result.code == 1
    lines = result.out.splitlines()
    commands = [COMMAND.match(line) for line in lines[:-1]]
    assert all(commands), lines
    assert lines[-1].startswith("genlint: 2 findings in 2 of 2 files")
    assert PHONE not in result.out
    by_file = {}
    for m in commands:
        assert m is not None
        props = dict(p.split("=", 1) for p in m.group(2).split(","))
        by_file[unescape(props["file"])] = (m.group(1), props, unescape(m.group(3)))
    level, props, message = by_file["合同,v1:终稿.docx"]
    assert level == "error" and props["title"] == "genlint sensitive/mobile"
    assert message.startswith("合同,v1:终稿.docx:table 1 row 2 cell 2: ")
    assert "138****5678" in message
    level, props, message = by_file["a.txt"]
    assert (props["line"], props["col"]) == ("1", "4")
    assert message.startswith("a.txt:1:4: ")


def test_show_values_shows_them(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a.txt").write_text(f"电话 {PHONE}\n", "utf-8")
    assert PHONE in run_cli("check", "a.txt", "--format", "github", "--show-values").out


def test_unreadable_file_is_an_error_command(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bad.docx").write_bytes(b"not a zip")
    result = run_cli("check", "bad.docx", "--format", "github")
    assert result.code == 2
    assert result.out.startswith("::error file=bad.docx,title=genlint%3A cannot read::")


def test_sarif_message_carries_the_human_location(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    make_docx(tmp_path / "a.docx", ["正文"], table=[["电话", PHONE]])
    (tmp_path / "b.txt").write_text(f"电话 {PHONE}\n", "utf-8")
    sarif = json.loads(run_cli("check", ".", "--format", "sarif").out)
    messages = {
        r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]: r["message"]["text"]
        for r in sarif["runs"][0]["results"]
    }
    assert messages["a.docx"].endswith("(table 1 row 1 cell 2)")
    assert "(" not in messages["b.txt"]
