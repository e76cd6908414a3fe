"""Sentence splitting and citation coverage, from tests/fixtures/cite/coverage.toml."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import tomllib

from genlint.cite import process_citations
from genlint.cite.coverage import measure

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cite"
CASES: list[dict[str, Any]] = tomllib.loads((FIXTURES / "coverage.toml").read_text("utf-8"))["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_coverage_case(case: dict[str, Any]) -> None:
    spans = [m.span() for m in re.finditer(r"(?:\[\d+\])+", case["text"])]
    coverage = measure(case["text"], spans)
    assert (coverage.sentences, coverage.cited) == (case["sentences"], case["cited"])
    assert len(coverage.uncited) == case["sentences"] - case["cited"]


def test_coverage_in_result_and_json() -> None:
    result = process_citations(
        "水电站装机 1.8 万千瓦<sources>[1]</sources>。年发电量未知。",
        [{"id": 1, "title": "A"}],
    )
    data = result.to_dict()["coverage"]
    assert data["sentences"] == 2 and data["cited_sentences"] == 1 and data["ratio"] == 0.5
    assert data["uncited"] == [{"start": 17, "end": 24, "text": "年发电量未知。"}]
    assert result.text[17:24] == "年发电量未知。"
