"""Labelled cases: each folder of tests/fixtures/eval/cases holds facts.json, wiki.json and
expected.json (violations as [claim_index, reason] or [page, claim_index, reason], pass, and
optionally metrics and uncovered_facts)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genlint.eval import evaluate

CASES = Path(__file__).parents[1] / "fixtures" / "eval" / "cases"


def _load(case: Path) -> tuple[object, object, dict]:
    return tuple(
        json.loads((case / f"{n}.json").read_text("utf-8")) for n in ("facts", "wiki", "expected")
    )  # type: ignore[return-value]


@pytest.mark.parametrize("case", sorted(CASES.iterdir()), ids=lambda p: p.name)
def test_case(case: Path) -> None:
    facts, wiki, expected = _load(case)
    default_page = wiki["method"] if isinstance(wiki, dict) else None
    result = evaluate(facts, wiki).to_dict()

    got = {(v["page"], v["claim_index"], v["reason"]) for v in result["violations"]}
    want = {tuple(v) if len(v) == 3 else (default_page, *v) for v in expected["violations"]}
    assert got == want, [v for v in result["violations"]]
    assert result["pass"] is expected["pass"]
    if "metrics" in expected:
        assert result["metrics"] == pytest.approx(expected["metrics"], abs=1e-4)
    if "uncovered_facts" in expected:
        assert result["uncovered_facts"] == expected["uncovered_facts"]
    for v in result["violations"]:
        assert v["detail"], v  # the detail names what triggered it
    assert ("pages" in result) is isinstance(wiki, list)


def test_every_reason_is_covered_in_every_language() -> None:
    """The fixture table itself: each reason has a zh, an en and a ja case."""
    seen: set[tuple[str, str]] = set()
    for case in CASES.iterdir():
        lang = case.name.split("_")[0]
        for v in json.loads((case / "expected.json").read_text("utf-8"))["violations"]:
            seen.add((lang, v[-1]))
    for lang in ("zh", "en", "ja"):
        for reason in ("missing_ref", "invalid_ref", "misaligned", "over_inference", "redundant"):
            assert (lang, reason) in seen, (lang, reason)


SINGLE = json.loads((CASES.parent / "single_claims.json").read_text("utf-8"))["claims"]
FACTS = json.loads((CASES / "requirement_example" / "facts.json").read_text("utf-8"))


@pytest.mark.parametrize("row", SINGLE, ids=[r["text"][:40] for r in SINGLE])
def test_single_claim(row: dict) -> None:
    """One claim alone on its page: natural paraphrases stay clean, each fault is named."""
    wiki = {
        "method": "changeHogosyaJoho",
        "claims": [{"text": row["text"], "fact_refs": row["fact_refs"]}],
    }
    result = evaluate(FACTS, wiki)
    assert sorted(v.reason for v in result.violations) == row["reasons"], [
        v.detail for v in result.violations
    ]
