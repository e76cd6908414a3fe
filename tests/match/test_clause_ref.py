"""Clause references: every spelling in the fixture table normalises to its group's form."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from genlint.match.clause_ref import cn_to_int, normalize_clause_ref, same_clause

TABLE = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "match" / "clause_refs.json").read_text("utf-8")
)
CASES = [(form, g["canonical"]) for g in TABLE["groups"] for form in g["forms"]]


@pytest.mark.parametrize(("form", "canonical"), CASES)
def test_spelling_normalises_to_its_group(form: str, canonical: str) -> None:
    assert normalize_clause_ref(form) == canonical


@pytest.mark.parametrize("empty", TABLE["none"])
def test_empty_reference_is_none_and_matches_nothing(empty: str | None) -> None:
    assert normalize_clause_ref(empty) is None
    assert not same_clause(empty, empty)


@pytest.mark.parametrize(("a", "b"), TABLE["distinct"])
def test_different_clauses_stay_different(a: str, b: str) -> None:
    assert not same_clause(a, b)


@pytest.mark.parametrize(
    ("numeral", "value"),
    [("一", 1), ("十", 10), ("十二", 12), ("二十", 20), ("二十一", 21), ("一百零五", 105),
     ("一〇五", 105), ("两千零二十六", 2026), ("三百", 300)],
)  # fmt: skip
def test_chinese_numerals(numeral: str, value: int) -> None:
    assert cn_to_int(numeral) == value


@given(st.text(max_size=40))
def test_never_crashes_and_is_idempotent(text: str) -> None:
    ref = normalize_clause_ref(text)
    assert ref is None or (isinstance(ref, str) and ref)
    if ref is not None and ref[0].isdigit():
        assert normalize_clause_ref(ref) == ref


@given(st.lists(st.integers(0, 999), min_size=1, max_size=4))
def test_dotted_numbers_round_trip_through_chinese_layout(parts: list[int]) -> None:
    dotted = ".".join(str(p) for p in parts)
    levels = "条款项目"[: len(parts)]
    chinese = "".join(f"第{p}{level}" for p, level in zip(parts, levels, strict=True))
    assert normalize_clause_ref(dotted) == dotted
    assert normalize_clause_ref(chinese) == dotted
