"""Built-in checks (genlint's own engines behind the gate's check interface)."""

from __future__ import annotations

from typing import Any

import pytest

from generate.helpers import load
from genlint.generate import Gate, citation_check, json_check, pack_check
from genlint.llm import OpenAICompatible
from genlint.llm.testing import Reply, ScriptedServer

CASES = load("builtin_checks.json")


def _build(case: dict[str, Any]) -> Any:
    if case["check"] == "pack":
        return pack_check(case["select"])
    if case["check"] == "json":
        return json_check(schema=case["schema"])
    return citation_check(case["sources"])


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_builtin_check(case: dict[str, Any]) -> None:
    text = case["text"]
    findings = _build(case)(text)
    assert [f.text for f in findings] == case["texts"]
    assert sorted({f.pack for f in findings}) == case["packs"]
    for f in findings:
        assert text[f.start : f.end] == f.text, "spans point into the checked text"
        assert f.line >= 1 and f.column >= 1


def test_gate_with_named_packs_reasks_until_clean() -> None:
    script = [
        Reply("甲方某某公司，电话13812345678。"),
        Reply("甲方华夏建设有限公司，电话138****5678。"),
    ]
    with ScriptedServer(script) as server:
        result = Gate("placeholder,sensitive").run(
            OpenAICompatible("m", server.url, "K"), "写甲方信息"
        )
        ask = server.requests[1]["messages"][-1]["content"]
    assert result.status == "reasked"
    assert "“某某公司”" in ask and "“13812345678”" in ask
    assert "脱敏" in ask, "personal data is asked to be masked, not filled in"
    assert {f.pack for f in result.attempts[0].findings} == {"placeholder", "sensitive"}
