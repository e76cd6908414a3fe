"""Embedders, the on-disk cache and the top-k index."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from genlint.errors import InputError, MissingExtraError
from genlint.llm.testing import ScriptedServer, hashed_embedding
from genlint.match import Matcher
from genlint.match.cache import CachedEmbedder
from genlint.match.embedders import Embedder, make_embedder
from genlint.match.embedders.lexical import (
    LexicalEmbedder,
    document_features,
    features,
    sentences,
)
from genlint.match.embedders.openai_endpoint import OpenAIEmbedder
from genlint.match.index import VectorIndex, top_k


class CountingEmbedder:
    """A real (tiny) embedder that counts what it was asked to embed."""

    name = "counting-v1"
    threshold = 0.0

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts):  # type: ignore[no-untyped-def]
        self.calls.append(list(texts))
        return np.asarray([hashed_embedding(t, 16) for t in texts], dtype=np.float32)


# -- lexical -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("query", "best", "others"),
    [
        ("This Agreement shall be governed by the laws of the State of New York.",
         "Governing law: which jurisdiction's law governs the contract",
         ["Insurance the supplier must maintain", "Payment terms and invoices"]),
        ("The Supplier shall maintain general liability insurance coverage of $1,000,000.",
         "Insurance the supplier must maintain",
         ["Governing law: which jurisdiction's law governs the contract", "Payment terms and invoices"]),
        ("本合同适用中华人民共和国法律，争议提交仲裁委员会仲裁。", "争议解决与法律适用",
         ["保密义务期限", "付款期限与发票"]),
        ("买方应在收到发票后三十日内支付价款。", "付款期限与发票", ["保密义务期限", "争议解决与法律适用"]),
    ],
)  # fmt: skip
def test_lexical_ranks_the_related_criterion_first(
    query: str, best: str, others: list[str]
) -> None:
    texts = [best, *others]
    emb = LexicalEmbedder().fit(texts)
    scores = emb.embed(texts) @ emb.embed([query])[0]
    assert int(np.argmax(scores)) == 0, scores


def test_lexical_vectors_are_unit_rows_and_stable_across_processes() -> None:
    emb = LexicalEmbedder(dims=64)
    vec = emb.embed(["付款期限30天", "", "Payment within 30 days"])
    assert vec.shape == (3, 64) and vec.dtype == np.float32
    assert np.allclose(np.linalg.norm(vec[[0, 2]], axis=1), 1.0, atol=1e-5)
    assert not vec[1].any()
    code = ("from genlint.match.embedders.lexical import LexicalEmbedder as L;"
            "print(L(dims=64).embed(['付款期限30天'])[0].round(5).tolist())")  # fmt: skip
    other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "123", "PATH": "",
                                "PYTHONPATH": os.environ.get("PYTHONPATH", "")})  # fmt: skip
    assert other.stdout.strip() == str(vec[0].round(5).tolist())


def test_lexical_name_changes_with_what_it_was_fitted_on() -> None:
    a = LexicalEmbedder().fit(["付款", "仲裁"]).name
    assert a == LexicalEmbedder().fit(["付款", "仲裁"]).name
    assert a != LexicalEmbedder().fit(["付款", "保密"]).name


def test_features_join_wordings_through_concepts() -> None:
    assert "g:governing_law" in features("governed by the laws of Delaware")
    assert "g:payment" in features("付款方式应支持电汇") and "g:payment" in features("支付价款")
    stems = [features(w) for w in ("terminate", "termination", "terminated", "terminating")]
    assert all("w:termin" in f for f in stems)


@given(st.text(max_size=80))
def test_lexical_never_crashes(text: str) -> None:
    vec = LexicalEmbedder(dims=32).embed([text])
    assert vec.shape == (1, 32) and np.isfinite(vec).all()


# -- protocol, registry --------------------------------------------------------------------------
def test_every_embedder_satisfies_the_protocol(tmp_path: Path) -> None:
    assert isinstance(LexicalEmbedder(), Embedder)
    assert isinstance(OpenAIEmbedder("m"), Embedder)
    assert isinstance(CachedEmbedder(LexicalEmbedder(), tmp_path), Embedder)


def test_sentence_transformers_without_the_extra_names_it(tmp_path: Path) -> None:
    emb = make_embedder(f"st:{tmp_path}")
    if "sentence_transformers" in sys.modules or _importable("sentence_transformers"):
        pytest.skip("sentence-transformers is installed here")
    with pytest.raises(MissingExtraError, match=r"genlint\[match-st\]"):
        emb.embed(["x"])


def _importable(name: str) -> bool:
    import importlib.util

    return importlib.util.find_spec(name) is not None


@pytest.mark.parametrize("spec", ["bert", "openai:", "st:", "lexical:x"])
def test_unknown_embedder_spec(spec: str) -> None:
    with pytest.raises(InputError, match="unknown embedder"):
        make_embedder(spec)


# -- OpenAI-compatible endpoint ------------------------------------------------------------------
def test_openai_endpoint_embedder_against_a_local_server(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("EMB_TEST_KEY", "sk-embed-secret")
    texts = [f"criterion {i}" for i in range(23)]
    with ScriptedServer([]) as server:
        emb = OpenAIEmbedder("text-embedding-v3", base_url=server.url, api_key_env="EMB_TEST_KEY")
        vec = emb.embed(texts)
        batches = [len(r["input"]) for r in server.requests]
    assert batches == [10, 10, 3]  # DashScope's limit of 10 inputs a request
    expected = np.asarray([hashed_embedding(t) for t in texts], dtype=np.float32)
    assert np.allclose(vec, expected, atol=1e-6)
    assert "sk-embed-secret" not in repr(emb)


def test_openai_endpoint_down_is_an_input_error() -> None:
    emb = OpenAIEmbedder("m", base_url="http://127.0.0.1:9/v1", timeout=2.0)
    with pytest.raises(InputError, match="embedding endpoint"):
        emb.embed(["x"])


def test_a_criterions_concept_groups_come_from_its_review_point() -> None:
    criterion = "保密期限\n保密义务在合同终止后继续有效"
    as_document = document_features(criterion)
    assert "g:confidentiality" in as_document and "g:termination" not in as_document
    assert as_document["z:终止"] == 1  # the baseline's words still count, as words
    # A clause is not a criterion: every concept of its text counts.
    assert "g:termination" in features(criterion)
    # One line only: that line is the topic.
    assert "g:termination" in document_features("合同终止")


@pytest.mark.parametrize(
    "clause", ["任何一方提出终止合同，需提前书面通知对方。", "出租人有权提前终止本合同并收回房屋。"]
)
def test_an_incidental_word_in_a_baseline_does_not_win_the_clause(clause: str) -> None:
    # With the baseline's concepts, "终止" made the confidentiality-term criterion the best
    # match for a termination clause (0.105 against 0.057 for the first clause).
    criteria = [
        {"criterion_id": "CONF-TERM", "review_point": "保密期限",
         "baseline_text": "保密义务在合同终止后继续有效，保密期限不少于三年"},
        {"criterion_id": "TERMINATION", "review_point": "合同解除条件",
         "baseline_text": "一方严重违约，经催告后在合理期限内仍未履行的，守约方有权解除合同"},
    ]  # fmt: skip
    (best, _), _ = Matcher(criteria).index.search(clause, k=2, threshold=0)
    assert criteria[best]["criterion_id"] == "TERMINATION"


def test_concept_terms_keep_their_negation_particle() -> None:
    # 不 is cut out before segmenting, not before the concept terms are looked up.
    assert "g:force_majeure" in features("如遇不可抗力致使合同无法履行")
    assert "g:liability_cap" in features("赔偿责任累计不超过合同总价")
    assert "c:不可" not in features("如遇不可抗力致使合同无法履行")


def test_fitted_features_get_columns_of_their_own() -> None:
    criteria = [
        f"criterion {word} obligations"
        for word in ("payment", "insurance", "audit", "escrow", "warranty", "assignment")
    ] * 40
    criteria += [f"第{i}项 付款期限 保险 审计 {i}" for i in range(300)]  # ~300 distinct features
    emb = LexicalEmbedder(dims=64).fit(criteria)
    assert emb.width > 300 and str(emb.width) in emb.name
    docs = emb.embed_documents(criteria[:6])
    # No two features share a column: a clause sharing no feature scores exactly 0.
    query = emb.embed(["escrow escrow"])[0]
    scores = docs @ query
    assert scores[3] > 0.3 and np.count_nonzero(scores) == 1


def test_a_large_criteria_matrix_is_hashed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(LexicalEmbedder, "_EXACT_BUDGET", 100)
    emb = LexicalEmbedder(dims=64).fit([f"criterion {i} payment" for i in range(50)])
    assert emb.width == 64 and emb.embed(["payment"]).shape == (1, 64)


def test_criteria_without_any_feature_match_nothing() -> None:
    emb = LexicalEmbedder(dims=32).fit(["0", "的"])
    assert not emb.embed_documents(["0"]).any()
    assert not (emb.embed_documents(["0", "的"]) @ emb.embed(["00 payment"])[0]).any()


# -- cache ---------------------------------------------------------------------------------------
def test_cache_embeds_each_text_once_across_instances(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    first = CachedEmbedder(inner, tmp_path).embed(["a", "b", "a"])
    second_inner = CountingEmbedder()
    cached = CachedEmbedder(second_inner, tmp_path)
    again = cached.embed(["b", "a", "c"])
    assert inner.calls == [["a", "b"]]
    assert second_inner.calls == [["c"]]
    assert np.array_equal(again[:2], first[[1, 0]])
    assert (cached.hits, cached.misses) == (2, 1)
    assert [p.suffix for p in tmp_path.iterdir()] == [".npz"]  # no temporary file left behind


def test_cache_is_keyed_by_model(tmp_path: Path) -> None:
    CachedEmbedder(CountingEmbedder(), tmp_path).embed(["a"])
    other = CountingEmbedder()
    other.name = "counting-v2"
    CachedEmbedder(other, tmp_path).embed(["a"])
    assert other.calls == [["a"]]


def test_corrupt_cache_is_ignored_and_rewritten(tmp_path: Path) -> None:
    cached = CachedEmbedder(CountingEmbedder(), tmp_path)
    cached.embed(["a"])
    (path,) = tmp_path.iterdir()
    path.write_bytes(b"not a zip file")
    inner = CountingEmbedder()
    vec = CachedEmbedder(inner, tmp_path).embed(["a"])
    assert inner.calls == [["a"]] and vec.shape == (1, 16)
    assert CachedEmbedder(CountingEmbedder(), tmp_path).embed(["a"]).shape == (1, 16)


def test_index_uses_the_cache_for_criteria_only(tmp_path: Path) -> None:
    inner = CountingEmbedder()
    index = VectorIndex(inner, ["alpha", "beta"], cache_dir=tmp_path)
    index.search("alpha")
    VectorIndex(inner, ["alpha", "beta"], cache_dir=tmp_path)
    assert inner.calls == [["alpha", "beta"], ["alpha"]]


class TwoRoleEmbedder(CountingEmbedder):
    """Embeds the indexed texts (documents) unlike queries, as the lexical embedder does."""

    name = "two-role-v1"

    def __init__(self) -> None:
        super().__init__()
        self.document_calls: list[list[str]] = []

    def embed_documents(self, texts):  # type: ignore[no-untyped-def]
        self.document_calls.append(list(texts))
        return np.asarray([hashed_embedding("doc:" + t, 16) for t in texts], dtype=np.float32)


def test_cache_keeps_documents_apart_from_queries(tmp_path: Path) -> None:
    inner = TwoRoleEmbedder()
    as_document = CachedEmbedder(inner, tmp_path).embed_documents(["a"])
    as_query = CachedEmbedder(inner, tmp_path).embed(["a"])
    again = CachedEmbedder(inner, tmp_path).embed_documents(["a"])
    assert inner.document_calls == [["a"]] and inner.calls == [["a"]]
    assert np.array_equal(again, as_document) and not np.array_equal(as_query, as_document)
    # An embedder without embed_documents is asked its embed, from the same file as before.
    plain = CountingEmbedder()
    CachedEmbedder(plain, tmp_path).embed(["b"])
    later = CountingEmbedder()
    CachedEmbedder(later, tmp_path).embed_documents(["b"])
    assert plain.calls == [["b"]] and later.calls == []


def test_the_index_embeds_criteria_as_documents_and_clauses_as_queries(tmp_path: Path) -> None:
    inner = TwoRoleEmbedder()
    index = VectorIndex(inner, ["alpha", "beta"], cache_dir=tmp_path)
    index.search("alpha")
    index.search_many(["beta"])
    assert inner.document_calls == [["alpha", "beta"]]
    assert inner.calls == [["alpha"], ["beta"]]


def test_a_clause_splits_into_its_sentences() -> None:
    text = "乙方应按月支付租金。逾期付款的，每日按万分之五支付违约金；有下列情形之一的：１、拖欠租金三个月"
    assert sentences(text) == [
        "乙方应按月支付租金。",
        "逾期付款的，每日按万分之五支付违约金；",
        "有下列情形之一的：",
        "１、拖欠租金三个月",
    ]
    assert sentences("乙方应按月支付租金。") == []  # one sentence: the whole is enough
    assert sentences("见附件。（略）") == []  # pieces under six characters are not parts


class PartsEmbedder(CountingEmbedder):
    """Scores a clause by its comma-separated parts too, each worth 0.9 of its cosine."""

    name = "parts-v1"
    part_share = 0.9

    def parts(self, text):  # type: ignore[no-untyped-def]
        pieces = text.split(",")
        return pieces if len(pieces) > 1 else []


def test_a_part_can_lift_a_criterion_to_its_share_of_the_parts_cosine() -> None:
    index = VectorIndex(PartsEmbedder(), ["alpha", "beta", "gamma"])
    whole = index.scores_for_vector(_unit(hashed_embedding("alpha,beta", 16)))
    by_part = [index.scores_for_vector(_unit(hashed_embedding(t, 16))) for t in ("alpha", "beta")]
    expected = np.maximum(whole, 0.9 * np.max(by_part, axis=0))
    assert not np.allclose(expected, whole)  # the parts do lift something here
    assert np.allclose(index.scores("alpha,beta"), expected, atol=1e-6)
    # search_many embeds the parts in the same call and combines them the same way
    (many,) = index.search_many(["alpha,beta"], k=3, threshold=-1)
    assert [i for i, _ in many] == [i for i, _ in index.search("alpha,beta", k=3, threshold=-1)]
    assert np.allclose([v for _, v in many], sorted(expected, reverse=True), atol=1e-6)


def _unit(v: np.ndarray) -> np.ndarray:
    return np.asarray(v, dtype=np.float32) / np.linalg.norm(v)


@settings(max_examples=25, deadline=None)
@given(
    st.lists(
        st.text(alphabet="付款期限仲裁保密。；：１、 abc", min_size=1, max_size=30),
        min_size=1,
        max_size=6,
    )
)
def test_search_many_equals_search_one_by_one(queries: list[str]) -> None:
    criteria = ["付款期限", "仲裁", "保密期限", "abc"]
    index = VectorIndex(LexicalEmbedder(), criteria)
    one_by_one = [index.search(q, k=3) for q in queries]
    many = index.search_many(queries, k=3)
    assert [[i for i, _ in r] for r in many] == [[i for i, _ in r] for r in one_by_one]
    for a, b in zip(many, one_by_one, strict=True):
        assert np.allclose([v for _, v in a], [v for _, v in b], atol=1e-5)


# -- index ---------------------------------------------------------------------------------------
@given(
    arrays(np.float32, st.integers(0, 60), elements=st.floats(-1, 1, width=32)), st.integers(0, 70)
)
def test_top_k_equals_a_full_stable_sort(scores: np.ndarray, k: int) -> None:
    expected = sorted(range(len(scores)), key=lambda i: (-scores[i], i))[:k]
    assert top_k(scores, k).tolist() == expected


def test_search_applies_the_threshold_and_k() -> None:
    emb = LexicalEmbedder()
    index = VectorIndex(emb, ["付款期限", "付款方式", "仲裁机构", "保密期限"])
    hits = index.search("付款期限为三十日", k=2, threshold=0.0)
    assert len(hits) == 2 and hits[0][0] == 0 and hits[0][1] >= hits[1][1]
    assert index.search("付款期限为三十日", k=4, threshold=0.99) == []
    assert VectorIndex(emb, []).search("x") == []


class BareEmbedder:
    """Only ``embed``, returning plain lists of unnormalised vectors: what a user might pass."""

    def embed(self, texts):  # type: ignore[no-untyped-def]
        return [[3.0 * (("付款" in t) or 0.01), 4.0 * (("仲裁" in t) or 0.01)] for t in texts]


def test_a_bare_embedder_gets_unit_rows_and_the_spec_threshold(tmp_path: Path) -> None:
    from genlint.match import match_criteria

    criteria = [
        {"criterion_id": "pay", "review_point": "付款期限"},
        {"criterion_id": "arb", "review_point": "仲裁机构"},
    ]
    out = match_criteria(
        {"clause_id": "k", "text": "付款与仲裁"}, criteria, embedder=BareEmbedder()
    )
    # clause (3, 4)/5 against (1, .0133) and (.0075, 1): cosines 0.61 and 0.80, both >= 0.5
    assert [c.criterion_id for c in out.matched_criteria] == ["arb", "pay"]
    assert 0.79 < out.matched_criteria[0].match_score <= 0.81
    out = match_criteria({"clause_id": "k", "text": "付款"}, criteria, embedder=BareEmbedder())
    assert [c.criterion_id for c in out.matched_criteria] == ["pay"]  # arb's cosine is ~0.01
    cached = CachedEmbedder(BareEmbedder(), tmp_path)
    assert cached.name == "BareEmbedder" and cached.threshold == 0.5


@given(st.lists(st.text(alphabet="付款期限仲裁保密 abcdeflicensterm", min_size=1, max_size=30), min_size=1, max_size=12),
       st.text(alphabet="付款期限仲裁保密 abcdeflicensterm", max_size=40))  # fmt: skip
def test_inverted_index_scores_equal_the_dense_product(texts: list[str], query: str) -> None:
    emb = LexicalEmbedder(dims=256)
    index = VectorIndex(emb, texts)
    assert index._postings is not None  # hashed TF-IDF is sparse: the postings path runs
    q = emb.embed([query])[0]
    assert np.allclose(index.scores_for_vector(q), index.matrix @ q, atol=1e-5)
