"""What every sub-command shares: help texts, the output writer, deprecated spellings."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

from genlint._io import atomic_write, to_json
from genlint.cli.main import SUBCOMMANDS
from genlint.errors import InputError


@pytest.mark.parametrize("name", list(SUBCOMMANDS))
def test_every_help_shows_exit_codes_and_defaults_one_way(run_cli, name: str) -> None:  # type: ignore[no-untyped-def]
    result = run_cli(name, "--help")
    assert result.code == 0
    text = " ".join(result.out.split())
    assert "Exit codes: 0 success; 1 " in text and "2 usage error or bad input" in text
    assert "130 interrupted" in text
    # one way to show a default: click's [default: …], never "(default …)" or "[3]"
    assert "(default" not in text
    assert "[default: (" not in text


def test_writer_refuses_what_is_not_a_regular_file(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(InputError, match="not a regular file"):
        atomic_write(fifo, "x")
    assert stat.S_ISFIFO(os.stat(fifo).st_mode), "the FIFO is still a FIFO"
    with pytest.raises(InputError, match="a folder"):
        atomic_write(tmp_path, "x")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["pipe"], "no temporary file left"


def test_writer_refuses_an_input_and_follows_links(tmp_path: Path) -> None:
    source = tmp_path / "in.md"
    source.write_text("原文", encoding="utf-8")
    with pytest.raises(InputError, match="one of the inputs"):
        atomic_write(source, "new", inputs=[str(source)])
    assert source.read_text(encoding="utf-8") == "原文"
    target = tmp_path / "real.txt"
    target.write_text("old", encoding="utf-8")
    os.chmod(target, 0o640)
    link = tmp_path / "link.txt"
    link.symlink_to(target)
    atomic_write(link, "new")
    assert link.is_symlink(), "the link stays a link"
    assert target.read_text(encoding="utf-8") == "new"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640, "a replaced file keeps its mode"


def test_new_files_get_the_umask_mode(tmp_path: Path) -> None:
    old = os.umask(0o027)
    try:
        atomic_write(tmp_path / "new.txt", "x")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640


def test_json_writer_keeps_cjk_and_survives_lone_surrogates() -> None:
    text = to_json({"text": "某某公司\ud83d", "n": 1})
    assert "某某公司" in text
    assert json.loads(text) == {"text": "某某公司\ud83d", "n": 1}
    text.encode("utf-8")  # writable as UTF-8


def test_out_equal_to_an_input_is_refused(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    chapter = tmp_path / "ch.md"
    chapter.write_text("结论<sources>[1]</sources>。\n", encoding="utf-8")
    sources = tmp_path / "s.json"
    sources.write_text('[{"id": 1, "title": "t"}]', encoding="utf-8")
    result = run_cli("cite", str(chapter), "--sources", str(sources), "--out", str(chapter))
    assert result.code == 2 and "one of the inputs" in result.err
    assert chapter.read_text(encoding="utf-8") == "结论<sources>[1]</sources>。\n"
    result = run_cli("check", str(chapter), "--out", str(chapter))
    assert result.code == 2 and "one of the inputs" in result.err


def test_check_out_writes_the_report(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = tmp_path / "d.txt"
    doc.write_text("甲方：某某公司\n", encoding="utf-8")
    out = tmp_path / "report.json"
    result = run_cli("check", str(doc), "--format", "json", "--out", str(out))
    assert result.code == 1 and result.out == ""
    report = json.loads(out.read_text(encoding="utf-8"))
    assert report["summary"]["findings"] >= 1
