"""The OpenAI-compatible adapter against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import asyncio
import logging
import socket

import pytest

from genlint.llm import OpenAICompatible
from genlint.llm.errors import LLMError
from genlint.llm.testing import Reply, ScriptedServer

KEY_ENV = "GENLINT_TEST_KEY"
SECRET = "sk-live-GENLINTSECRET-0123456789abcdef"
MESSAGES = [{"role": "user", "content": "写一份证据目录"}]


@pytest.fixture
def secret_key(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv(KEY_ENV, SECRET)
    return SECRET


# (scripted reply, expected kind, transient)
ERROR_CASES = [
    (Reply(status=429, headers={"Retry-After": "3"}), "rate_limit", True),
    (Reply(status=500), "server", True),
    (Reply(status=503), "server", True),
    (Reply(status=401, error_message=f"Incorrect API key provided: {SECRET}"), "auth", False),
    (Reply(status=403), "auth", False),
    (
        Reply(status=400, error_message="This model's maximum context length is 8192 tokens"),
        "context_overflow",
        False,
    ),
    (
        Reply(status=400, error_message="Range of input length should be [1, 30720]"),
        "context_overflow",
        False,
    ),
    (
        Reply(
            status=400,
            error_message="data_inspection_failed: Input data may contain inappropriate content.",
        ),
        "refusal",
        False,
    ),
    (Reply(status=400, error_message="unknown parameter"), "bad_request", False),
    (Reply(status=404, error_message="model not found"), "not_found", False),
    (Reply(raw_body=b"<html>bad gateway</html>"), "invalid_response", True),
    (Reply(raw_body=b'{"id": "x", "choices": [], "model": "m"}'), "invalid_response", True),
]


@pytest.mark.parametrize(("reply", "kind", "transient"), ERROR_CASES)
def test_errors_are_classified_and_never_show_the_key(secret_key, reply, kind, transient) -> None:  # type: ignore[no-untyped-def]
    with ScriptedServer([reply]) as server:
        model = OpenAICompatible("m", server.url, KEY_ENV)
        with pytest.raises(LLMError) as info:
            model.complete(MESSAGES)
    assert info.value.kind == kind
    assert info.value.transient is transient
    assert secret_key not in str(info.value) and secret_key[:8] not in str(info.value)
    assert len(server.requests) == 1, "the SDK's own retries must be off"


def test_retry_after_is_read_from_the_header(secret_key) -> None:  # type: ignore[no-untyped-def]
    reply = Reply(status=429, headers={"Retry-After": "2.5"})
    with ScriptedServer([reply]) as server, pytest.raises(LLMError) as info:
        OpenAICompatible("m", server.url, KEY_ENV).complete(MESSAGES)
    assert info.value.retry_after_s == 2.5


def test_completion_fields_and_request_shape(secret_key) -> None:  # type: ignore[no-untyped-def]
    reply = Reply("华夏公司", finish_reason="length", prompt_tokens=11, completion_tokens=7)
    with ScriptedServer([reply]) as server:
        model = OpenAICompatible("qwen-plus", server.url, KEY_ENV, temperature=0.2)
        got = model.complete(MESSAGES, max_tokens=50)
    assert (got.text, got.finish_reason, got.model) == ("华夏公司", "length", "qwen-plus")
    assert got.usage is not None and (got.usage.prompt_tokens, got.usage.completion_tokens) == (
        11,
        7,
    )
    body = server.requests[0]
    assert body["messages"] == MESSAGES
    assert body["max_tokens"] == 50 and body["temperature"] == 0.2


@pytest.mark.parametrize(
    ("content", "text"),
    [
        ("<think>先设甲方为X公司……</think>\n\n甲方为华夏公司。", "甲方为华夏公司。"),
        (
            "甲方为华夏公司。<think>not leading</think>",
            "甲方为华夏公司。<think>not leading</think>",
        ),
        ("<think>unterminated", "<think>unterminated"),
    ],
)
def test_a_leading_reasoning_block_is_not_part_of_the_answer(content: str, text: str) -> None:
    with ScriptedServer([Reply(content)]) as server:
        assert OpenAICompatible("m", server.url, KEY_ENV).complete(MESSAGES).text == text


def test_async_complete_works_across_event_loops(secret_key) -> None:  # type: ignore[no-untyped-def]
    with ScriptedServer([Reply("a"), Reply("b")]) as server:
        model = OpenAICompatible("m", server.url, KEY_ENV)
        first = asyncio.run(model.acomplete(MESSAGES))
        second = asyncio.run(model.acomplete(MESSAGES))  # a new loop must get a new client
    assert (first.text, second.text) == ("a", "b")


def test_timeout_is_a_transient_timeout(secret_key) -> None:  # type: ignore[no-untyped-def]
    with ScriptedServer([Reply("late", delay_s=1.5)]) as server, pytest.raises(LLMError) as info:
        OpenAICompatible("m", server.url, KEY_ENV).complete(MESSAGES, timeout=0.3)
    assert info.value.kind == "timeout" and info.value.transient


def _closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def test_unreachable_endpoint_is_a_connection_error(secret_key) -> None:  # type: ignore[no-untyped-def]
    model = OpenAICompatible("m", f"http://127.0.0.1:{_closed_port()}/v1", KEY_ENV)
    with pytest.raises(LLMError) as info:
        model.complete(MESSAGES, timeout=5)
    assert info.value.kind == "connection" and "cannot reach" in str(info.value)


def test_missing_key_env_sends_a_dummy_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)
    with ScriptedServer([Reply("ok")]) as server:
        assert OpenAICompatible("m", server.url, KEY_ENV).complete(MESSAGES).text == "ok"


def test_key_never_appears_in_repr_logs_or_errors(secret_key, caplog) -> None:  # type: ignore[no-untyped-def]
    caplog.set_level(logging.DEBUG)  # every logger, the SDK's and httpx's included
    script = [Reply("ok"), Reply(status=401, error_message=f"bad key {SECRET}"), Reply(status=500)]
    messages: list[str] = []
    with ScriptedServer(script) as server:
        model = OpenAICompatible("m", server.url, KEY_ENV)
        messages.append(repr(model))
        model.complete(MESSAGES)
        for _ in range(2):
            with pytest.raises(LLMError) as info:
                model.complete(MESSAGES)
            messages += [str(info.value), repr(info.value)]
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert logged, "debug logging should have produced records to inspect"
    for text in [*messages, logged]:
        assert SECRET not in text and SECRET[:8] not in text and SECRET[-8:] not in text


@pytest.mark.parametrize(
    ("kwargs", "needle"),
    [
        ({"model": ""}, "model"),
        ({"model": "m", "api_key_env": "not a var"}, "api-key-env"),
        ({"model": "m", "timeout": 0}, "timeout"),
    ],
)
def test_bad_construction_is_an_input_error(kwargs, needle) -> None:  # type: ignore[no-untyped-def]
    from genlint.errors import InputError

    with pytest.raises(InputError, match=needle):
        OpenAICompatible(**kwargs)


def test_credentials_in_the_url_stay_out_of_messages() -> None:
    url = f"http://user:pw-URLSECRET@127.0.0.1:{_closed_port()}/v1"
    model = OpenAICompatible("m", url, KEY_ENV)
    with pytest.raises(LLMError) as info:
        model.complete(MESSAGES, timeout=5)
    for text in (str(info.value), repr(model)):
        assert "URLSECRET" not in text and "127.0.0.1" in text
