"""The shape of the blind Chinese set (tests/data/match_zh_blind.json): written by an engineer who
saw neither the matcher nor the other Chinese sets' clauses, so that a malformed file (a label
naming no criterion, a clause written twice, a copy of a clause the matcher was tuned on, too few
clauses that no criterion covers) fails here instead of quietly skewing the accuracy figures."""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

DATA = Path(__file__).resolve().parents[1] / "data"
BLIND = DATA / "match_zh_blind.json"
# The sets the matcher's vocabulary was chosen on or checked against.
SEEN = ("match_zh_dev.json", "match_zh_holdout.json", "match_zh_fresh.json")
CLAUSE_FIELDS = {"clause_id", "clause_ref", "text", "document", "kind", "applicable"}


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text("utf-8"))
    return data


@pytest.fixture(scope="module")
def blind() -> dict[str, Any]:
    return _load(BLIND)


@pytest.fixture(scope="module")
def criterion_ids(blind: dict[str, Any]) -> set[str]:
    criteria = _load(DATA / blind["criteria_from"])["criteria"]
    ids = [c["criterion_id"] for c in criteria]
    assert len(ids) == len(set(ids)), "the criteria file names a criterion twice"
    return set(ids)


def test_the_file_says_where_it_comes_from_and_which_criteria_it_uses(
    blind: dict[str, Any],
) -> None:
    assert set(blind) == {"source", "criteria_from", "clauses"}
    assert "blind" in blind["source"] and "did not see the matcher" in blind["source"]
    assert blind["criteria_from"] == "match_zh_dev.json"


def test_every_clause_has_the_holdout_shape(blind: dict[str, Any]) -> None:
    for clause in blind["clauses"]:
        assert set(clause) == CLAUSE_FIELDS, clause["clause_id"]
        assert all(isinstance(clause[f], str) for f in CLAUSE_FIELDS - {"applicable"})
        assert isinstance(clause["applicable"], list)
        assert clause["text"].strip() and clause["document"].strip()


def test_clause_ids_are_unique_and_numbered(blind: dict[str, Any]) -> None:
    ids = [c["clause_id"] for c in blind["clauses"]]
    assert len(ids) == len(set(ids))
    assert all(re.fullmatch(r"ZH-B\d{3}", i) for i in ids)


def test_every_label_names_an_existing_criterion_once(
    blind: dict[str, Any], criterion_ids: set[str]
) -> None:
    for clause in blind["clauses"]:
        labels = clause["applicable"]
        assert len(labels) == len(set(labels)), clause["clause_id"]
        unknown = set(labels) - criterion_ids
        assert not unknown, f"{clause['clause_id']}: {sorted(unknown)}"


def test_kind_agrees_with_the_labels(blind: dict[str, Any]) -> None:
    for clause in blind["clauses"]:
        expected = "content" if clause["applicable"] else "none"
        assert clause["kind"] == expected, clause["clause_id"]


def test_no_clause_is_written_twice(blind: dict[str, Any]) -> None:
    texts = Counter(_normalised(c["text"]) for c in blind["clauses"])
    assert [t for t, n in texts.items() if n > 1] == []


def test_no_clause_is_taken_from_a_set_the_matcher_has_seen(blind: dict[str, Any]) -> None:
    seen = {_normalised(c["text"]) for name in SEEN for c in _load(DATA / name)["clauses"]}
    copied = [c["clause_id"] for c in blind["clauses"] if _normalised(c["text"]) in seen]
    assert copied == []


def test_the_exact_path_is_never_taken(blind: dict[str, Any]) -> None:
    # Like the holdout set, every clause is matched by content: no article number, neither as a
    # reference nor opening the text.
    for clause in blind["clauses"]:
        assert clause["clause_ref"] == "", clause["clause_id"]
        assert not re.match(r"\s*第[0-9一二三四五六七八九十百零]+条", clause["text"])


def test_the_set_is_big_and_varied_enough(blind: dict[str, Any], criterion_ids: set[str]) -> None:
    clauses = blind["clauses"]
    uncovered = [c for c in clauses if not c["applicable"]]
    assert len(clauses) >= 80
    assert len(uncovered) >= 15
    assert len({c["document"] for c in clauses}) >= 15
    labelled = {label for c in clauses for label in c["applicable"]}
    assert labelled == criterion_ids, "every criterion should be the answer at least once"
    assert max(len(c["applicable"]) for c in clauses) <= 3


def _normalised(text: str) -> str:
    return re.sub(r"\s+", "", text)
