"""Large and hostile input: bounded time, a reason in errors, the right value when there is one.

The issue's bound is 1 s for 1 MB of garbage; the assertions allow 3 s so a loaded machine
does not fail them, and the benchmark reports the real figure.
"""

from __future__ import annotations

import random
import time

import orjson
import pytest

from genlint import parse_json

LIMIT_S = 3.0


def _garbage(size: int, seed: int) -> str:
    rng = random.Random(seed)
    alphabet = "{}[]\",:'\\ abc123.-“”：，\n"
    return "".join(rng.choice(alphabet) for _ in range(size))


def _timed(text: str, **kwargs: object) -> tuple[float, object]:
    start = time.perf_counter()
    result = parse_json(text, **kwargs)  # type: ignore[arg-type]
    return time.perf_counter() - start, result


@pytest.mark.parametrize(
    "text",
    [
        _garbage(1_000_000, 1),
        '{"a": "' + "x, " * 340_000,  # json-repair's worst case: an unclosed string of commas
        "[" * 200_000,  # nesting far beyond any recursion limit
        "Score: " * 150_000,
    ],
    ids=["random-punctuation", "unclosed-string-of-commas", "deep-nesting", "repeated-keys"],
)
def test_one_megabyte_of_garbage_is_answered_in_bounded_time(text: str) -> None:
    elapsed, result = _timed(text, fields=["score", "reason"])
    assert elapsed < LIMIT_S, f"{elapsed:.2f}s"
    assert result.errors  # type: ignore[attr-defined]


# Inputs that once made a step super-linear: a scan restarting at every repeated unit.
HOSTILE_UNITS = ["```", "{“a", '"a":"', "［", '"a"+', "[", "<think>", "Score: "]


@pytest.mark.parametrize("unit", HOSTILE_UNITS)
@pytest.mark.parametrize(
    "kwargs",
    [{}, {"fields": ["score", "reason"]}, {"schema": {}}],
    ids=["plain", "fields", "schema"],
)
def test_repeated_hostile_unit_is_answered_in_bounded_time(
    unit: str, kwargs: dict[str, object]
) -> None:
    parse_json("{}", schema={})  # the first JSON Schema use imports jsonschema; not measured
    text = unit * (1_000_000 // len(unit) + 1)
    elapsed, _ = _timed(text, **kwargs)
    assert elapsed < LIMIT_S, f"{elapsed:.2f}s"


def test_garbage_says_why_repair_was_not_tried_in_full() -> None:
    _, result = _timed(_garbage(1_000_000, 2))
    repaired = next(e for e in result.errors if e.startswith("repaired:"))  # type: ignore[attr-defined]
    assert "limit" in repaired or "start like JSON" in repaired


def test_one_megabyte_truncated_document_keeps_every_complete_record() -> None:
    records = [{"id": i, "name": f"记录 {i}", "tags": ["a", "b"]} for i in range(20_000)]
    full = orjson.dumps(records).decode()
    cut = full[: len(full) * 3 // 4]
    elapsed, result = _timed(cut)
    assert elapsed < LIMIT_S
    assert result.strategy == "repaired"  # type: ignore[attr-defined]
    value = result.value  # type: ignore[attr-defined]
    # Every record before the cut comes back whole; the one cut through may come back partial.
    assert len(value) > 14_000
    assert value[:-1] == records[: len(value) - 1]
    last = value[-1]
    assert all(records[len(value) - 1][key] == last[key] for key in last)
    assert any("closed" in note for note in result.repairs)  # type: ignore[attr-defined]


def test_the_budget_counts_work_not_pauses() -> None:
    # a reply parses the same way on a loaded machine: a pause of the process (here a sleep)
    # does not use up the budget, work does
    from genlint.parse.budget import Deadline

    deadline = Deadline(0.05)
    time.sleep(0.1)
    assert not deadline.expired()
    end = time.perf_counter() + 2.0
    while not deadline.expired() and time.perf_counter() < end:
        sum(range(1000))
    assert deadline.expired()


def test_no_heap_collection_falls_inside_the_budget(monkeypatch: pytest.MonkeyPatch) -> None:
    # a full collection of a large process's heap takes seconds; inside a parse it would use
    # up the budget of a reply that parses in a millisecond (a CI run failed that way)
    import gc

    from genlint.parse import funnel

    seen = []
    real = funnel.extract

    def extract(*args, **kwargs):  # type: ignore[no-untyped-def]
        seen.append(gc.isenabled())
        return real(*args, **kwargs)

    monkeypatch.setattr(funnel, "extract", extract)
    assert parse_json('Here: {"a": 1,}\n\nBye.').ok
    assert seen == [False] and gc.isenabled()
