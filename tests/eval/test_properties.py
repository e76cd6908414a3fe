"""Properties: any well-shaped input evaluates without crashing, and the numbers are coherent."""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.eval import evaluate
from genlint.eval.models import REASONS

NAMES = st.sampled_from(
    ["AuthService.checkPermission", "HogosyaEntity", "@Transactional", "x", "更新表", "a.b_c", ""]
)
KINDS = st.sampled_from(
    ["calls", "writes", "annotations", "conditions", "method", "reads", "CALLS", ""]
)
WORDS = st.sampled_from(
    ["调用", "写入", "删除", "确保", "为了", "该方法处理相关业务逻辑", "可以", "，", "。", "calls", "writes",
     "so that", "を呼び出す", "更新できるか", "@Transactional", "HogosyaEntity", " ", "<script>"]
)  # fmt: skip
TEXT = st.one_of(st.text(max_size=60), st.lists(st.one_of(WORDS, NAMES), max_size=12).map("".join))
REF = st.one_of(st.builds(lambda k, n: f"{k}:{n}", KINDS, NAMES), st.text(max_size=20))
FACT = st.fixed_dictionaries(
    {"id": st.sampled_from(["method:m", "method:n"])},
    optional={
        k: st.lists(NAMES, max_size=4) for k in ("calls", "writes", "annotations", "conditions")
    },
)
PAGE = st.fixed_dictionaries(
    {
        "method": st.sampled_from(["m", "n", "missing"]),
        "claims": st.lists(
            st.fixed_dictionaries({"text": TEXT, "fact_refs": st.lists(REF, max_size=4)}),
            max_size=8,
        ),
    }
)


@settings(max_examples=150, deadline=None)
@given(facts=st.lists(FACT, max_size=3), wiki=st.one_of(PAGE, st.lists(PAGE, max_size=3)))
def test_evaluate_never_crashes_and_is_coherent(facts: list, wiki: dict | list) -> None:
    result = evaluate({"facts": facts}, wiki)
    out = result.to_dict()
    json.dumps(out, ensure_ascii=False)
    pages = wiki if isinstance(wiki, list) else [wiki]
    for name, value in out["metrics"].items():
        assert 0.0 <= value <= 1.0, name
    claims = sum(len(p["claims"]) for p in pages)
    assert result.counts.claims == claims
    for v in out["violations"]:
        longest = max(len(p["claims"]) for p in pages if p["method"] == v["page"])
        assert 0 <= v["claim_index"] < longest
        assert v["reason"] in REASONS and v["detail"]
    # a claim without references is always a hallucination
    no_refs = sum(1 for p in pages for c in p["claims"] if not c["fact_refs"])
    assert result.counts.hallucinated >= no_refs
    # pass is exactly the four thresholds
    m, t = result.metrics, result.thresholds
    expected = (
        m.faithfulness >= t.faithfulness - 1e-9
        and m.hallucination_rate <= t.hallucination_rate + 1e-9
        and m.key_fact_recall >= t.key_fact_recall - 1e-9
        and m.redundancy_rate <= t.redundancy_rate + 1e-9
    )
    assert result.passed is expected
    assert ("pages" in out) is isinstance(wiki, list)


@settings(max_examples=100, deadline=None)
@given(text=TEXT)
def test_claim_order_only_changes_redundancy(text: str) -> None:
    """Swapping two claims never changes which claims are hallucinated or their wording findings."""
    facts = {"facts": [{"id": "method:m", "calls": ["A.b"], "writes": ["E"]}]}
    a = {"text": text, "fact_refs": ["calls:A.b"]}
    b = {"text": "写入 E", "fact_refs": ["writes:E"]}
    one = evaluate(facts, {"method": "m", "claims": [a, b]})
    two = evaluate(facts, {"method": "m", "claims": [b, a]})
    strip = lambda r: sorted((v.claim, v.reason) for v in r.violations if v.reason != "redundant")  # noqa: E731
    assert strip(one) == strip(two)
    assert one.metrics.key_fact_recall == two.metrics.key_fact_recall == 1.0


def test_same_fact_id_in_another_facts_file_is_not_confused() -> None:
    """Caches shared between calls must not carry one facts file's entries into the next."""
    wiki = {"method": "m", "claims": [{"text": "为了确保安全调用 A.b", "fact_refs": ["calls:A.b"]}]}
    first = evaluate({"facts": [{"id": "method:m", "calls": ["A.b"]}]}, wiki)
    second = evaluate({"facts": [{"id": "method:m", "calls": ["A.b", "Safety.ensure"]}]}, wiki)
    assert [v.reason for v in first.violations] == ["over_inference"]
    assert second.uncovered_facts == ("calls:Safety.ensure",)
    # 确保 is now stated by a fact (Safety.ensure), so it is no longer over-inference
    assert [v.detail for v in second.violations] == ["'为了'"]


def test_page_finds_a_qualified_method_fact() -> None:
    facts = {"facts": [{"id": "method:HogosyaController.changeHogosyaJoho", "calls": ["A.b"]}]}
    wiki = {
        "method": "changeHogosyaJoho",
        "claims": [{"text": "调用 A.b", "fact_refs": ["calls:A.b"]}],
    }
    assert evaluate(facts, wiki).passed is True
    # and the other way round: a qualified page name, a short fact id
    short = {"facts": [{"id": "method:changeHogosyaJoho", "calls": ["A.b"]}]}
    assert evaluate(short, {**wiki, "method": "HogosyaController.changeHogosyaJoho"}).passed is True
    # ambiguous short names are not guessed
    facts["facts"].append({"id": "method:Other.changeHogosyaJoho", "calls": ["A.b"]})
    assert evaluate(facts, wiki).counts.hallucinated == 1
