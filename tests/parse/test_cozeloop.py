"""CozeLoop's evaluator-output cases: a score and a reason from whatever the judge wrote.

CozeLoop converts the score to a number (a numeric string counts) and, when no reason field is
found, takes the whole reply as the reason. parse_json(fields=["score", "reason"]) gives the
value; the conversion below is the caller's part, as in CozeLoop.
"""

from __future__ import annotations

import math
from typing import Any

import pytest

from genlint import parse_json
from parse.helpers import PEER_CASES, load_jsonl

CASES = (
    [c for c in load_jsonl(PEER_CASES) if c.get("kind") == "score_reason"]
    if PEER_CASES.exists()
    else []
)
pytestmark = pytest.mark.skipif(not CASES, reason=f"{PEER_CASES} is not available")


def _score(value: Any) -> float:
    score = value["score"]
    if isinstance(score, bool):
        raise ValueError("a boolean is not a score")
    return float(score)  # "0.75", "+0.8" and "-0.3" are scores; "无" is not


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_score_and_reason(case: dict[str, Any]) -> None:
    result = parse_json(case["input"], fields=["score", "reason"])
    if case["expect_error"]:
        if result.ok:
            with pytest.raises(ValueError):
                _score(result.value)
        else:
            assert result.strategy == "none" and result.value is None
            assert [e.split(":")[0] for e in result.errors] == [
                "direct",
                "repaired",
                "extracted",
                "fields",
            ]
        return
    assert result.ok, result.errors
    score, reason = _score(result.value), result.value["reason"]
    if case.get("expected_score") is not None:
        assert math.isclose(score, case["expected_score"])
    if "expected_reason" in case:
        assert reason == case["expected_reason"]
    for fragment in case["reason_contains"]:
        assert fragment in reason


def test_missing_reason_falls_back_to_the_whole_reply() -> None:
    reply = '{"score": 0.9}'
    result = parse_json(reply, fields=["score", "reason"])
    assert result.strategy == "fields"
    assert result.value == {"score": 0.9, "reason": reply}
    assert any("whole reply" in note for note in result.repairs)
