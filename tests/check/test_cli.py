"""`genlint check` through main([...]): exit codes, formats, config, --sources, stdin."""

from __future__ import annotations

import io
import json
import sys
from pathlib import Path

import pytest


@pytest.fixture
def files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "clean.txt").write_text("华夏金融租赁有限公司签署合同。\n", "utf-8")
    (tmp_path / "dirty.txt").write_text("第一行\n甲方：某某公司，电话13812345678\n", "utf-8")
    return tmp_path


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (["clean.txt"], 0),
        (["dirty.txt"], 1),
        (["clean.txt", "dirty.txt"], 1),
        (["dirty.txt", "--select", "placeholder", "--ignore", "placeholder"], 2),  # no rule left
        (["dirty.txt", "--ignore", "placeholder/mou-entity,sensitive"], 1),
    ],
)
def test_exit_codes(run_cli, files: Path, args: list[str], code: int) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("check", *args)
    assert result.code == code, result.err
    if code == 2:
        assert result.err.startswith("genlint: error: the selection leaves no rule")
    else:
        assert result.err == ""


@pytest.mark.parametrize(
    ("args", "setup", "needle"),
    [
        (["missing.txt"], None, "missing.txt: no such file"),
        (["empty"], "empty", "holds no file"),
        (["blob.txt"], "blob", "binary file"),
        (["dirty.txt", "--select", "nopack"], None, "unknown rule pack"),
        (["dirty.txt", "--ignore", "placeholder/nope"], None, "unknown rule"),
        (["dirty.txt", "--config", "bad.toml"], "badconfig", "unknown key"),
        (["dirty.txt", "--config", "broken.toml"], "brokentoml", "invalid TOML"),
        (["dirty.txt", "--config", "nothere.toml"], None, "not found"),
        (["dirty.txt", "--format", "xml"], None, "Invalid value"),
        (["dirty.txt", "--sources", "nothere.json"], None, "no such file"),
        (["dirty.txt", "--sources", "bad_sources.json"], "badsources", "missing"),
        ([], None, "no path"),
    ],
)
def test_bad_input_exits_2_with_one_line(run_cli, files: Path, args, setup, needle) -> None:  # type: ignore[no-untyped-def]
    if setup == "empty":
        (files / "empty").mkdir()
    elif setup == "blob":
        (files / "blob.txt").write_bytes(b"\x00\x01\x02\xff" * 64)
    elif setup == "badconfig":
        (files / "bad.toml").write_text("[check]\ncolour = true\n", "utf-8")
    elif setup == "badsources":
        (files / "bad_sources.json").write_text('[{"id": 1}]', "utf-8")
    elif setup == "brokentoml":
        (files / "broken.toml").write_text("[check\n", "utf-8")
    before = {p: p.read_bytes() for p in files.rglob("*") if p.is_file()}
    result = run_cli("check", *args)
    assert result.code == 2
    assert result.err.startswith("genlint: error: ") and result.err.count("\n") == 1
    assert needle in result.err
    assert "Traceback" not in result.err
    assert {p: p.read_bytes() for p in files.rglob("*") if p.is_file()} == before


def test_json_format_is_the_spec_shape(run_cli, files: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("check", "dirty.txt", "clean.txt", "--format", "json")
    assert result.code == 1
    assert "某某公司" in result.out  # CJK not escaped
    doc = json.loads(result.out)
    assert doc["version"] == 1
    assert [f["path"] for f in doc["files"]] == ["dirty.txt", "clean.txt"]
    first = doc["files"][0]["findings"][0]
    assert first == {
        "rule": "placeholder/mou-entity",
        "severity": "error",
        "message": "unfilled placeholder '某某公司'",
        "text": "某某公司",
        "start": 7,
        "end": 11,
        "line": 2,
        "column": 4,
    }
    assert doc["summary"] == {
        "files": 2,
        "findings": 2,
        "by_rule": {"placeholder/mou-entity": 1, "sensitive/mobile": 1},
        "suppressed": 0,
    }


def test_text_format_shows_line_and_caret(run_cli, files: Path) -> None:  # type: ignore[no-untyped-def]
    out = run_cli("check", "dirty.txt").out.splitlines()
    assert out[0] == "dirty.txt:2:4: error placeholder/mou-entity unfilled placeholder '某某公司'"
    # the phone number beside the placeholder is masked in the shown line too, same length
    assert out[1] == "    甲方：某某公司，电话138****5678"
    # CJK characters are two cells wide: the caret sits under 某某公司
    assert out[2] == "    " + " " * 6 + "^" * 8
    assert "\x1b[" not in "\n".join(out)  # no colour when not a terminal
    assert out[-1] == "2 findings in 1 of 1 file"


def test_colour_on_request(run_cli, files: Path) -> None:  # type: ignore[no-untyped-def]
    assert "\x1b[31m" in run_cli("check", "dirty.txt", "--color").out


def test_config_file_is_found_and_flags_beat_it(run_cli, files: Path) -> None:  # type: ignore[no-untyped-def]
    (files / "genlint.toml").write_text(
        '[check]\nallowlist = ["某某公司"]\nselect = ["placeholder"]\n', "utf-8"
    )
    assert run_cli("check", "dirty.txt").code == 0
    assert run_cli("check", "dirty.txt", "--select", "sensitive").code == 1


def test_per_file_error_reported_others_checked(run_cli, files: Path) -> None:  # type: ignore[no-untyped-def]
    (files / "broken.pdf").write_bytes(b"%PDF-1.4\ngarbage")
    result = run_cli("check", "broken.pdf", "dirty.txt", "--format", "json")
    assert result.code == 2
    assert result.err.count("\n") == 1 and "broken.pdf" in result.err
    doc = json.loads(result.out)
    assert "error" in doc["files"][0] and len(doc["files"][1]["findings"]) == 2


def test_stdin(run_cli, files: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    stdin = io.TextIOWrapper(io.BytesIO("联系人张某".encode()), encoding="utf-8")
    monkeypatch.setattr(sys, "stdin", stdin)
    result = run_cli("check", "-", "--format", "json")
    assert result.code == 1
    assert json.loads(result.out)["files"][0]["path"] == "-"


def test_sources_option_is_loaded_for_rules(
    run_cli, files: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from genlint.check import rules
    from genlint.check.rules import Hit, Rule

    seen: list[object] = []

    class Probe(Rule):
        id = "citation/probe"
        description = "probe"

        def find(self, text, ctx):  # type: ignore[no-untyped-def]
            seen.append(ctx.options.get("sources"))
            return [Hit(0, 1)] if ctx.options.get("sources") else []

    monkeypatch.setitem(rules._loaded, "citation", [Probe()])
    (files / "sources.json").write_text('[{"id": 1, "title": "水电站"}]', "utf-8")
    assert run_cli("check", "clean.txt", "--select", "citation").code == 0
    assert (
        run_cli("check", "clean.txt", "--select", "citation", "--sources", "sources.json").code == 1
    )
    assert seen == [None, [{"id": 1, "title": "水电站"}]]


def test_list_rules(run_cli, files: Path) -> None:  # type: ignore[no-untyped-def]
    result = run_cli("check", "--list-rules", "--select", "sensitive", "--format", "json")
    assert result.code == 0
    ids = [r["id"] for r in json.loads(result.out)["rules"]]
    assert ids == [
        "sensitive/resident-id",
        "sensitive/mobile",
        "sensitive/bank-card",
        "sensitive/email",
        "sensitive/landline",
        "sensitive/bank-account",
        "sensitive/passport",
        "sensitive/plate",
    ]  # person-name and address are opt-in: only selected by their id
    opt_in = run_cli(
        "check", "--list-rules", "--select", "sensitive,sensitive/address", "--format", "json"
    )
    assert "sensitive/address" in [r["id"] for r in json.loads(opt_in.out)["rules"]]
    text = run_cli("check", "--list-rules").out
    assert "placeholder/mou-entity" in text and "sensitive/email" in text
