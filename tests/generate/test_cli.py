"""`genlint generate` end to end against a scripted server on 127.0.0.1."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from generate.helpers import FIXTURES
from genlint.llm.testing import Reply, ScriptedServer

PROMPT = str(FIXTURES / "prompts" / "a-payment.txt")
SCHEMA = str(FIXTURES / "answer.schema.json")
KEY_ENV = "GENLINT_CLI_TEST_KEY"
SECRET = "sk-cli-GENLINTSECRET-9876543210fedcba"
CLEAN = '{"payer": "华夏建设有限公司", "date": "2024-03-01"}'
NOT_JSON = "付款方是华夏公司，日期待定。"


@pytest.fixture(autouse=True)
def _key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(KEY_ENV, SECRET)


def _base(url: str) -> list[str]:
    return [
        "generate",
        "--model",
        "m",
        "--base-url",
        url,
        "--api-key-env",
        KEY_ENV,
        "--select",
        "placeholder",
        "--schema",
        SCHEMA,
        "--transient-retries",
        "1",
    ]


def _closed_port_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}/v1"


def test_text_output_reasks_until_clean(run_cli: Any) -> None:
    with ScriptedServer([Reply(NOT_JSON), Reply(CLEAN)]) as server:
        result = run_cli(*_base(server.url), "--prompt-file", PROMPT)
        asked = server.requests
    assert result.code == 0, result.err
    assert result.out == CLEAN + "\n", "the text goes to stdout, alone"
    assert "reasked after 2 attempt(s)" in result.err
    assert "json/unparseable" in asked[1]["messages"][-1]["content"]


def test_prompt_from_stdin(run_cli: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO("写付款说明".encode())))
    with ScriptedServer([Reply(CLEAN)]) as server:
        result = run_cli(*_base(server.url), "--prompt-file", "-")
        asked = server.requests[0]["messages"]
    assert result.code == 0, result.err
    assert asked == [{"role": "user", "content": "写付款说明"}]


def test_json_output_reports_every_attempt(run_cli: Any) -> None:
    with ScriptedServer([Reply(status=503), Reply(NOT_JSON), Reply(CLEAN)]) as server:
        result = run_cli(*_base(server.url), "--prompt-file", PROMPT, "--format", "json")
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert doc["status"] == "reasked" and doc["text"] == CLEAN and doc["ok"] is True
    assert [a["outcome"] for a in doc["attempts"]] == ["transient", "findings", "clean"]
    # 待定 in the reply is a to-be-supplied marker too (SPEC §1): both are reported
    assert {f["rule"] for f in doc["attempts"][1]["findings"]} == {
        "json/unparseable", "placeholder/to-be-supplied"}
    assert doc["transient_retries"] == 1 and doc["content_attempts"] == 2
    assert doc["total_usage"]["total_tokens"] > 0
    assert "华夏" in result.out, "CJK is not ASCII-escaped"


def test_degraded_writes_best_attempt_to_out_and_exits_1(run_cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "answer.json"
    out.write_text("old", encoding="utf-8")
    with ScriptedServer([Reply(NOT_JSON)]) as server:
        result = run_cli(
            *_base(server.url), "--prompt-file", PROMPT, "--max-retries", "1", "--out", str(out)
        )
    assert result.code == 1
    assert out.read_text(encoding="utf-8") == NOT_JSON
    assert "degraded after 2 attempt(s)" in result.out and "stopped by max_retries" in result.out
    assert [p.name for p in tmp_path.iterdir()] == ["answer.json"], "no temporary file left behind"


def test_on_fail_none_writes_nothing(run_cli: Any, tmp_path: Path) -> None:
    out = tmp_path / "answer.json"
    with ScriptedServer([Reply(NOT_JSON)]) as server:
        result = run_cli(
            *_base(server.url),
            "--prompt-file",
            PROMPT,
            "--max-retries",
            "0",
            "--on-fail",
            "none",
            "--out",
            str(out),
            "--format",
            "json",
        )
    assert result.code == 1
    assert not out.exists()
    assert json.loads(result.out)["status"] == "failed"


def test_batch_results_in_input_order_with_summary(run_cli: Any, tmp_path: Path) -> None:
    def script(body: dict[str, Any]) -> Reply:
        first = len([m for m in body["messages"] if m["role"] == "user"]) == 1
        return Reply(NOT_JSON if first and "warranty" in json.dumps(body) else CLEAN)

    with ScriptedServer(script) as server:
        result = run_cli(
            *_base(server.url),
            "--prompts-dir",
            str(FIXTURES / "prompts"),
            "--out",
            str(tmp_path),
            "--format",
            "json",
            "--concurrency",
            "3",
        )
    assert result.code == 0, result.err
    doc = json.loads(result.out)
    assert [r["prompt"] for r in doc["results"]] == [
        "a-payment.txt",
        "b-delivery.md",
        "c-messages.json",
    ]
    assert [r["status"] for r in doc["results"]] == ["first_try", "first_try", "reasked"]
    assert doc["summary"]["final_pass_rate"] == 1.0
    assert doc["summary"]["first_try_pass_rate"] == pytest.approx(2 / 3, abs=1e-3)
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "a-payment.txt",
        "b-delivery.txt",
        "c-messages.txt",
        "genlint-ledger.jsonl",
    ]
    ledger = (tmp_path / "genlint-ledger.jsonl").read_text(encoding="utf-8").splitlines()
    assert sorted(json.loads(line)["prompt"] for line in ledger) == [
        "a-payment.txt",
        "b-delivery.md",
        "c-messages.json",
    ]


def test_batch_keeps_every_result_when_one_prompt_is_rejected(run_cli: Any) -> None:
    def script(body: dict[str, Any]) -> Reply:
        if "delivery" in json.dumps(body):
            return Reply(status=400, error_message="invalid parameter")
        return Reply(CLEAN)

    with ScriptedServer(script) as server:
        result = run_cli(
            *_base(server.url), "--prompts-dir", str(FIXTURES / "prompts"), "--format", "json"
        )
    assert result.code == 1, result.err
    doc = json.loads(result.out)
    assert [r["stop_reason"] for r in doc["results"]] == ["clean", "bad_request", "clean"]
    assert doc["summary"]["statuses"] == {"failed": 1, "first_try": 2}


@pytest.mark.parametrize(
    ("files", "out", "needle"),
    [
        ({"a.txt": "写说明", "a.md": "写说明"}, "out", "would both be written"),
        ({"a.txt": "写说明"}, ".", "would overwrite the prompt"),
    ],
)
def test_batch_outputs_never_collide_or_overwrite_prompts(
    run_cli: Any, tmp_path: Path, files: dict[str, str], out: str, needle: str
) -> None:
    prompts = tmp_path / "prompts"
    prompts.mkdir()
    (tmp_path / "out").mkdir()
    for name, text in files.items():
        (prompts / name).write_text(text, encoding="utf-8")
    out_dir = prompts if out == "." else tmp_path / out
    args = ["--prompts-dir", str(prompts), "--out", str(out_dir)]
    result = run_cli(*_base("http://127.0.0.1:9/v1"), *args)
    assert result.code == 2 and needle in result.err
    assert {p.name: p.read_text(encoding="utf-8") for p in prompts.iterdir()} == files
    assert not list((tmp_path / "out").iterdir())


def test_config_section_supplies_model_and_url(run_cli: Any, tmp_path: Path) -> None:
    with ScriptedServer([Reply(CLEAN)]) as server:
        config = tmp_path / "genlint.toml"
        config.write_text(
            f'[generate]\nmodel = "qwen-plus"\nbase_url = "{server.url}"\napi_key_env = "{KEY_ENV}"\n'
            'select = ["placeholder"]\nmax_retries = 1\n',
            encoding="utf-8",
        )
        result = run_cli("generate", "--config", str(config), "--prompt-file", PROMPT)
        assert server.requests[0]["model"] == "qwen-plus"
    assert result.code == 0, result.err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--prompt-file", "nope.txt"], "no such file"),
        ([], "exactly one of --prompt-file or --prompts-dir"),
        (["--prompt-file", PROMPT, "--prompts-dir", str(FIXTURES)], "exactly one"),
        (["--prompts-dir", "no-such-dir"], "no such folder"),
        (["--prompt-file", PROMPT, "--select", "no-such-pack"], "no-such-pack"),
        (["--prompt-file", PROMPT, "--max-retries", "-1"], "max_retries"),
        (["--prompt-file", PROMPT, "--schema", "missing.json"], "no such file"),
        (["--prompt-file", PROMPT, "--out", "/no/such/folder/x.txt"], "does not exist"),
        (["--prompt-file", str(FIXTURES / "answer.schema.json")], "messages"),
    ],
)
def test_bad_input_exits_2_with_one_line(run_cli: Any, args: list[str], needle: str) -> None:
    result = run_cli("generate", "--model", "m", "--base-url", "http://127.0.0.1:9/v1", *args)
    assert result.code == 2
    assert result.err.startswith("genlint: error:") and result.err.count("\n") == 1
    assert needle in result.err and "Traceback" not in result.err


@pytest.mark.parametrize(
    ("toml", "needle"),
    [
        ('[generate]\nmodle = "m"\n', "unknown key 'modle'"),
        ('[generate]\nmax_retries = "3"\n', "'max_retries' must be a whole number, got a string"),
        ("[generate]\nmax_retries = true\n", "'max_retries' must be a whole number, got a boolean"),
        ("generate = 3\n", "[generate] must be a table"),
    ],
)
def test_bad_config_exits_2(run_cli: Any, tmp_path: Path, toml: str, needle: str) -> None:
    config = tmp_path / "genlint.toml"
    config.write_text(toml, encoding="utf-8")
    result = run_cli("generate", "--config", str(config), "--model", "m", "--prompt-file", PROMPT)
    assert result.code == 2 and needle in result.err and result.err.count("\n") == 1


def test_missing_model_exits_2(
    run_cli: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)  # no genlint.toml found above
    result = run_cli("generate", "--prompt-file", PROMPT)
    assert result.code == 2 and "--model is required" in result.err


def test_unreachable_endpoint_exits_2(run_cli: Any) -> None:
    result = run_cli(*_base(_closed_port_url()), "--prompt-file", PROMPT)
    assert result.code == 2
    assert result.err.startswith("genlint: error: cannot reach") and result.err.count("\n") == 1


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_the_key_never_leaks(run_cli: Any, fmt: str, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level("DEBUG")
    with ScriptedServer(
        [Reply(status=401, error_message=f"Incorrect API key provided: {SECRET}")]
    ) as server:
        bad = run_cli(*_base(server.url), "--prompt-file", PROMPT, "--format", fmt)
    with ScriptedServer([Reply(NOT_JSON), Reply(CLEAN)]) as server:
        good = run_cli("--debug", *_base(server.url), "--prompt-file", PROMPT, "--format", fmt)
    assert (bad.code, good.code) == (2, 0)
    assert "authentication failed" in bad.err and KEY_ENV in bad.err
    logs = "\n".join(r.getMessage() for r in caplog.records)
    for text in (bad.out, bad.err, good.out, good.err, logs):
        assert SECRET not in text and SECRET[:8] not in text and SECRET[-8:] not in text


@pytest.mark.parametrize("flag", ["--timeout", "--attempt-timeout"])
def test_request_timeout_flag_and_its_deprecated_spelling(run_cli: Any, flag: str) -> None:
    # a reply slower than the limit times out under either spelling; the old one warns
    script = [Reply(CLEAN, delay_s=1.5), Reply(CLEAN)]
    with ScriptedServer(script) as server:
        result = run_cli(*_base(server.url), "--prompt-file", PROMPT, flag, "0.5")
        asked = len(server.requests)
    assert result.code == 0, result.err
    assert asked == 2, "the slow first reply was abandoned after 0.5 s and resent"
    assert ("deprecated" in result.err) == (flag == "--attempt-timeout")


@pytest.mark.parametrize("content", ["", "   \n"])
def test_an_empty_reply_is_a_failed_attempt_not_a_clean_one(
    run_cli: Any, tmp_path: Path, content: str
) -> None:
    out = tmp_path / "out.txt"
    with ScriptedServer([Reply(content), Reply(content), Reply(content), Reply(content)]) as server:
        result = run_cli(*_base(server.url), "--prompt-file", PROMPT, "--out", str(out))
        asked = len(server.requests)
    assert result.code == 1, "never clean"
    assert asked == 4, "the empty reply is re-asked like any failed check"
    assert "reply/empty" in result.out + result.err


def test_ctrl_c_keeps_every_finished_result_and_exits_130(tmp_path: Path) -> None:
    """A real SIGINT to a real process: the finished prompts' files and ledger lines stay,
    nothing half-written is left, and the exit code is 130."""
    import signal
    import subprocess
    import sys
    import time

    from support.signals import sigint_default

    prompts = tmp_path / "prompts"
    prompts.mkdir()
    for i in range(4):
        (prompts / f"p{i}.txt").write_text(f"prompt {i}", encoding="utf-8")
    out = tmp_path / "out"
    out.mkdir()

    def script(body: dict[str, Any]) -> Reply:
        text = body["messages"][-1]["content"]
        slow = text.endswith(("2", "3"))
        return Reply(f"华夏公司 {text}", delay_s=30.0 if slow else 0.0)

    with ScriptedServer(script) as server:
        args = ["generate", "--model", "m", "--base-url", server.url, "--select", "placeholder"]
        args += ["--prompts-dir", str(prompts), "--out", str(out), "--concurrency", "1"]
        proc = subprocess.Popen(
            [sys.executable, "-m", "genlint", *args],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            preexec_fn=sigint_default,  # started from a background job, SIGINT would be ignored
        )
        deadline = time.monotonic() + 30
        while len(list(out.glob("p*.txt"))) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        time.sleep(0.2)
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert sorted(p.name for p in out.glob("p*.txt")) == ["p0.txt", "p1.txt"]
    assert (out / "p0.txt").read_text(encoding="utf-8") == "华夏公司 prompt 0"
    ledger = [json.loads(line) for line in (out / "genlint-ledger.jsonl").read_text().splitlines()]
    assert [line["prompt"] for line in ledger] == ["p0.txt", "p1.txt"]
    assert all(line["status"] == "first_try" and line["attempts"] == 1 for line in ledger)
    assert not [p for p in out.iterdir() if p.name.startswith(".")], "no temporary file left"
    assert "kept 2 finished result(s)" in err
