"""The funnel's behaviour: which step answers, why the earlier ones failed, what was repaired."""

from __future__ import annotations

import json
from typing import Any

import pytest
from pydantic import BaseModel

from genlint import InputError, ParseResult, parse_json
from parse.helpers import FIXTURES, load_jsonl, same_json

FUNNEL_CASES: list[dict[str, Any]] = json.loads(
    (FIXTURES / "funnel_cases.json").read_text(encoding="utf-8")
)
REPLIES = load_jsonl(FIXTURES / "llm_replies.jsonl")


@pytest.mark.parametrize("case", FUNNEL_CASES, ids=[c["id"] for c in FUNNEL_CASES])
def test_funnel_case(case: dict[str, Any]) -> None:
    result = parse_json(case["input"], schema=case.get("schema"), fields=case.get("fields"))
    assert (result.ok, result.strategy) == (case["ok"], case["strategy"]), result.errors
    assert same_json(result.value, case["value"])
    # One line per failed step, in funnel order, each naming its step.
    assert [line.split(":", 1)[0] for line in result.errors] == case["errors"]
    if case.get("repairs_nonempty"):
        assert result.repairs
    if "repairs_contain" in case:
        assert any(case["repairs_contain"] in note for note in result.repairs), result.repairs


@pytest.mark.parametrize("case", REPLIES, ids=[c["id"] for c in REPLIES])
def test_realistic_reply(case: dict[str, Any]) -> None:
    result = parse_json(case["input"])
    if case["expected"] is None:  # a reply that holds no JSON object or array
        assert not result.ok and result.value is None
        return
    assert result.ok, result.errors
    assert same_json(result.value, case["expected"]), result.value


class Verdict(BaseModel):
    score: int
    reason: str


@pytest.mark.parametrize(
    ("reply", "strategy", "score"),
    [
        ('{"score": 3, "reason": "ok"}', "direct", 3),
        ('Draft: {"score": "high"}. Final: {"score": 4, "reason": "ok"}', "extracted", 4),
        ("Score: 2\nReason: ok", "fields", 2),
    ],
)
def test_pydantic_model_gives_an_instance(reply: str, strategy: str, score: int) -> None:
    result = parse_json(reply, schema=Verdict)
    assert result.ok and result.strategy == strategy, result.errors
    assert isinstance(result.value, Verdict) and result.value.score == score
    assert result.to_dict()["value"]["score"] == score


def test_pydantic_rejection_names_the_model_and_field() -> None:
    result = parse_json('{"score": "high", "reason": "ok"}', schema=Verdict)
    assert not result.ok
    assert "Verdict: score" in result.errors[0]


def test_invalid_json_schema_is_an_input_error() -> None:
    with pytest.raises(InputError, match="not a valid JSON Schema"):
        parse_json("{}", schema={"type": 5})


def test_wrong_schema_type_is_an_input_error() -> None:
    with pytest.raises(InputError, match="pydantic model class or a JSON Schema"):
        parse_json("{}", schema="object")


def test_bytes_are_decoded_and_other_types_refused() -> None:
    assert parse_json('{"名": 1}'.encode()).value == {"名": 1}
    with pytest.raises(TypeError):
        parse_json(42)  # type: ignore[arg-type]


def test_result_is_a_light_slots_object() -> None:
    result = parse_json("[]")
    assert isinstance(result, ParseResult)
    assert not hasattr(result, "__dict__")
    assert result.to_dict() == {
        "ok": True,
        "strategy": "direct",
        "value": [],
        "errors": [],
        "repairs": [],
    }
