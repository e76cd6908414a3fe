"""``genlint eval`` end to end: exit codes, formats, --out, batch folders, configuration."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

FIX = Path(__file__).parents[1] / "fixtures" / "eval"
EXAMPLE = FIX / "cases" / "requirement_example"
COMPLETE = FIX / "cases" / "requirement_example_complete"
BAD = FIX / "bad"
FACTS = str(EXAMPLE / "facts.json")


# (extra args, substring of the one error line)
BAD_INPUT = [
    (
        ["--wiki", str(BAD / "refs_not_list.json")],
        "refs_not_list.json: claims[3].fact_refs must be a list",
    ),
    (["--wiki", str(BAD / "truncated.json")], "truncated.json: invalid JSON at line 1"),
    (["--wiki", str(BAD / "text_not_string.json")], "claims[0].text must be a string"),
    (["--wiki", str(BAD / "no_method.json")], "no_method.json: method must be a non-empty string"),
    (
        ["--wiki", str(BAD / "claims_not_list.json")],
        "claims_not_list.json: [1].claims must be a list",
    ),
    (["--wiki", str(BAD / "ref_not_string.json")], "claims[0].fact_refs[0] must be a string"),
    (["--wiki", str(BAD / "missing.json")], "missing.json: no such file"),
    (
        ["--wiki", str(EXAMPLE / "wiki.json"), "--facts", str(BAD / "facts_calls_not_list.json")],
        "facts[0].calls must be a list",
    ),
    (
        ["--wiki", str(EXAMPLE / "wiki.json"), "--facts", str(BAD / "facts_no_key.json")],
        "missing key 'facts'",
    ),
    (
        ["--wiki", str(EXAMPLE / "wiki.json"), "--config", str(BAD / "bad_threshold.toml")],
        "key_fact_recall must be a number between 0 and 1",
    ),
    (
        ["--wiki", str(EXAMPLE / "wiki.json"), "--config", str(BAD / "unknown_key.toml")],
        "unknown key 'threshhold'",
    ),
    (["--wiki", str(EXAMPLE / "wiki.json"), "--config", str(BAD / "broken.toml")], "invalid TOML"),
    (["--wiki", str(EXAMPLE / "wiki.json"), "--min-faithfulness", "2"], "must be between 0 and 1"),
    (["--wiki", str(EXAMPLE / "wiki.json"), "--format", "xml"], "'xml' is not one of"),
    (
        ["--wiki", str(EXAMPLE / "wiki.json"), "--ignore", "nonsense"],
        "unknown eval rule 'nonsense'",
    ),
]


@pytest.mark.parametrize(("args", "message"), BAD_INPUT, ids=[m for _, m in BAD_INPUT])
def test_bad_input_exits_2_with_one_line(run_cli, args: list[str], message: str) -> None:
    before = {p: p.read_bytes() for p in BAD.iterdir()}
    result = run_cli("eval", "--facts", FACTS, *args)
    assert result.code == 2
    assert result.out == ""
    lines = result.err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("genlint: error: "), result.err
    assert message in lines[0]
    assert "Traceback" not in result.err
    assert {p: p.read_bytes() for p in BAD.iterdir()} == before


def test_batch_folder_bad_page(run_cli, tmp_path: Path) -> None:
    shutil.copy(BAD / "refs_not_list.json", tmp_path / "b.json")
    shutil.copy(EXAMPLE / "wiki.json", tmp_path / "a.json")
    result = run_cli("eval", "--facts", FACTS, "--wiki", str(tmp_path))
    assert result.code == 2
    assert result.err.strip().endswith("b.json: claims[3].fact_refs must be a list")


@pytest.mark.parametrize(("case", "code"), [(EXAMPLE, 1), (COMPLETE, 0)])
def test_exit_code_is_the_verdict(run_cli, case: Path, code: int) -> None:
    result = run_cli(
        "eval",
        "--facts",
        str(case / "facts.json"),
        "--wiki",
        str(case / "wiki.json"),
        "--format",
        "json",
    )
    assert result.code == code
    doc = json.loads(result.out)
    assert doc["pass"] is (code == 0)
    assert set(doc) == {"metrics", "violations", "uncovered_facts", "thresholds", "pass"}


def test_json_keeps_cjk_unescaped(run_cli, tmp_path: Path) -> None:
    wiki = tmp_path / "w.json"
    wiki.write_text(
        json.dumps(
            {"method": "changeHogosyaJoho", "claims": [{"text": "为了确保安全", "fact_refs": []}]}
        ),
        "utf-8",
    )
    result = run_cli("eval", "--facts", FACTS, "--wiki", str(wiki), "--format", "json")
    assert "为了确保安全" in result.out and "\\u" not in result.out
    details = {v["reason"]: v["detail"] for v in json.loads(result.out)["violations"]}
    assert details["over_inference"] == "'为了', '确保'"


def test_text_format_is_a_table(run_cli) -> None:
    result = run_cli(
        "eval", "--facts", FACTS, "--wiki", str(FIX / "cases" / "zh_over_inference" / "wiki.json")
    )
    assert result.code == 1
    assert result.out.startswith(
        "FAIL: 4 claims on 1 page(s), 4/4 key facts covered, 1 violation(s)"
    )
    assert "✗ faithfulness         0.750  (needs ≥ 0.95)" in result.out
    header = next(line for line in result.out.splitlines() if "reason" in line)
    assert header.split() == ["page", "#", "reason", "claim", "detail"]
    row = next(line for line in result.out.splitlines() if "over_inference" in line)
    # a reader counts claims from 1; the JSON's claim_index stays 0-based (SPEC)
    assert row.split()[:3] == ["changeHogosyaJoho", "2", "over_inference"] and "'确保'" in row
    as_json = run_cli(
        "eval",
        "--facts",
        FACTS,
        "--wiki",
        str(FIX / "cases" / "zh_over_inference" / "wiki.json"),
        "--format",
        "json",
    )
    assert [v["claim_index"] for v in json.loads(as_json.out)["violations"]] == [1]


def test_out_is_atomic_and_replaces(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "evaluation_result.json"
    out.write_text("old", "utf-8")
    result = run_cli(
        "eval", "--facts", FACTS, "--wiki", str(EXAMPLE / "wiki.json"), "--out", str(out)
    )
    assert result.code == 1 and result.out == ""
    assert result.err.startswith("FAIL: faithfulness 1.00")
    doc = json.loads(out.read_text("utf-8"))
    assert doc["metrics"]["key_fact_recall"] == 0.5
    assert sorted(p.name for p in tmp_path.iterdir()) == ["evaluation_result.json"]


def test_out_format_follows_suffix(run_cli, tmp_path: Path) -> None:
    out = tmp_path / "report.html"
    run_cli("eval", "--facts", FACTS, "--wiki", str(EXAMPLE / "wiki.json"), "--out", str(out))
    assert out.read_text("utf-8").startswith("<!DOCTYPE html>")


def test_out_into_missing_folder_is_bad_input(run_cli, tmp_path: Path) -> None:
    result = run_cli(
        "eval",
        "--facts",
        FACTS,
        "--wiki",
        str(EXAMPLE / "wiki.json"),
        "--out",
        str(tmp_path / "no" / "r.json"),
    )
    assert result.code == 2 and "does not exist" in result.err


def test_batch_folder_gives_pages(run_cli, tmp_path: Path) -> None:
    shutil.copy(EXAMPLE / "wiki.json", tmp_path / "1-example.json")
    shutil.copy(COMPLETE / "wiki.json", tmp_path / "2-complete.json")
    (tmp_path / "notes.txt").write_text("not a page", "utf-8")
    result = run_cli("eval", "--facts", FACTS, "--wiki", str(tmp_path), "--format", "json")
    doc = json.loads(result.out)
    assert [p["pass"] for p in doc["pages"]] == [False, True]
    assert [Path(p["source"]).name for p in doc["pages"]] == ["1-example.json", "2-complete.json"]
    # 6 key-fact slots covered of 8 over both pages
    assert doc["metrics"]["key_fact_recall"] == 0.75
    assert result.code == 1


def test_stdin_wiki(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    data = (COMPLETE / "wiki.json").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))
    assert run_cli("eval", "--facts", FACTS, "--wiki", "-").code == 0


def test_config_thresholds_and_flags(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "genlint.toml").write_text("[eval.thresholds]\nkey_fact_recall = 0.5\n", "utf-8")
    monkeypatch.chdir(tmp_path)
    wiki = str(EXAMPLE / "wiki.json")
    assert run_cli("eval", "--facts", FACTS, "--wiki", wiki).code == 0
    # the flag beats the file
    assert (
        run_cli("eval", "--facts", FACTS, "--wiki", wiki, "--min-key-fact-recall", "0.6").code == 1
    )


def test_config_glossary_extends(run_cli, tmp_path: Path) -> None:
    """A user's glossary word makes a paraphrase count as a mention of the target."""
    facts = tmp_path / "facts.json"
    facts.write_text(
        json.dumps(
            {"facts": [{"id": "method:m", "calls": ["Kakunin.jikko"], "writes": ["Rireki"]}]}
        ),
        "utf-8",
    )
    wiki = tmp_path / "wiki.json"
    # "保存" (write) governs 履历, which only the glossary ties to writes:Rireki; without it the
    # nearest mention is the calls target
    claim = {
        "text": "用 Kakunin.jikko 的结果保存履历",
        "fact_refs": ["calls:Kakunin.jikko", "writes:Rireki"],
    }
    wiki.write_text(json.dumps({"method": "m", "claims": [claim]}, ensure_ascii=False), "utf-8")
    config = tmp_path / "g.toml"
    config.write_text('[eval.glossary]\nrireki = ["履历"]\n', "utf-8")
    plain = json.loads(
        run_cli("eval", "--facts", str(facts), "--wiki", str(wiki), "--format", "json").out
    )
    extended = json.loads(
        run_cli(
            "eval",
            "--facts",
            str(facts),
            "--wiki",
            str(wiki),
            "--format",
            "json",
            "--config",
            str(config),
        ).out
    )
    assert [v["reason"] for v in plain["violations"]] == ["misaligned"]
    assert [v["reason"] for v in extended["violations"]] == []


def test_progress_bar_only_on_a_terminal(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    for i in range(3):
        shutil.copy(COMPLETE / "wiki.json", tmp_path / f"{i}.json")
    args = ("eval", "--facts", FACTS, "--wiki", str(tmp_path), "--format", "json")
    quiet = run_cli(*args)
    assert quiet.err == ""
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    shown = run_cli(*args)
    assert "evaluating" in shown.err  # rich's bar went to stderr…
    assert json.loads(shown.out)["pass"] is True  # …and stdout is still one JSON document


def test_pages_key_is_a_list_of_pages(run_cli, tmp_path: Path) -> None:
    page = json.loads((COMPLETE / "wiki.json").read_text("utf-8"))
    wiki = tmp_path / "w.json"
    wiki.write_text(
        json.dumps({"pages": [page, {"method": "changeHogosyaJoho", "claims": 3}]}), "utf-8"
    )
    result = run_cli("eval", "--facts", FACTS, "--wiki", str(wiki))
    assert result.code == 2 and "w.json: pages[1].claims must be a list" in result.err


def test_disable_is_a_deprecated_spelling_of_ignore(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    facts = tmp_path / "facts.json"
    wiki = tmp_path / "wiki.json"
    facts.write_text(
        json.dumps({"facts": [{"id": "method:m", "kind": "method", "calls": ["A.b"]}]})
    )
    wiki.write_text(
        json.dumps(
            {
                "method": "m",
                "claims": [
                    {"text": "调用 A.b", "fact_refs": ["calls:A.b"]},
                    {"text": "该方法处理相关业务逻辑", "fact_refs": ["calls:A.b"]},
                ],
            },
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    args = ["eval", "--facts", str(facts), "--wiki", str(wiki), "--format", "json"]
    plain = run_cli(*args)
    assert "redundant" in {v["reason"] for v in json.loads(plain.out)["violations"]}
    new = run_cli(*args, "--ignore", "redundant")
    old = run_cli(*args, "--disable", "redundant")
    assert new.out == old.out and new.code == old.code
    assert "redundant" not in {v["reason"] for v in json.loads(new.out)["violations"]}
    assert "--disable is deprecated, use --ignore" in old.err
    assert "deprecated" not in new.err
