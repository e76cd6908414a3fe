"""Time limits are wall-clock limits on the whole request or run, however slowly the other side
answers: a server that sends its headers and then one byte every 0.2 s must not hold any command
past its limit by more than 10 %."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest

from genlint.errors import InputError
from genlint.llm import OpenAICompatible
from genlint.llm.errors import LLMError
from genlint.llm.testing import Reply, ScriptedServer

TRICKLE = Reply("甲方华夏建设有限公司。" * 40, trickle_s=0.2)  # ~1.5 KB: minutes at this pace


def _timed(fn: Any) -> tuple[Any, float]:
    started = time.monotonic()
    try:
        value = fn()
    except Exception as exc:  # the caller inspects it
        value = exc
    return value, time.monotonic() - started


def test_one_request_is_cut_at_its_timeout() -> None:
    with ScriptedServer([TRICKLE]) as server:
        model = OpenAICompatible("m", base_url=server.url, timeout=1.0)
        error, took = _timed(lambda: model.complete([{"role": "user", "content": "hi"}]))
    assert isinstance(error, LLMError) and error.kind == "timeout"
    assert 0.9 <= took <= 1.1 + 0.3, took  # 10 % plus the client's start-up


def test_async_request_is_cut_at_its_timeout() -> None:
    import asyncio

    async def go() -> Any:
        model = OpenAICompatible("m", base_url=server.url, timeout=1.0)
        try:
            return await model.acomplete([{"role": "user", "content": "hi"}])
        finally:
            await model.aclose()

    with ScriptedServer([TRICKLE]) as server:
        error, took = _timed(lambda: asyncio.run(go()))
    assert isinstance(error, LLMError) and error.kind == "timeout"
    assert took <= 1.1 + 0.3, took


def test_generate_holds_its_deadline_against_a_trickling_server(run_cli: Any, tmp_path: Path) -> None:
    prompt = tmp_path / "p.txt"
    prompt.write_text("写甲方信息", encoding="utf-8")
    with ScriptedServer([TRICKLE]) as server:
        args = ["generate", "--model", "m", "--base-url", server.url, "--prompt-file", str(prompt)]
        args += ["--timeout", "1", "--deadline", "3", "--format", "json"]
        result, took = _timed(lambda: run_cli(*args))
    assert took <= 3 * 1.1 + 0.3, took
    assert result.code in (1, 2)
    attempts = json.loads(result.out)["attempts"] if result.out else []
    assert all(a.get("error_kind") == "timeout" for a in attempts)


def test_match_llm_holds_its_timeout(run_cli: Any, tmp_path: Path) -> None:
    criteria = tmp_path / "criteria.json"
    criteria.write_text(
        json.dumps(
            [
                {
                    "criterion_id": "C1",
                    "clause_ref": "9.9",
                    "review_point": "付款期限",
                    "risk_level": "high",
                    "baseline_text": "买方应于收到发票后三十日内付款",
                    "suggested_action": "核对付款期限",
                }
            ],
            ensure_ascii=False,
        ),
        encoding="utf-8",
    )
    clause = tmp_path / "clause.json"
    clause.write_text(
        json.dumps({"clause_id": "c", "clause_ref": "4.1", "text": "买方应于收到发票后三十日内付款"}),
        encoding="utf-8",
    )
    with ScriptedServer([TRICKLE]) as server:
        args = ["match", "--criteria", str(criteria), "--clause", str(clause), "--llm"]
        args += ["--model", "m", "--base-url", server.url, "--timeout", "1", "--format", "json"]
        result, took = _timed(lambda: run_cli(*args))
    assert took <= 1.1 + 0.5, took
    assert result.code == 0, result.err
    out = json.loads(result.out)
    assert out["matched_criteria"], "a failing LLM keeps every candidate"


def test_embedding_endpoint_holds_its_timeout() -> None:
    from genlint.match.embedders.openai_endpoint import OpenAIEmbedder

    with ScriptedServer([], embedding_trickle_s=0.2) as server:
        embedder = OpenAIEmbedder("e", base_url=server.url, timeout=1.0)
        error, took = _timed(lambda: embedder.embed(["付款期限"]))
    assert isinstance(error, InputError)
    assert took <= 1.1 + 0.3, took


@pytest.mark.parametrize("timeout", [0.5])
def test_a_prompt_server_that_answers_in_time_still_works(timeout: float) -> None:
    with ScriptedServer([Reply("ok")]) as server:
        model = OpenAICompatible("m", base_url=server.url, timeout=timeout)
        assert model.complete([{"role": "user", "content": "hi"}]).text == "ok"
