"""Regression guard for the default embedder on the real CUAD clauses (tests/data):
the numbers benchmarks/bench_match.py reports, with a small margin."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from genlint.match.embedders.lexical import LexicalEmbedder

# vendored with its origin and licence (tests/data/README.md): a fresh clone runs this guard
DATA = Path(__file__).resolve().parents[1] / "data" / "cuad_criteria.json"


@pytest.fixture(scope="module")
def cuad() -> dict:  # type: ignore[type-arg]
    return json.loads(DATA.read_text("utf-8"))  # type: ignore[no-any-return]


def test_default_embedder_top_k_on_cuad(cuad: dict) -> None:  # type: ignore[type-arg]
    ids = [c["criterion_id"] for c in cuad["criteria"]]
    criteria = [c["review_point"] for c in cuad["criteria"]]
    yes = [c for c in cuad["clauses"] if c["label"] == "Yes"]
    emb = LexicalEmbedder().fit(criteria)
    scores = emb.embed([c["text"] for c in yes]) @ emb.embed(criteria).T
    gold = np.array([ids.index(c["criterion_id"]) for c in yes])
    rank = (scores > scores[np.arange(len(gold)), gold][:, None]).sum(axis=1)
    top1, top3, top5 = ((rank < k).mean() for k in (1, 3, 5))
    # Measured 0.41 / 0.65 / 0.76 (all-MiniLM-L6-v2: 0.37 / 0.64 / 0.75; character TF-IDF:
    # 0.36 / 0.56 / 0.61). Without snowballstemmer the light stemmer gives 0.36 / 0.58 / 0.69.
    import genlint.match.embedders.lexical as lexical

    if lexical._stemmer()[0] == "snowball":
        assert top1 >= 0.39 and top3 >= 0.64 and top5 >= 0.74, (top1, top3, top5)
    else:
        assert top1 >= 0.33 and top3 >= 0.56 and top5 >= 0.67, (top1, top3, top5)


def test_calibrated_threshold_separates_yes_from_no(cuad: dict) -> None:  # type: ignore[type-arg]
    ids = [c["criterion_id"] for c in cuad["criteria"]]
    emb = LexicalEmbedder().fit([c["review_point"] for c in cuad["criteria"]])
    crit = emb.embed([c["review_point"] for c in cuad["criteria"]])
    clauses = cuad["clauses"]
    vecs = emb.embed([c["text"] for c in clauses])
    s = np.einsum("ij,ij->i", vecs, crit[[ids.index(c["criterion_id"]) for c in clauses]])
    is_yes = np.array([c["label"] == "Yes" for c in clauses])
    kept = (s[is_yes] >= emb.threshold).mean()
    rejected = (s[~is_yes] < emb.threshold).mean()
    # Measured 0.79 / 0.80 at the calibrated 0.12 (benchmarks/bench_match.py).
    assert kept >= 0.78 and rejected >= 0.75, (kept, rejected)
    assert (s[is_yes] >= 0.5).mean() < 0.05  # why the spec's 0.5 cannot be this embedder's cut
