"""promptfoo integration: ``get_assert`` directly, and the real promptfoo binary offline."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genlint.integrations.promptfoo import get_assert
from support.promptfoo import promptfoo_eval

ROOT = Path(__file__).parents[2]
EXAMPLE = ROOT / "examples" / "promptfoo"
FACTS_TEXT = (EXAMPLE / "facts.json").read_text("utf-8")
REPLIES = EXAMPLE / "replies"

# (reply file or inline text, facts var, expected pass, expected substring of reason)
CASES = [
    ("grounded-changeHogosyaJoho.txt", FACTS_TEXT, True, "PASS"),
    ("terse-changeHogosyaJoho.txt", FACTS_TEXT, False, "key_fact_recall 0.5 < 0.85"),
    ("terse-changeHogosyaJoho.txt", str(EXAMPLE / "facts.json"), False, "over_inference '确保'"),
    ("grounded-cancelOrder.txt", "file://" + str(EXAMPLE / "facts.json"), True, "PASS"),
    ("Sorry, I cannot help with that.", FACTS_TEXT, False, "holds no wiki JSON"),
    ('{"claims": []}', FACTS_TEXT, False, "reply: method must be a non-empty string"),
    ('{"method": "cancelOrder", "claims": []}', "/no/such/facts.json", False, "no such file"),
]


@pytest.mark.parametrize(("reply", "facts", "passed", "reason"), CASES)
def test_get_assert(reply: str, facts: str, passed: bool, reason: str) -> None:
    text = (REPLIES / reply).read_text("utf-8") if reply.endswith(".txt") else reply
    result = get_assert(text, {"vars": {"facts": facts}})
    assert result["pass"] is passed
    assert reason in result["reason"]
    assert 0.0 <= result["score"] <= 1.0
    json.dumps(result)  # promptfoo reads it back as JSON
    if "named_scores" in result:
        assert set(result["named_scores"]) == {
            "faithfulness",
            "hallucination_rate",
            "key_fact_recall",
            "redundancy_rate",
        }
        assert [c["pass"] for c in result["component_results"]].count(False) == (
            0 if passed else len(result["reason"].split("|")[0].split(";"))
        )


def test_get_assert_thresholds_from_assertion_config() -> None:
    reply = (REPLIES / "terse-changeHogosyaJoho.txt").read_text("utf-8")
    loose = {"faithfulness": 0.5, "key_fact_recall": 0.5, "redundancy_rate": 0.5}
    assert (
        get_assert(reply, {"vars": {"facts": FACTS_TEXT}, "config": {"thresholds": loose}})["pass"]
        is True
    )


@pytest.mark.slow
def test_promptfoo_eval_offline(tmp_path: Path) -> None:
    done, results = promptfoo_eval(EXAMPLE, "promptfooconfig.yaml", tmp_path)
    assert done.returncode == 100, done.stdout[-3000:] + done.stderr[-3000:]  # a test failed
    rows = json.loads(results.read_text("utf-8"))["results"]["results"]
    # promptfoo labels a file prompt "<label>: <path>: <text>"
    outcome = {
        (r["prompt"]["label"].split(":")[0], r["vars"]["method"]): r["success"] for r in rows
    }
    assert outcome == {
        ("grounded", "changeHogosyaJoho"): True,
        ("grounded", "cancelOrder"): True,
        ("terse", "changeHogosyaJoho"): False,
        ("terse", "cancelOrder"): True,
    }
    failed = next(r for r in rows if not r["success"])
    assert "uncovered: calls:HogosyaService.update" in failed["gradingResult"]["reason"]
    assert failed["gradingResult"]["namedScores"]["key_fact_recall"] == 0.5
