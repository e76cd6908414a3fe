"""Budgets that hold while a reply is checked (issue 13): a hostile endpoint that returns
megabytes of placeholders cannot hold a gate past its deadline or fill memory."""

from __future__ import annotations

import time
import tracemalloc

import pytest

from genlint import Gate
from genlint.findings import Finding
from genlint.llm import OpenAICompatible
from genlint.llm.testing import Reply, ScriptedServer

FLOOD = "某某公司于X年X月X日签订【】。\n" * 380_000  # about 6 MB of placeholders


def test_a_six_megabyte_reply_is_cut_and_reported_at_once() -> None:
    with ScriptedServer([Reply(FLOOD)]) as server:
        model = OpenAICompatible("m", base_url=server.url, timeout=30)
        started = time.monotonic()
        result = Gate("placeholder", deadline_s=20).run(model, "写合同")
        took = time.monotonic() - started
    (attempt,) = result.attempts
    assert attempt.outcome == "terminal" and attempt.error_kind == "oversize"
    assert "over the 1,000,000-char cap" in (attempt.error or "")
    assert attempt.text is not None and len(attempt.text) == 1_000_000
    assert result.status == "failed"
    assert took < 10, took


def test_the_cap_follows_max_tokens_and_can_be_set() -> None:
    with ScriptedServer([Reply("正文。" * 2000)]) as server:
        model = OpenAICompatible("m", base_url=server.url, timeout=30)
        result = Gate("placeholder", max_reply_chars=1000).run(model, "写合同")
    assert result.attempts[0].error_kind == "oversize"


def test_a_slow_check_cannot_hold_the_run_past_its_deadline() -> None:
    def slow(text: str) -> list[Finding]:
        time.sleep(5)
        return []

    with ScriptedServer([Reply("正文")]) as server:
        model = OpenAICompatible("m", base_url=server.url, timeout=30)
        started = time.monotonic()
        result = Gate(slow, deadline_s=1.5).run(model, "写合同")
        took = time.monotonic() - started
    assert took < 1.5 * 1.1 + 0.3, took
    assert result.stop_reason == "deadline"
    assert result.attempts[0].error == "the deadline passed while the reply was being checked"


def test_findings_of_a_dense_reply_are_counted_not_all_kept() -> None:
    dense = "某某公司【】X年X月X日。" * 4_000  # 12,000 findings, under the cap
    with ScriptedServer([Reply(dense), Reply(dense)]) as server:
        model = OpenAICompatible("m", base_url=server.url, timeout=30)
        tracemalloc.start()
        result = Gate("placeholder", max_retries=1, reask_findings=5).run(model, "写合同")
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        requests = server.requests
    first = result.attempts[0]
    assert first.finding_count == 12_000 and len(first.findings) == 1000
    reask = requests[1]["messages"][-1]["content"]
    assert reask.count("- [placeholder/") == 5
    assert "另有 11995 处" in reask  # the prompt is Chinese, so is the re-ask
    # two attempts of 12,000 findings each, every object traced: well under 1 KB a finding
    assert peak < 24_000 * 1024, peak


def test_the_reply_cap_holds_behind_a_proxy_and_keeps_the_sdks_limits(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pytest.importorskip("openai")
    from genlint.llm.wire import capped_async_client

    monkeypatch.setenv("HTTPS_PROXY", "http://127.0.0.1:9")
    client = capped_async_client(1000)
    proxied = [t for t in client._mounts.values() if t is not None]
    assert proxied, "the proxy variable is honoured, as by the sync client"
    for transport in [client._transport, *proxied]:
        assert type(transport).__name__ == "CappedTransport" and transport.cap == 1000
    inner = client._transport.inner
    # the SDK's connection limits (1,000), not the HTTP library's default, whichever transport
    # (aiohttp's keeps httpx's Limits, httpcore's pool its own count)
    if hasattr(inner, "limits"):
        assert inner.limits.max_connections == 1000
    else:
        assert inner._pool._max_connections == 1000
