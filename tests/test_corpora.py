"""The labelled real-document corpora beside the repository (../shared/corpora: realdocs-dev,
realdocs-own, realdocs-2, realdocs-3), scored by benchmarks/bench_realdocs.py in `make test`.

A regression guard, not a target: each floor is the figure measured when it was set (the
closing note of the change that set it, docs/benchmarks.md "Real documents"). A user's clone
has no ../shared: the test skips and says so."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[1]

# corpus: (least recall over all items, most false alarms, least verdicts right)
FLOORS_OWN_TABLE = {
    "realdocs-dev": (169 / 176, 0, 37 / 37),
    "realdocs-own": (304 / 307, 2, 67 / 70),
}
# corpus: (least macro recall, most false alarms, least share of verdicts right)
FLOORS_LABELLED = {
    "realdocs-2": (0.91, 4, 27 / 30),
    "realdocs-3": (0.77, 11, 27 / 33),
}
# the summary rounds to two places; a figure is held, not its rounding
_EPS = 1e-9


def _bench() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_realdocs", ROOT / "benchmarks" / "bench_realdocs.py"
    )
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["bench_realdocs"] = module
    spec.loader.exec_module(module)
    return module


BENCH = _bench()
pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        not BENCH.SHARED_CORPORA.is_dir(),
        reason=f"no {BENCH.SHARED_CORPORA}: the shared corpora are not beside this clone",
    ),
]


@pytest.mark.parametrize("name", sorted(FLOORS_OWN_TABLE))
def test_corpus_scored_by_the_bench_table_holds_its_floor(name: str) -> None:
    labels = BENCH.DEV_DEFAULT if name == "realdocs-dev" else BENCH.OWN_DEFAULT
    files = None if name == "realdocs-dev" else BENCH.OWN_FILES_DEFAULT
    if not (labels / "expect.jsonl").is_file() or (files is not None and not files.is_dir()):
        pytest.skip(f"{name} is not beside this clone")
    results = BENCH.run_cases(labels, None, files)
    score = BENCH.score(results)
    least_recall, most_alarms, least_verdicts = FLOORS_OWN_TABLE[name]
    assert score.skipped == 0, f"{score.skipped} labelled files not found"
    recall = sum(score.found.values()) / max(1, sum(score.total.values()))
    assert recall >= least_recall - _EPS, score.misses
    assert sum(score.alarms.values()) <= most_alarms, score.misses
    assert score.verdicts / max(1, score.files) >= least_verdicts - _EPS, score.misses


@pytest.mark.parametrize("name", sorted(FLOORS_LABELLED))
def test_corpus_scored_by_score_labelled_holds_its_floor(name: str) -> None:
    figures = BENCH.score_labelled(name)
    if figures is None:
        pytest.skip(f"{name} is not beside this clone")
    least_macro, most_alarms, least_verdicts = FLOORS_LABELLED[name]
    assert figures["macro"] >= least_macro - _EPS, (figures["summary"], figures["problems"])
    assert figures["alarms"] <= most_alarms, (figures["summary"], figures["problems"])
    assert figures["right"] / figures["files"] >= least_verdicts - _EPS, figures["summary"]
