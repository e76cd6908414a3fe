"""The differential campaign as a test (issue 24): replies generated with their meant value known
by construction (replies.py, scored by scoring.py), for every category, must never come back as a clean success that
is not the meant value (a silent loss), nor be flagged lossy with nothing missing.

A fixed seed in CI (the ``ci`` hypothesis profile derandomises); ``make fuzz`` runs many more
seeds (the ``fuzz`` profile). The aggregate test holds the issue's targets on a batch of its own
seed.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import parse_json
from parse.replies import GENERATORS, Case, big_one_defect, make_cases
from parse.scoring import Tally, score

# Per category; the fuzz profile's budget is shared among the categories.
_EXAMPLES = max(10, settings.default.max_examples // 10)


def _parsed(case: Case) -> tuple[Any, Any]:
    """The funnel's result on ``case`` and its verdict against what the case was built from."""
    result = parse_json(case.text)
    verdict = score(
        case,
        result.ok,
        result.value,
        lossy=result.lossy,
        guessed=result.guessed,
        truncated=result.truncated,
    )
    return result, verdict


def _check(case: Case) -> None:
    result, verdict = _parsed(case)
    where = f"{case.category}: {case.text[:300]!r} -> {str(result.value)[:300]} {result.repairs}"
    assert not verdict.silent_loss, f"silent loss: {where}"
    assert not verdict.false_flag, f"flagged lossy with nothing missing: {where}"
    if case.cut and result.ok and not result.lossy:
        assert result.truncated, f"a cut reply not marked truncated: {where}"


@pytest.mark.parametrize("category", sorted(GENERATORS))
@settings(max_examples=_EXAMPLES, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_fuzz_no_silent_loss_and_no_false_flag(category: str, seed: int) -> None:
    rng = random.Random(seed)
    if category == "big one defect":
        # documents of ~2 KB to ~90 KB: over the json-repair limit, fast enough for the suite
        case = big_one_defect(rng, (50, 400, 2000))
    else:
        case = GENERATORS[category](rng)
    _check(case)


def test_fuzz_batch_meets_the_targets() -> None:
    cases = make_cases(20261127, 25, big_sizes=(50, 400, 2000))
    total = Tally()
    for case in cases:
        total.add(_parsed(case)[1], 0.0, case)
    assert total.exact / total.cases >= 0.95, total.row()
    assert total.silent_loss / total.cases <= 0.01, (total.row(), total.examples)
    assert total.false_flag / total.cases <= 0.005, (total.row(), total.examples)


def test_the_scoring_catches_a_wrong_answer() -> None:
    # the score is what the tests above rely on: a parser that drops a record or misses a cut
    # must be caught
    case = GENERATORS["valid"](random.Random(1))
    value = case.truth if isinstance(case.truth, list) else case.truth["results"]
    wrong = value[:-1] if len(value) > 1 else [{"id": -1}]
    verdict = score(
        case,
        True,
        wrong if isinstance(case.truth, list) else {"results": wrong},
        lossy=False,
        guessed=False,
        truncated=False,
    )
    assert verdict.silent_loss and not verdict.exact
    cut = GENERATORS["truncated"](random.Random(3))
    kept = {"results": cut.complete} if cut.wrap else cut.complete
    unsaid = score(cut, True, kept, lossy=False, guessed=False, truncated=False)
    assert unsaid.silent_loss  # right value, but the cut was not said
    said = score(cut, True, kept, lossy=False, guessed=False, truncated=True)
    assert said.exact and not said.silent_loss
