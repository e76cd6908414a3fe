"""``genlint match`` end to end: output shape, exit codes, one-line errors, no input modified."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

from genlint.llm.testing import Reply, ScriptedServer

FIXTURES = Path(__file__).parents[1] / "fixtures" / "match"
BAD = json.loads((FIXTURES / "bad_inputs.json").read_text("utf-8"))
CRITERIA = str(FIXTURES / "criteria.json")
CLAUSE = {"clause_id": "k-7", "clause_ref": "第7条",
          "text": "买方应于收到发票后30日内以电汇方式支付全部价款。"}  # fmt: skip
CRITERION_FIELDS = {"criterion_id", "clause_ref", "review_point", "risk_level", "baseline_text",
                    "suggested_action"}  # fmt: skip
MATCH_FIELDS = {"match_type", "match_score", "applicable", "applicability_reason"}


def _write(tmp_path: Path, name: str, data: Any) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(data, ensure_ascii=False), "utf-8")
    return str(path)


def test_json_output_has_the_spec_shape(run_cli, tmp_path: Path) -> None:
    clause = _write(tmp_path, "clause.json", CLAUSE)
    before = Path(clause).read_bytes(), Path(CRITERIA).read_bytes()
    r = run_cli("match", "--criteria", CRITERIA, "--clause", clause, "--format", "json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert set(out) == {
        "clause_id",
        "matched_criteria",
        "total_matched",
        "has_criteria",
        "llm_filtered",
    }
    assert out["clause_id"] == "k-7" and out["total_matched"] == 3 and out["has_criteria"] is True
    first = out["matched_criteria"][0]
    assert set(first) == CRITERION_FIELDS | MATCH_FIELDS
    assert first["criterion_id"] == "pay-term" and first["match_type"] == "semantic"
    assert "付款期限" in r.out  # CJK is not ASCII-escaped
    assert (Path(clause).read_bytes(), Path(CRITERIA).read_bytes()) == before


def test_exact_reference_in_another_spelling(run_cli, tmp_path: Path) -> None:
    clause = _write(tmp_path, "c.json", {**CLAUSE, "clause_ref": "Clause 11.2"})
    r = run_cli("match", "--criteria", CRITERIA, "--clause", clause, "--format", "json")
    out = json.loads(r.out)
    assert [
        (c["criterion_id"], c["match_type"], c["match_score"]) for c in out["matched_criteria"]
    ] == [("confidentiality", "exact", 1.0)]


def test_text_output(run_cli, tmp_path: Path) -> None:
    clause = _write(tmp_path, "c.json", CLAUSE)
    r = run_cli("match", "--criteria", CRITERIA, "--clause", clause)
    assert r.code == 0
    assert r.out.startswith("clause k-7: 3 criteria (not LLM-filtered)")
    assert "pay-term  semantic" in r.out


def test_whole_contract_with_clauses(run_cli, tmp_path: Path) -> None:
    clauses = _write(tmp_path, "contract.json", {"clauses": [
        CLAUSE,
        {"clause_id": "k-11", "clause_ref": "第十一条第二款", "text": "保密"},
        {"clause_id": "k-12", "text": "天气晴朗，适合出游。"},
    ]})  # fmt: skip
    r = run_cli("match", "--criteria", CRITERIA, "--clauses", clauses, "--format", "json")
    assert r.code == 0, r.err
    out = json.loads(r.out)
    assert [o["clause_id"] for o in out] == ["k-7", "k-11", "k-12"]
    assert out[1]["matched_criteria"][0]["criterion_id"] == "confidentiality"
    assert out[2] == {"clause_id": "k-12", "matched_criteria": [], "total_matched": 0,
                      "has_criteria": False, "llm_filtered": False}  # fmt: skip
    assert r.err == ""  # no progress bar when stderr is not a terminal


def test_llm_flags_reach_the_server_and_the_key_is_never_printed(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    secret = "sk-test-DO-NOT-PRINT-1234"
    monkeypatch.setenv("MATCH_TEST_KEY", secret)
    clause = _write(tmp_path, "c.json", CLAUSE)
    verdicts = [{"criterion_id": "pay-method", "applicable": False, "reason": "no method"}]
    with ScriptedServer([Reply(json.dumps(verdicts))]) as server:
        r = run_cli("--debug", "match", "--criteria", CRITERIA, "--clause", clause, "--llm",
                    "--model", "qwen", "--base-url", server.url, "--api-key-env", "MATCH_TEST_KEY",
                    "--threshold", "0.1", "--format", "json")  # fmt: skip
        assert server.requests[0]["model"] == "qwen"
    out = json.loads(r.out)
    assert out["llm_filtered"] is True
    assert [c["criterion_id"] for c in out["matched_criteria"]] == [
        "pay-term",
        "invoice",
        "late-payment",
    ]
    assert secret not in r.out + r.err


def test_failing_llm_from_the_cli_keeps_the_candidates(
    run_cli, tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    clause = _write(tmp_path, "c.json", CLAUSE)
    with ScriptedServer([Reply(status=503)]) as server:
        r = run_cli("match", "--criteria", CRITERIA, "--clause", clause, "--llm", "--model", "m",
                    "--base-url", server.url, "--format", "json")  # fmt: skip
    assert r.code == 0
    out = json.loads(r.out)
    assert out["llm_filtered"] is False and out["total_matched"] == 3
    assert "applicability filter skipped" in caplog.text  # a warning, not silence


def test_config_section_is_used_and_validated(run_cli, tmp_path: Path) -> None:
    clause = _write(tmp_path, "c.json", CLAUSE)
    good = tmp_path / "genlint.toml"
    good.write_text("[match]\nmax_results = 1\n", "utf-8")
    r = run_cli(
        "match",
        "--criteria",
        CRITERIA,
        "--clause",
        clause,
        "--config",
        str(good),
        "--format",
        "json",
    )
    assert json.loads(r.out)["total_matched"] == 1
    r = run_cli("match", "--criteria", CRITERIA, "--clause", clause, "--config", str(good),
                "--max-results", "2", "--format", "json")  # fmt: skip
    assert json.loads(r.out)["total_matched"] == 2  # the flag beats the file
    bad = tmp_path / "bad.toml"
    bad.write_text("[match]\ntop_kk = 3\n", "utf-8")
    r = run_cli("match", "--criteria", CRITERIA, "--clause", clause, "--config", str(bad))
    assert r.code == 2 and "top_kk" in r.err


@pytest.mark.parametrize("case", BAD["criteria"], ids=[c["name"] for c in BAD["criteria"]])
def test_bad_criteria_file(run_cli, tmp_path: Path, case: dict[str, Any]) -> None:
    criteria = _write(tmp_path, "criteria.json", case["data"])
    clause = _write(tmp_path, "c.json", CLAUSE)
    r = run_cli("match", "--criteria", criteria, "--clause", clause)
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and r.err.startswith("genlint: error: ")
    assert case["message"] in r.err and "criteria.json" in r.err


@pytest.mark.parametrize("case", BAD["clause"], ids=[c["name"] for c in BAD["clause"]])
def test_bad_clause_file(run_cli, tmp_path: Path, case: dict[str, Any]) -> None:
    clause = _write(tmp_path, "c.json", case["data"])
    r = run_cli("match", "--criteria", CRITERIA, "--clause", clause)
    assert r.code == 2 and r.err.count("\n") == 1 and case["message"] in r.err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--clause", "missing.json"], "missing.json: no such file"),
        ([], "exactly one of --clause"),
        (["--clause", "{c}", "--clauses", "{c}"], "exactly one of --clause"),
        (["--clause", "{c}", "--llm"], "--llm needs --model"),
        (["--clause", "{c}", "--embedder", "magic"], "unknown embedder 'magic'"),
        (["--clause", "{c}", "--embedder", "st:/no/such/model"], "model folder not found"),
        (
            ["--clause", "{c}", "--llm", "--model", "m", "--api-key-env", "not a var"],
            "--api-key-env",
        ),
        (["--clause", "{broken}"], "invalid JSON at line 1"),
    ],
)
def test_usage_errors(run_cli, tmp_path: Path, args: list[str], message: str) -> None:
    c = _write(tmp_path, "c.json", CLAUSE)
    broken = tmp_path / "broken.json"
    broken.write_text('{"clause_id": ', "utf-8")
    cwd = os.getcwd()
    os.chdir(tmp_path)
    try:
        argv = [a.format(c=c, broken=broken) for a in args]
        r = run_cli("match", "--criteria", CRITERIA, *argv)
    finally:
        os.chdir(cwd)
    assert r.code == 2 and r.out == ""
    assert r.err.count("\n") == 1 and message in r.err, r.err


def test_clause_from_standard_input(run_cli, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    stdin = io.TextIOWrapper(io.BytesIO(json.dumps(CLAUSE, ensure_ascii=False).encode("utf-8")))
    monkeypatch.setattr(sys, "stdin", stdin)
    r = run_cli("match", "--criteria", CRITERIA, "--clause", "-", "--format", "json")
    assert r.code == 0 and json.loads(r.out)["clause_id"] == "k-7"


def test_progress_bar_goes_to_stderr_on_a_terminal(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    clauses = _write(tmp_path, "contract.json", [CLAUSE, {**CLAUSE, "clause_id": "k-8"}])
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    r = run_cli("match", "--criteria", CRITERIA, "--clauses", clauses, "--format", "json")
    assert r.code == 0
    assert [o["clause_id"] for o in json.loads(r.out)] == ["k-7", "k-8"]  # stdout stays pure JSON


def test_openai_embedder_from_the_cli_caches_criteria(run_cli, tmp_path: Path) -> None:
    clause = _write(tmp_path, "c.json", CLAUSE)
    cache = tmp_path / "cache"
    args = ["match", "--criteria", CRITERIA, "--clause", clause, "--embedder", "openai:emb-v3",
            "--cache-dir", str(cache), "--threshold", "-1", "--format", "json"]  # fmt: skip
    with ScriptedServer([]) as server:
        first = run_cli(*args, "--base-url", server.url)
        second = run_cli(*args, "--base-url", server.url)
        inputs = [r["input"] for r in server.requests]
    assert first.code == second.code == 0 and first.out == second.out
    criteria_texts = sum(len(i) for i in inputs[:-2])
    assert criteria_texts == 6  # the 6 criteria embedded once; later only the clause
    assert inputs[-1] == [CLAUSE["text"]] and inputs[-2] == [CLAUSE["text"]]
    assert len(list(cache.iterdir())) == 1
    assert json.loads(first.out)["total_matched"] == 3


def test_model_flag_alone_turns_the_llm_on(run_cli, tmp_path: Path) -> None:
    clause = _write(tmp_path, "c.json", CLAUSE)
    with ScriptedServer([Reply("[]")]) as server:
        r = run_cli("match", "--criteria", CRITERIA, "--clause", clause, "--model", "m",
                    "--base-url", server.url, "--format", "json")  # fmt: skip
        assert len(server.requests) == 1
    assert json.loads(r.out)["llm_filtered"] is True


def test_template_scope_and_nothing_applies_from_the_cli(run_cli, tmp_path: Path) -> None:
    criteria = _write(tmp_path, "criteria.json", [
        {"criterion_id": "CONF", "clause_ref": "第八条", "template": "采购合同2024",
         "review_point": "保密期限", "baseline_text": "保密义务在合同终止后两年内继续有效"},
        {"criterion_id": "RENT", "review_point": "租金与押金",
         "baseline_text": "租金按季度预付，押金为两个月租金"},
    ])  # fmt: skip
    clauses = _write(tmp_path, "clauses.json", [
        {"clause_id": "p8", "clause_ref": "第8条", "template": "采购合同2024", "text": "保密。"},
        {"clause_id": "l8", "clause_ref": "第8条", "template": "房屋租赁合同",
         "text": "承租人应于每月五日前支付当月租金，并交付两个月租金作为押金。"},
        {"clause_id": "l20", "clause_ref": "第二十条", "text": "本合同一式两份，双方各执一份。"},
    ])  # fmt: skip
    r = run_cli("match", "--criteria", criteria, "--clauses", clauses, "--format", "json")
    assert r.code == 0, r.err
    p8, l8, l20 = json.loads(r.out)
    assert [(c["criterion_id"], c["match_type"]) for c in p8["matched_criteria"]] == [
        ("CONF", "exact")
    ]
    assert p8["matched_criteria"][0]["template"] == "采购合同2024"  # passed through
    assert [(c["criterion_id"], c["match_type"]) for c in l8["matched_criteria"]] == [
        ("RENT", "semantic")
    ]
    assert l20["has_criteria"] is False and l20["total_matched"] == 0
