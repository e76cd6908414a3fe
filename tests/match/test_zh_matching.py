"""The lexical matcher on the Chinese development set (tests/data/match_zh_dev.json): the
numbers benchmarks/bench_match_accuracy.py reports, with a small margin, and the exact path's
``template`` scope."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.match import Matcher

DATA = Path(__file__).resolve().parents[1] / "data" / "match_zh_dev.json"


@pytest.fixture(scope="module")
def dev() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text("utf-8"))
    return data


def _content_matcher(dev: dict[str, Any]) -> Matcher:
    # Without references, so that every clause goes the semantic way.
    return Matcher([dict(c, clause_ref="") for c in dev["criteria"]])


def _top1_top3(matcher: Matcher, ids: list[str], covered: list[dict[str, Any]]) -> tuple[Any, Any]:
    """The share of covered clauses whose best-ranked applicable criterion is first / in the
    first three."""
    ranks = []
    for clause in covered:
        order = list(np.argsort(-matcher.index.scores(clause["text"]), kind="stable"))
        ranks.append(min(order.index(ids.index(a)) for a in clause["applicable"]))
    return np.mean([r < 1 for r in ranks]), np.mean([r < 3 for r in ranks])


def test_the_set_is_what_its_readme_says(dev: dict[str, Any]) -> None:
    kinds = [c["kind"] for c in dev["clauses"]]
    assert len(dev["criteria"]) >= 40 and len(dev["clauses"]) >= 100
    assert (kinds.count("exact"), kinds.count("content"), kinds.count("none")) == (22, 88, 15)
    ids = {c["criterion_id"] for c in dev["criteria"]}
    assert all(set(c["applicable"]) <= ids for c in dev["clauses"])
    assert all(bool(c["applicable"]) == (c["kind"] != "none") for c in dev["clauses"])


def test_exact_path_is_right_for_every_numbered_clause(dev: dict[str, Any]) -> None:
    matcher = Matcher(dev["criteria"])
    for clause in dev["clauses"]:
        got = matcher.match(clause)
        types = {m.match_type for m in got.matched_criteria}
        if clause["kind"] == "exact":
            assert [m.criterion_id for m in got.matched_criteria] == clause["applicable"]
            assert types == {"exact"}
        else:
            assert "exact" not in types, clause["clause_id"]


def test_content_ranking_beats_the_targets(dev: dict[str, Any]) -> None:
    matcher = _content_matcher(dev)
    ids = [c["criterion_id"] for c in dev["criteria"]]
    covered = [c for c in dev["clauses"] if c["kind"] == "content"]
    top1, top3 = _top1_top3(matcher, ids, covered)
    # Measured 0.88 / 0.99 (the character-bigram TF-IDF baseline: 0.72 / 0.89).
    assert top1 >= 0.84 and top3 >= 0.97, (top1, top3)


def test_nothing_applies_is_said_for_uncovered_clauses(dev: dict[str, Any]) -> None:
    matcher = _content_matcher(dev)
    results = matcher.match_many([c for c in dev["clauses"] if c["kind"] != "exact"])
    kinds = [c["kind"] for c in dev["clauses"] if c["kind"] != "exact"]
    said_none = [not r.has_criteria for r in results]
    none_right = np.mean([s for s, k in zip(said_none, kinds, strict=True) if k == "none"])
    covered_lost = np.mean([s for s, k in zip(said_none, kinds, strict=True) if k == "content"])
    # Measured: 12/15 uncovered clauses get nothing; 1/88 covered ones wrongly do.
    assert none_right >= 0.8 and covered_lost <= 0.03, (none_right, covered_lost)


def test_party_words_and_negation_do_not_drive_the_match() -> None:
    criteria = [
        {
            "criterion_id": "scope",
            "review_point": "许可使用范围",
            "baseline_text": "仅可在约定地域使用软件",
        },
        {
            "criterion_id": "cap",
            "review_point": "责任上限",
            "baseline_text": "赔偿总额以合同价款为限",
        },
    ]
    matcher = Matcher(criteria)
    # Every word of 许可方/被许可方 is a party's name, not the licence's scope.
    hit = matcher.match({"clause_id": "a", "text": "许可方对被许可方的赔偿总额以已付许可费为限。"})
    assert hit.matched_criteria[0].criterion_id == "cap"
    # Negated or not, the clause is about the same thing and scores the same.
    yes = matcher.index.scores("卖方承担赔偿总额以合同价款为限的责任。")
    no = matcher.index.scores("卖方不承担赔偿总额以合同价款为限的责任。")
    assert np.allclose(yes, no)


def test_a_template_limits_the_exact_path_to_its_own_contracts() -> None:
    criteria = [
        {"criterion_id": "conf", "clause_ref": "第八条", "template": "采购合同2024",
         "review_point": "保密期限", "baseline_text": "保密义务在合同终止后三年内有效"},
        {"criterion_id": "any", "clause_ref": "第九条", "review_point": "知识产权归属"},
    ]  # fmt: skip
    matcher = Matcher(criteria)
    ours = matcher.match({"clause_id": "a", "clause_ref": "8", "template": "采购合同2024",
                          "text": "本条不涉及保密。"})  # fmt: skip
    assert [(m.criterion_id, m.match_type) for m in ours.matched_criteria] == [("conf", "exact")]
    other = matcher.match({"clause_id": "b", "clause_ref": "8", "template": "租赁合同",
                           "text": "租金按季度支付。"})  # fmt: skip
    assert all(m.match_type == "semantic" for m in other.matched_criteria)
    unknown = matcher.match({"clause_id": "c", "clause_ref": "第8条", "text": "租金按季度支付。"})
    assert "conf" not in [m.criterion_id for m in unknown.matched_criteria]
    # A criterion without a template keeps the spec's behaviour, whatever the clause's template.
    plain = matcher.match({"clause_id": "d", "clause_ref": "9", "template": "租赁合同", "text": ""})
    assert [(m.criterion_id, m.match_type) for m in plain.matched_criteria] == [("any", "exact")]


@pytest.mark.parametrize(
    ("name", "floors"),
    [
        # written after the vocabulary was frozen; measured 0.84 / 0.97 / 7 of 8
        # (the character-bigram TF-IDF baseline: 0.72 / 0.91)
        ("match_zh_holdout.json", (0.80, 0.90, 0.85)),
        # written last, never chosen on: 0.71 / 0.96 / 5 of 6 (baseline: 0.67 / 0.92)
        ("match_zh_fresh.json", (0.70, 0.90, 0.80)),
    ],
)
def test_unseen_clauses_rank_and_say_nothing_applies(
    dev: dict[str, Any], name: str, floors: tuple[float, float, float]
) -> None:
    """Clauses of other contract types than the development set's: the numbers that say how
    the matcher generalises (tests/data/README.md)."""
    held = json.loads((DATA.parent / name).read_text("utf-8"))["clauses"]
    matcher = _content_matcher(dev)
    ids = [c["criterion_id"] for c in dev["criteria"]]
    covered = [c for c in held if c["applicable"]]
    top1, top3 = _top1_top3(matcher, ids, covered)
    assert top1 >= floors[0] and top3 >= floors[1], (top1, top3)
    results = matcher.match_many(held)
    none_right = np.mean(
        [not r.has_criteria for r, c in zip(results, held, strict=True) if not c["applicable"]]
    )
    assert none_right >= floors[2], none_right


ROLES = st.sampled_from(["甲方", "乙方", "出租人", "承租人", "许可方", "被许可方", "用人单位", "劳动者",
                         "借款人", "承包人", "发包人", "买方", "卖方"])  # fmt: skip
HAN = st.text(st.characters(min_codepoint=0x4E00, max_codepoint=0x9FA5), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(st.lists(st.tuples(ROLES, HAN), min_size=1, max_size=5), ROLES)
def test_which_party_a_clause_names_never_changes_its_scores(
    pieces: list[tuple[str, str]], other: str
) -> None:
    # The same clause with every party renamed scores the same against every criterion: the
    # roles tell what kind of contract it is, not what the clause is about.
    criteria = [
        {
            "criterion_id": "a",
            "review_point": "出租人负责房屋维修",
            "baseline_text": "承租人爱护房屋",
        },
        {
            "criterion_id": "b",
            "review_point": "许可使用范围",
            "baseline_text": "被许可方不得再许可",
        },
        {"criterion_id": "c", "review_point": "付款期限", "baseline_text": "买方收到发票后付款"},
    ]
    matcher = Matcher(criteria)
    text = "，".join(role + words for role, words in pieces)
    renamed = "，".join(other + words for _, words in pieces)
    assert np.allclose(matcher.index.scores(text), matcher.index.scores(renamed), atol=1e-6)


@settings(max_examples=30, deadline=None)
@given(HAN, st.floats(0.0, 0.5), st.floats(0.0, 0.5))
def test_a_higher_cut_off_never_adds_a_candidate(text: str, low: float, high: float) -> None:
    low, high = sorted((low, high))
    criteria = [{"criterion_id": f"k{i}", "review_point": p}
                for i, p in enumerate(["付款期限", "违约金比例", "保密期限", "争议解决"])]  # fmt: skip
    clause = {"clause_id": "x", "text": text}
    loose = Matcher(criteria, threshold=low).match(clause).matched_criteria
    strict = Matcher(criteria, threshold=high).match(clause).matched_criteria
    assert {m.criterion_id for m in strict} <= {m.criterion_id for m in loose}
    assert all(m.match_score >= high - 1e-4 for m in strict)  # scores are rounded to 4 places


class _Fixed:
    """An embedder whose cosines are set by hand: criterion i scores ``scores[i]``."""

    def __init__(self, scores: list[float], covered: float, floor: float) -> None:
        self.scores, self.covered, self.floor = scores, covered, floor

    def embed(self, texts: list[str]) -> np.ndarray:
        n = len(self.scores)
        if texts and texts[0].startswith("criterion"):  # the index embeds the criteria
            return np.eye(n + 1, dtype=np.float32)[:n]
        rest = max(0.0, 1.0 - sum(s * s for s in self.scores)) ** 0.5
        return np.array([[*self.scores, rest]] * len(texts), dtype=np.float32)

    def threshold_for(self, text: str) -> float:
        return self.floor

    def covered_threshold_for(self, text: str) -> float:
        return self.covered


@pytest.mark.parametrize(
    ("scores", "expected"),
    [
        ([0.30, 0.08, 0.05], ["k0", "k1"]),  # covered: the runner-up needs only the floor
        ([0.09, 0.08, 0.05], []),  # the best is below the covered cut-off: nothing applies
        ([0.10, 0.10, 0.10], ["k0", "k1", "k2"]),  # at the cut-off counts as reaching it
    ],
)
def test_nothing_applies_is_decided_on_the_best_candidate(
    scores: list[float], expected: list[str]
) -> None:
    criteria = [{"criterion_id": f"k{i}", "review_point": f"criterion {i}"} for i in range(3)]
    matcher = Matcher(criteria, _Fixed(scores, covered=0.10, floor=0.075))
    got = matcher.match({"clause_id": "x", "text": "clause"})
    assert [m.criterion_id for m in got.matched_criteria] == expected
    # An explicit threshold is the spec's single cut-off for every candidate, no second rule.
    strict = Matcher(criteria, _Fixed(scores, covered=0.10, floor=0.075), threshold=0.085)
    assert [
        m.criterion_id for m in strict.match({"clause_id": "x", "text": "c"}).matched_criteria
    ] == [f"k{i}" for i, s in enumerate(scores) if s >= 0.085]
