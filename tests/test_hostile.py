"""Hostile conditions, as a CI job running as root meets them: bad targets, special files,
crashes, damaged encodings. Each case would break a careless implementation."""

from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path

import pytest


def test_crash_log_goes_to_the_users_cache_never_a_shared_fixed_name(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    import genlint.check.engine as engine

    def boom(*args: object, **kwargs: object) -> None:
        raise RuntimeError("simulated bug")

    monkeypatch.setattr(engine, "check_paths", boom)
    monkeypatch.setattr("genlint.check.check_paths", boom)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    planted = Path(tempfile.gettempdir()) / "genlint-crash.log"
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    if not planted.exists():
        planted.symlink_to(victim)
    try:
        doc = tmp_path / "a.txt"
        doc.write_text("x", encoding="utf-8")
        result = run_cli("check", str(doc))
    finally:
        if planted.is_symlink():
            planted.unlink()
    assert result.code == 2
    assert result.err.count("\n") == 1 and "internal error: RuntimeError: simulated bug" in result.err
    logs = list((tmp_path / "cache" / "genlint").glob("crash-*.log"))
    assert len(logs) == 1 and "simulated bug" in logs[0].read_text(encoding="utf-8")
    assert stat.S_IMODE(logs[0].stat().st_mode) == 0o600
    assert victim.read_text(encoding="utf-8") == "keep me", "no link in /tmp was followed"


@pytest.mark.parametrize(
    ("make", "needle"),
    [
        (lambda d: "/dev/zero", "not a regular file"),
        (lambda d: (os.mkfifo(d / "p.txt"), str(d / "p.txt"))[1], "not a regular file"),
        (lambda d: str(d / "missing.txt"), "no such file"),
        (lambda d: (d / "deep.json").write_text("[" * 100_000 + "]" * 100_000) and str(d / "deep.json"), "nested too deeply"),
    ],
    ids=["device", "fifo", "missing", "deep-json"],
)
def test_check_reports_special_inputs_per_file_and_keeps_the_rest(
    run_cli, tmp_path: Path, make, needle: str
) -> None:  # type: ignore[no-untyped-def]
    bad = make(tmp_path)
    good = tmp_path / "good.txt"
    good.write_text("甲方：某某公司\n", encoding="utf-8")
    result = run_cli("check", bad, str(good), "--format", "json")
    assert result.code == 2
    assert needle in result.err and "internal error" not in result.err
    import json

    files = {Path(f["path"]).name: f for f in json.loads(result.out)["files"]}
    assert files["good.txt"]["findings"], "the good file still has its findings"


@pytest.mark.parametrize(
    ("data", "encoding", "warned"),
    [
        (("原告张三诉被告某某公司。" * 50).encode()[:-2] + b"\xff\xfe", "utf-8", True),
        (b"Contact: ops@example.com or 13812345678 " * 10 + b"\xe9\xff tail", "utf-8", True),
        ("原告张三诉被告某某公司。".encode("gbk"), "gb18030", False),
        ("原告王五訴被告某某公司。".encode("big5"), "big5hkscs", False),
    ],
    ids=["damaged-chinese-utf8", "ascii-with-bad-bytes", "gbk", "big5"],
)
def test_encodings_are_decided_with_evidence(
    run_cli, tmp_path: Path, data: bytes, encoding: str, warned: bool
) -> None:  # type: ignore[no-untyped-def]
    import json

    path = tmp_path / "doc.txt"
    path.write_bytes(data)
    result = run_cli("check", str(path), "--format", "json")
    entry = json.loads(result.out)["files"][0]
    assert entry["encoding"] == encoding
    assert entry["findings"], "the findings are not hidden by a wrong guess"
    assert bool(entry.get("warnings")) == warned
    if warned:
        assert "byte offset" in entry["warnings"][0] and "warning:" in result.err


def test_empty_inputs_are_warnings_the_json_carries(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    empty = tmp_path / "empty.json"
    empty.write_text("[]", encoding="utf-8")
    clause = tmp_path / "clause.json"
    clause.write_text('{"clause_id": "c1", "clause_ref": "4.1", "text": "付款"}', encoding="utf-8")
    chapter = tmp_path / "ch.md"
    chapter.write_text("结论<sources>[1]</sources>。\n", encoding="utf-8")
    facts = tmp_path / "facts.json"
    facts.write_text('{"facts": []}', encoding="utf-8")
    wiki = tmp_path / "wiki.json"
    wiki.write_text('{"method": "m", "claims": [{"text": "x", "fact_refs": ["calls:A"]}]}')

    match = run_cli("match", "--criteria", str(empty), "--clause", str(clause), "--format", "json")
    cite = run_cli("cite", str(chapter), "--sources", str(empty), "--format", "json")
    evaluation = run_cli("eval", "--facts", str(facts), "--wiki", str(wiki), "--format", "json")
    for result, needle in ((match, "no criteria"), (cite, "no sources"), (evaluation, "no facts")):
        assert needle in " ".join(json.loads(result.out)["warnings"])
        assert f"warning: {tmp_path}" in result.err and needle in result.err
    assert match.code == 0 and cite.code == 1 and evaluation.code == 1


def test_a_catastrophic_user_pattern_is_bounded(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import time

    config = tmp_path / "genlint.toml"
    config.write_text(
        '[check]\n[[check.patterns]]\nid = "placeholder/evil"\n'
        'pattern = "(x+x+)+y"\ndescription = "evil"\n',
        encoding="utf-8",
    )
    doc = tmp_path / "a.txt"
    doc.write_text("x" * 5000 + "\n", encoding="utf-8")
    started = time.monotonic()
    result = run_cli("check", str(doc), "--config", str(config))
    assert time.monotonic() - started < 10
    assert result.code == 2 and "placeholder/evil ran over" in result.err
    # a sane user pattern still works
    config.write_text(
        '[check]\n[[check.patterns]]\nid = "placeholder/dai-ding"\npattern = "待定"\n'
        'description = "待定 left where a value belongs"\n',
        encoding="utf-8",
    )
    doc.write_text("金额：待定\n", encoding="utf-8")
    assert run_cli("check", str(doc), "--config", str(config)).code == 1


def test_a_catastrophic_schema_pattern_is_bounded(tmp_path: Path) -> None:
    import time

    from genlint import parse_json

    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "^(x+x+)+y$"}}}
    started = time.monotonic()
    result = parse_json('{"a": "' + "x" * 5000 + '"}', schema=schema)
    assert time.monotonic() - started < 2
    assert not result.ok


@pytest.mark.parametrize("command", ["cite", "eval", "match", "parse-schema", "generate"])
def test_deep_json_anywhere_is_a_clean_exit_2(run_cli, tmp_path: Path, command: str) -> None:  # type: ignore[no-untyped-def]
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")
    text = tmp_path / "t.md"
    text.write_text("x", encoding="utf-8")
    args = {
        "cite": ["cite", str(text), "--sources", str(deep)],
        "eval": ["eval", "--facts", str(deep), "--wiki", str(deep)],
        "match": ["match", "--criteria", str(deep), "--clause", str(deep)],
        "parse-schema": ["parse", str(text), "--schema", str(deep)],
        "generate": ["generate", "--model", "m", "--base-url", "http://127.0.0.1:9/v1",
                     "--prompt-file", str(deep)],
    }[command]
    result = run_cli(*args)
    assert result.code == 2
    assert "nested too deeply" in result.err and "internal error" not in result.err
