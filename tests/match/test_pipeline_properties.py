"""Properties of the pipeline without an LLM, over arbitrary text."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.match import match_criteria
from genlint.match.clause_ref import normalize_clause_ref

REFS = st.sampled_from(["", "4.1", "第4.1条", "Clause 4.2", "第五条", "§7", "Definitions", "x"])
TEXT = st.text(
    st.characters(codec="utf-8", exclude_categories=("Cs",)), min_size=1, max_size=60
).filter(str.strip)
CRITERION = st.builds(
    lambda i, ref, point: {"criterion_id": f"c{i}", "clause_ref": ref, "review_point": point},
    st.integers(0, 10_000), REFS, TEXT,
)  # fmt: skip


@settings(max_examples=60, deadline=None)
@given(st.lists(CRITERION, max_size=8, unique_by=lambda c: c["criterion_id"]), REFS, TEXT)
def test_never_crashes_and_keeps_the_contract(criteria: list[dict], ref: str, text: str) -> None:  # type: ignore[type-arg]
    out = match_criteria({"clause_id": "k", "clause_ref": ref, "text": text}, criteria)
    found = out.matched_criteria
    assert out.total_matched == len(found) <= 3 and out.has_criteria is bool(found)
    assert out.llm_filtered is False and all(c.applicable for c in found)
    assert [c.match_score for c in found] == sorted((c.match_score for c in found), reverse=True)
    exact = [c for c in criteria if normalize_clause_ref(c["clause_ref"]) not in (None,)
             and normalize_clause_ref(c["clause_ref"]) == normalize_clause_ref(ref)]  # fmt: skip
    if exact:
        assert {c.match_type for c in found} == {"exact"}
        assert [c.criterion_id for c in found] == [c["criterion_id"] for c in exact][:3]
    else:
        # The lexical embedder's floors: the best reaches the "covered" cut-off (0.10 Chinese,
        # 0.12 English), the runners-up 3/4 of it.
        assert all(c.match_type == "semantic" and c.match_score >= 0.075 for c in found)
        assert not found or found[0].match_score >= 0.0999


def test_reference_only_inputs_match_exactly() -> None:
    criteria = [
        {"criterion_id": 7, "clause_ref": "第4.1条"},
        {"criterion_id": "b", "clause_ref": "4.2"},
    ]
    out = match_criteria({"clause_id": 1, "clause_ref": "Section 4.1"}, criteria)
    assert out.to_dict() == {
        "clause_id": "1",
        "matched_criteria": [{
            "criterion_id": "7", "clause_ref": "第4.1条", "review_point": "", "risk_level": "",
            "baseline_text": "", "suggested_action": "", "match_type": "exact", "match_score": 1.0,
            "applicable": True,
            "applicability_reason": "clause reference 'Section 4.1' matches the criterion's exactly",
        }],
        "total_matched": 1, "has_criteria": True, "llm_filtered": False,
    }  # fmt: skip
    assert match_criteria({"clause_id": "x", "clause_ref": "9"}, criteria).matched_criteria == []
