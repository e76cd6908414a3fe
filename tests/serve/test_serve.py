"""genlint serve against a real upstream over sockets: the openai client, raw HTTP for Dify
and the pipeline API, upstream faults, keys, limits and a graceful SIGTERM (SPEC §9)."""

from __future__ import annotations

import json
import threading
import time
from pathlib import Path

import pytest
from openai import OpenAI

from genlint.llm.testing import ScriptedServer
from support.serve_service import INVENTED_PHONE, Service, start_service, stop

PHONE = "13812345678"
ID = "11010519491231002X"


def client(service: Service, key: str = "x") -> OpenAI:
    return OpenAI(base_url=service.url + "/v1", api_key=key, max_retries=0, timeout=30)


def test_personal_data_never_reaches_the_upstream_and_comes_back(service: Service) -> None:
    raw = client(service).chat.completions.with_raw_response.create(
        model="m", messages=[{"role": "user", "content": f"[[echo]]我的电话是{PHONE}，身份证{ID}"}]
    )
    reply = raw.parse()
    sent = json.dumps(service.upstream.requests[-1], ensure_ascii=False)
    assert PHONE not in sent and ID not in sent
    assert "<PHONE_1>" in sent
    assert PHONE in reply.choices[0].message.content  # the user's own value, restored
    summary = json.loads(raw.headers["x-genlint"])
    assert summary["masked"] == {"sensitive/mobile": 1, "sensitive/resident-id": 1}
    assert summary["status"] == "first_try" and summary["restored"] == 2
    assert reply.usage is not None and reply.usage.total_tokens > 0


def test_a_reply_with_a_placeholder_is_reasked_and_usage_is_summed(service: Service) -> None:
    raw = client(service).chat.completions.with_raw_response.create(
        model="m", messages=[{"role": "user", "content": "[[placeholder]]拟一份合同"}]
    )
    reply = raw.parse()
    summary = json.loads(raw.headers["x-genlint"])
    assert summary["status"] == "reasked" and summary["attempts"] == 2
    assert "某某" not in reply.choices[0].message.content
    first = service.upstream.requests[-2]
    second = service.upstream.requests[-1]
    assert len(second["messages"]) > len(first["messages"])  # the re-ask quotes the finding
    assert reply.usage is not None and reply.usage.prompt_tokens > 0


def test_personal_data_the_model_made_up_is_masked_when_attempts_run_out(service: Service) -> None:
    raw = client(service).chat.completions.with_raw_response.create(
        model="m", messages=[{"role": "user", "content": "[[invent]]给个联系方式"}]
    )
    text = raw.parse().choices[0].message.content or ""
    summary = json.loads(raw.headers["x-genlint"])
    assert summary["status"] == "degraded"
    assert INVENTED_PHONE not in text and "139****1111" in text
    assert summary["findings"] == {"sensitive/mobile": 1}


def test_stream_carries_the_final_reply_and_no_token(service: Service) -> None:
    stream = client(service).chat.completions.create(
        model="m", messages=[{"role": "user", "content": f"[[echo]]电话{PHONE}"}], stream=True
    )
    pieces = [c.choices[0].delta.content or "" for c in stream if c.choices]
    whole = client(service).chat.completions.create(
        model="m", messages=[{"role": "user", "content": f"[[echo]]电话{PHONE}"}]
    )
    assert "".join(pieces) == whole.choices[0].message.content
    assert not any("<PHONE" in p or "PHONE_" in p for p in pieces)
    assert len(pieces) > 2


@pytest.mark.parametrize(
    ("marker", "status"),
    [
        ("[[500]]", 502),
        ("[[429]]", 429),
        ("[[404]]", 404),
        ("[[slow]]", 504),
        ("[[garbage]]", 502),
        ("[[trickle]]", 504),
    ],
)
def test_upstream_faults_map_to_statuses_and_are_bounded(
    service: Service, marker: str, status: int
) -> None:
    started = time.monotonic()
    code, _, body = service.post(
        "/v1/chat/completions", {"model": "m", "messages": [{"role": "user", "content": marker}]}
    )
    assert code == status, body
    assert body["error"]["code"] == status and body["error"]["message"]
    assert time.monotonic() - started < 6.0 * 1.1  # the request deadline holds


# the gate checks text: a tool would be dropped and the model answer in text without saying so
TOOL = {"type": "function", "function": {"name": "f"}}
TOOL_CALL = {"id": "c", "type": "function", "function": {"name": "f", "arguments": "{}"}}


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"messages": [{"role": "user", "content": "hi"}]}, 400),
        ({"model": "m", "messages": []}, 400),
        ({"model": "m", "messages": [{"content": "no role"}]}, 400),
        ({"model": "m", "messages": [{"role": "user", "content": "hi"}] * 51}, 413),
        ({"model": "m", "messages": [{"role": "user", "content": [{"type": "image_url"}]}]}, 400),
        ({"model": "m", "messages": [{"role": "user", "content": "hi"}], "n": 2}, 400),
        ({"model": "m", "messages": [{"role": "user", "content": "hi"}], "tools": [TOOL]}, 400),
        ({"model": "m", "messages": [{"role": "assistant", "tool_calls": [TOOL_CALL]}]}, 400),
        ([1, 2, 3], 400),
    ],
)
def test_bad_requests_are_the_clients_fault(service: Service, body: object, status: int) -> None:
    code, _, answer = service.post("/v1/chat/completions", body)
    assert code == status, answer
    assert "error" in answer


def test_malformed_and_huge_bodies(service: Service) -> None:
    code, _, body = service.post("/v1/chat/completions", None, raw=b'{"model": "m", "messages": [')
    assert code == 400 and "malformed JSON" in body["error"]["message"]
    code, _, body = service.post("/v1/chat/completions", None, raw=b"x" * 300_000)
    assert code == 413
    code, _ = service.get("/healthz")
    assert code == 200  # still serving


def test_models_pass_through(service: Service) -> None:
    models = client(service).models.list()
    assert [m.id for m in models.data] == ["scripted"]


def test_dify_moderation_input_and_output(service: Service) -> None:
    code, _, body = service.post("/dify/moderation", {"point": "ping"})
    assert (code, body) == (200, {"result": "pong"})
    code, _, body = service.post(
        "/dify/moderation",
        {
            "point": "app.moderation.input",
            "params": {"app_id": "a", "inputs": {"v": f"电话{PHONE}"}, "query": "你好"},
        },
    )
    assert code == 200 and body["flagged"] and body["action"] == "overridden"
    assert PHONE not in json.dumps(body) and body["inputs"]["v"] == "电话138****5678"
    # a value split over two streamed pieces
    outs = []
    for piece in ("您的电话是1381", "2345678，请保管好。"):
        code, _, body = service.post(
            "/dify/moderation",
            {"point": "app.moderation.output", "params": {"app_id": "split", "text": piece}},
        )
        outs.append(body.get("text", piece) if body["flagged"] else piece)
    assert PHONE not in "".join(outs)
    code, _, body = service.post("/dify/moderation", {"point": "nope", "params": {}})
    assert code == 400


def test_pipeline_api(service: Service) -> None:
    code, _, body = service.post("/v1/check", {"text": "甲方：某某公司"})
    assert code == 200 and body["summary"]["by_rule"] == {"placeholder/mou-entity": 1}
    assert body["files"][0]["path"] == "input.txt"
    code, _, body = service.post(
        "/v1/check?name=contract.md",
        None,
        raw="乙方：张某某".encode(),
        headers={"content-type": "application/octet-stream"},
    )
    assert (
        code == 200
        and body["files"][0]["path"] == "contract.md"
        and body["summary"]["findings"] >= 1
    )
    code, _, body = service.post(
        "/v1/check?name=x.exe",
        None,
        raw=b"MZ",
        headers={"content-type": "application/octet-stream"},
    )
    assert code == 400
    code, _, body = service.post("/v1/parse", {"text": '好的：```json\n{"a": 1,}\n```'})
    assert code == 200 and body["ok"] and body["value"] == {"a": 1}
    code, _, masked = service.post("/v1/mask", {"text": f"电话{PHONE}", "style": "token"})
    assert code == 200 and PHONE not in masked["text"] and masked["vault"]
    code, _, back = service.post(
        "/v1/unmask", {"text": masked["text"] + " <EMAIL_9>", "vault": masked["vault"]}
    )
    assert back["text"].startswith(f"电话{PHONE}") and back["unknown_tokens"] == ["<EMAIL_9>"]


def test_a_deeply_nested_value_is_parsed_and_returned(service: Service) -> None:
    import sys

    deep = "[" * 1000 + "1" + "]" * 1000
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(5000)  # this test's own json.loads of the answer recurses per level
    try:
        code, _, body = service.post("/v1/parse", {"text": deep})
    finally:
        sys.setrecursionlimit(before)
    assert code == 200 and body["ok"], body
    value, depth = body["value"], 0
    while isinstance(value, list):
        value, depth = value[0], depth + 1
    assert (value, depth) == (1, 1000)


def test_openapi_schema_lists_every_route(service: Service) -> None:
    code, schema = service.get("/openapi.json")
    assert code == 200 and schema["openapi"].startswith("3.")
    for path in (
        "/v1/chat/completions",
        "/dify/moderation",
        "/v1/check",
        "/v1/parse",
        "/v1/mask",
        "/v1/unmask",
        "/healthz",
        "/v1/models",
    ):
        assert path in schema["paths"], path


def test_api_key_required_when_set(upstream: ScriptedServer, tmp_path: Path) -> None:
    svc = start_service(
        upstream, tmp_path, extra=["--api-key-env", "GL_KEY"], env={"GL_KEY": "s3cret"}
    )
    try:
        code, _, _ = svc.post("/v1/parse", {"text": "{}"})
        assert code == 401
        code, _, _ = svc.post(
            "/v1/parse", {"text": "{}"}, headers={"authorization": "Bearer wrong"}
        )
        assert code == 401
        code, _, _ = svc.post(
            "/v1/parse", {"text": "{}"}, headers={"authorization": "Bearer s3cret"}
        )
        assert code == 200
        assert svc.get("/healthz")[0] == 200  # health needs no key
    finally:
        stop(svc)


def test_no_key_off_loopback_is_refused(upstream: ScriptedServer, tmp_path: Path) -> None:
    import subprocess
    import sys

    src = Path(__file__).resolve().parents[2] / "src"
    proc = subprocess.run(
        [sys.executable, "-m", "genlint", "serve", "--host", "0.0.0.0", "--upstream", upstream.url],
        capture_output=True, text=True, timeout=30, env={"PYTHONPATH": str(src), "PATH": "/usr/bin:/bin"}, cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 2
    assert proc.stderr.strip().count("\n") == 0 and "API key" in proc.stderr


def test_sigterm_finishes_the_request_in_flight(upstream: ScriptedServer, tmp_path: Path) -> None:
    svc = start_service(upstream, tmp_path)
    result: dict[str, object] = {}

    def ask() -> None:
        result["reply"] = svc.post(
            "/v1/chat/completions",
            {"model": "m", "messages": [{"role": "user", "content": f"[[wait]]电话{PHONE}"}]},
        )

    worker = threading.Thread(target=ask)
    worker.start()
    time.sleep(0.5)
    log = stop(svc)
    worker.join(10)
    code, _, body = result["reply"]  # type: ignore[misc]
    assert code == 200 and body["choices"][0]["message"]["content"] == "等了一会儿，完成。"
    assert PHONE not in log


def test_async_client(service: Service) -> None:
    import asyncio

    from openai import AsyncOpenAI

    async def ask() -> list[str]:
        client = AsyncOpenAI(base_url=service.url + "/v1", api_key="x", max_retries=0)
        try:
            replies = await asyncio.gather(*[
                client.chat.completions.create(
                    model="m", messages=[{"role": "user", "content": f"[[echo]]电话{PHONE} #{i}"}]
                )
                for i in range(4)
            ])  # fmt: skip
        finally:
            await client.close()
        return [r.choices[0].message.content or "" for r in replies]

    texts = asyncio.run(ask())
    assert all(PHONE in t for t in texts) and len(set(texts)) == 4


def test_metrics_count_routes_and_gate_runs_without_values(service: Service) -> None:
    import re
    import urllib.request

    service.post("/v1/parse", {"text": "{}"})
    code, _, _ = service.post(
        "/v1/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": f"[[echo]]电话{PHONE}"}]},
    )
    assert code == 200
    with urllib.request.urlopen(service.url + "/metrics", timeout=10) as r:
        text = r.read().decode()
    assert 'genlint_requests_total{route="/v1/parse",status="200"}' in text
    # samples, not only the HELP lines a counter prints before it counts anything
    assert re.search(r'^genlint_gate_runs_total\{status="first_try"\} [1-9]', text, re.M), text
    masked = re.search(r"^genlint_masked_values_total ([0-9.]+)$", text, re.M)
    assert masked and float(masked.group(1)) >= 1, text
    assert PHONE not in text


def test_check_ignores_directives_in_the_text_sent(service: Service) -> None:
    # the text is model output: it must not silence its own findings
    text = "电话：13912345678 # genlint: ignore[sensitive]\n"
    code, _, body = service.post("/v1/check", {"text": text})
    assert code == 200 and body["summary"]["by_rule"].get("sensitive/mobile") == 1
    assert body["summary"]["suppressed"] == 0


def test_zz_log_after_the_module(service: Service) -> None:
    """Runs last in the module: the log of every request so far, with values sent just now."""
    service.post("/v1/mask", {"text": f"电话{PHONE}"})
    service.post(
        "/v1/chat/completions",
        {"model": "m", "messages": [{"role": "user", "content": f"电话{PHONE}，身份证{ID}"}]},
    )
    err = stop(service)
    # every line of serve's log is one JSON object (a collector parses each)
    lines = [json.loads(line) for line in err.splitlines() if line.strip()]
    assert all(isinstance(entry, dict) for entry in lines)
    assert lines[0]["event"] == "listening"
    assert {"method": "POST", "route": "/v1/chat/completions", "status": 200} in [
        {k: v for k, v in entry.items() if k != "ms"} for entry in lines
    ]
    assert PHONE not in err and ID not in err
