"""Every file of JSONTestSuite (vendored in tests/data/JSONTestSuite, MIT): ``y_`` files parse
to what ``json.loads`` gives, ``n_`` and ``i_`` files never raise and take under 50 ms, and the
CLI prints whatever the funnel returns (no internal error, ever)."""

from __future__ import annotations

import json
import math
import time
from pathlib import Path
from typing import Any

import pytest

from genlint import parse_json

SUITE = Path(__file__).resolve().parents[1] / "data" / "JSONTestSuite" / "test_parsing"
FILES = sorted(SUITE.iterdir())


def test_the_suite_is_vendored_whole() -> None:
    assert len(FILES) == 318
    assert {f.name[:2] for f in FILES} == {"y_", "n_", "i_"}


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return bool(a == b) and type(a) is type(b)


@pytest.mark.parametrize("path", [f for f in FILES if f.name.startswith("y_")], ids=lambda p: p.name)
def test_accepted_files_parse_exactly(path: Path) -> None:
    data = path.read_bytes()
    result = parse_json(data)
    assert result.ok and result.strategy == "direct", result.errors
    expected = json.loads(data)
    assert json.dumps(result.value, sort_keys=True) == json.dumps(expected, sort_keys=True)


@pytest.mark.parametrize(
    "path", [f for f in FILES if not f.name.startswith("y_")], ids=lambda p: p.name
)
def test_other_files_never_raise_and_are_fast(path: Path) -> None:
    data = path.read_bytes()
    runs = []
    for _ in range(2):  # the better of two: a garbage-collector pause is not the parser's time
        start = time.perf_counter()
        result = parse_json(data)
        runs.append(time.perf_counter() - start)
    elapsed = min(runs)
    # generous on a loaded CI machine; the suite's own bound is 50 ms (benchmarks/bench_parse.py)
    assert elapsed < 0.25, f"{path.name}: {elapsed * 1000:.0f} ms"
    if result.ok and path.name.startswith("n_"):
        assert result.strategy != "direct"  # invalid JSON is never taken as valid


def test_the_cli_prints_every_file(run_cli) -> None:  # type: ignore[no-untyped-def]
    for path in FILES:
        result = run_cli("parse", str(path), "--format", "json")
        assert result.code in (0, 1, 2), path.name
        assert "internal error" not in result.err, (path.name, result.err)
        if result.code != 2:
            assert json.loads(result.out)["ok"] is (result.code == 0 or "lost data" in result.err)
