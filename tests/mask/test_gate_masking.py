"""Gate(mask_prompts=True) against the scripted OpenAI-compatible server: the server never
receives the raw phone number; the reply's tokens are restored before the checks run; the
result records counts, never values."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from genlint.generate import Gate
from genlint.llm.testing import Reply, ScriptedServer

pytest.importorskip("openai")

from genlint.llm import OpenAICompatible

PHONE = "13812345678"
PROMPT = f"请为客户张三写一份催款函，联系电话{PHONE}，邮箱zhangsan@163.com。"


def _echo_tokens(body: dict[str, Any]) -> Reply:
    """A model that writes the tokens it was given into its letter (as a real one would)."""
    asked = body["messages"][-1]["content"]
    tokens = re.findall(r"<[A-Z_]+_\d+>", asked)
    if len(body["messages"]) == 1 and "某" not in asked:
        return Reply("致某某公司：请联系 " + " ".join(tokens))  # a placeholder: re-asked
    return Reply("致华夏公司：请联系 " + " ".join(tokens) + "。")


@pytest.mark.parametrize("mode", ["sync", "async"])
def test_the_model_never_sees_the_phone_number(
    monkeypatch: pytest.MonkeyPatch, mode: str
) -> None:
    monkeypatch.setenv("K", "sk-test")
    with ScriptedServer(_echo_tokens) as server:
        model = OpenAICompatible("m", server.url, "K")
        gate = Gate("placeholder", mask_prompts=True, attempt_timeout_s=10)
        if mode == "sync":
            result = gate.run(model, PROMPT)
        else:
            import asyncio

            result = asyncio.run(gate.arun(model, PROMPT))
        received = json.dumps(server.requests, ensure_ascii=False)
    assert len(server.requests) == 2  # the re-ask quoted the (restored) reply: masked again
    assert PHONE not in received and "zhangsan@163.com" not in received
    assert "<PHONE_1>" in received and "<EMAIL_1>" in received
    assert result.ok and result.text == f"致华夏公司：请联系 {PHONE} zhangsan@163.com。"
    masking = result.to_dict()["masking"]
    # the prompt twice (first ask, re-ask) and the restored reply quoted in the re-ask
    assert masking == {"values": 2, "masked": 6, "by_rule": {"sensitive/email": 3,
                       "sensitive/mobile": 3}, "messages": 3, "restored": 4}
    assert PHONE not in json.dumps(masking)


def test_without_masking_the_server_sees_the_number(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("K", "sk-test")
    with ScriptedServer([Reply("致华夏公司。")]) as server:
        result = Gate("placeholder").run(OpenAICompatible("m", server.url, "K"), PROMPT)
        assert PHONE in json.dumps(server.requests, ensure_ascii=False)
    assert "masking" not in result.to_dict()
