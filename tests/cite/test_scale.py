"""Cite at scale: linear in markers plus sources.

Each shape below was quadratic once (the old times are from a 2-core machine, at these sizes):
the ids of a run of adjacent markers were rescanned for each marker (14 s), so were those of
consecutive marker lines (10 s); every marker on a long line sliced the line up to itself
(12 s); every empty marker searched back for its line start (14 s); every empty marker was
checked against every moved citation (32 s). Linear, each takes about a second or less.
The whole call on 100,000 sources and 80,000 markers did not finish in minutes (citeproc-py
rendered ~70,000 numeric entries at 3-5 ms each, registering them in a list).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import TypeVar

import pytest

from genlint.cite import process_citations, process_document
from support.cite_corpus import make_sources, make_text

T = TypeVar("T")
_IDS = 40_000
_SOURCES = [{"id": i, "title": f"Source {i}"} for i in range(1, _IDS + 1)]


def _best_of_two(run: Callable[[], T], bound: float) -> tuple[float, T]:
    """Seconds of the faster of two runs, and what the first returned; the second run only
    when the first missed the bound (the machine is shared: one pause must not fail the test,
    a quadratic step fails both)."""
    started = time.perf_counter()
    first = run()
    best = time.perf_counter() - started
    if best >= bound:
        started = time.perf_counter()
        run()
        best = min(best, time.perf_counter() - started)
    return best, first


@pytest.mark.parametrize(
    "text",
    [
        "claim " + "".join(f"<sources>[{i}]</sources>" for i in range(1, _IDS + 1)) + " end.",
        "".join(f"<sources>[{i}]</sources>\n" for i in range(1, _IDS + 1)) + "text",
        "".join(f"word <sources>[{i % 50 + 1}]</sources> and " for i in range(100_000)),
        "word <sources>[]</sources>, " * 200_000,
        "".join(f"<sources>[{i}]</sources>\nline <sources>[]</sources> x\n" for i in range(20_000)),
    ],
    ids=[
        "adjacent markers",
        "consecutive marker lines",
        "one long line",
        "empty markers on one line",
        "empty markers below moved citations",
    ],
)
def test_marker_shapes_stay_linear(text: str) -> None:
    took, _ = _best_of_two(lambda: process_citations(text, _SOURCES), 5.0)
    assert took < 5.0


def test_many_chapters_share_one_document_table() -> None:
    # numbers, labels and merged ids are document-wide: nothing of that size per chapter
    chapters = [f"chapter {i} <sources>[{i}]</sources>." for i in range(1, 10_001)]
    sources = [
        {"id": i, "title": f"T{i}", "url": f"https://x.org/{i % 5000}"} for i in range(1, _IDS + 1)
    ]
    took, _ = _best_of_two(lambda: process_document(chapters, sources), 5.0)
    assert took < 5.0


def test_numeric_reference_list_of_100000_sources_and_80000_markers() -> None:
    # ~3.5 s here on a shared 2-core machine (load ~0.8 s, markers, rewrite and coverage
    # ~1 s, ~70,000 entries ~0.8 s); the bound leaves room for a busy machine, and any
    # quadratic step at this size (10^10) still takes minutes.
    sources = make_sources(100_000)
    text = make_text(80_000, 100_000)
    took, result = _best_of_two(lambda: process_citations(text, sources), 20.0)
    assert took < 20.0
    assert len(result.cited) > 60_000
    assert result.bibliography.count("\n") == len(result.cited) - 1
