"""Marker cases from tests/fixtures/cite/markers.toml, one parametrised test."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomllib

from genlint.cite import process_citations

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cite"
SOURCES: dict[str, list[dict[str, Any]]] = tomllib.loads(
    (FIXTURES / "sources.toml").read_text("utf-8")
)["lists"]
CASES: list[dict[str, Any]] = tomllib.loads((FIXTURES / "markers.toml").read_text("utf-8"))["case"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_marker_case(case: dict[str, Any]) -> None:
    result = process_citations(
        case["text"], SOURCES[case.get("sources", "default")], renumber=case.get("renumber", False)
    )
    assert result.text == case["expect"]
    for key in ("cited", "invalid_ids", "uncited"):
        if key in case:
            assert getattr(result, key) == case[key], key
    if "numbers" in case:
        assert result.numbers == {int(k): v for k, v in case["numbers"].items()}
    # Every citation span points at what the text shows there.
    for span in result.citations:
        shown = result.text[span.start : span.end]
        assert shown == "".join(f"[{result.numbers[i]}]" for i in span.ids)


def test_case_names_are_unique() -> None:
    names = [c["name"] for c in CASES]
    assert len(names) == len(set(names))
