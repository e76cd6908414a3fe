"""Evaluate many pages in several processes: ``genlint eval --jobs N`` (:mod:`genlint._pool`).

Pages are independent: each is scored against its own fact, so the driver and the workers score
pages and the driver aggregates the page results in input order, as one process would. Every
worker builds the lexicon matcher and resolves the rules once. A folder of page files is read
by the processes too (:func:`evaluate_files`): reading and decoding the files cost a third as
much as scoring them, too much to leave in the driver alone.

A page's result travels as plain tuples (counts, then each violation's claim index, reason and
detail, then the uncovered facts) and is rebuilt by the driver, which holds the page: pickling
the result objects themselves cost a third as much as scoring the pages.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from .. import _pool
from ..errors import GenlintError
from .models import Counts, Fact, Page, PageResult, Thresholds, Violation
from .scoring import _environment, _fact_finder, evaluate_page, page_result

__all__ = ["evaluate_files", "evaluate_pages"]

Frozen = tuple[tuple[str, tuple[str, ...]], ...]
#: a page's result on the wire: counts, (claim index, reason, detail) per violation, uncovered
Wire = tuple[tuple[int, ...], tuple[tuple[int, str, str], ...], tuple[str, ...]]


class Settings(NamedTuple):
    """What every process scores with (pickled to each worker once)."""

    facts: dict[str, Fact]
    glossary: Frozen
    lexicon: Frozen
    rules: Sequence[Any] | None  # custom rules must pickle
    disable: frozenset[str]
    limits: Thresholds


#: a file's pages and their results, or the error that reading it raised
FileWire = tuple[list[Page], list[Wire], GenlintError | None]


def _to_wire(result: PageResult) -> Wire:
    c = result.counts
    counts = (c.claims, c.faithful, c.hallucinated, c.redundant, c.key_facts, c.covered)
    violations = tuple((v.claim_index, v.reason, v.detail) for v in result.violations)
    return counts, violations, result.uncovered_facts


def _from_wire(page: Page, wire: Wire, limits: Thresholds) -> PageResult:
    counts, violations, uncovered = wire
    rebuilt = tuple(
        Violation(page.method, index, page.claims[index].text, reason, detail)
        for index, reason, detail in violations
    )
    return page_result(page, Counts(*counts), rebuilt, uncovered, limits)


def file_scorer(settings: Settings) -> Callable[[str], FileWire]:
    """A worker's read and score of one wiki file, as sent back (``_pool.Job.setup``)."""
    return _file_wire(page_scorer(settings))


def _file_wire(score: Callable[[Page], Wire]) -> Callable[[str], FileWire]:
    from .batch import read_file_pages

    def run(file: str) -> FileWire:
        try:
            pages = read_file_pages(file)
        except GenlintError as exc:  # reported by the driver in file order, as one process would
            return [], [], exc
        return pages, [score(page) for page in pages], None

    return run


def page_scorer(settings: Settings) -> Callable[[Page], Wire]:
    """A worker's score of one page, as sent back (``_pool.Job.setup``)."""
    from .context import Environment
    from .rules import resolve_rules

    facts, glossary, lexicon, rules, disable, limits = settings
    # as in evaluate(): an evaluation builds no cycles, and collections that walk its objects
    # again and again cost up to a fifth of the time; a worker lives for one run only
    gc.disable()
    shared = _environment(glossary, lexicon)
    env = Environment(matcher=shared.matcher, glossary=shared.glossary)
    active = list(rules) if rules is not None else resolve_rules(frozenset(disable))
    find_fact = _fact_finder(facts)
    return lambda page: _to_wire(evaluate_page(page, find_fact(page.method), env, active, limits))


def evaluate_pages(
    pages: Sequence[Page],
    settings: Settings,
    jobs: int,
    *,
    score: Callable[[Page], PageResult],
    progress: Callable[[int], None] | None = None,
) -> list[PageResult]:
    """Each page's result in page order, from ``jobs`` processes; ``score`` is this process's
    own scorer (built by the caller with the same settings). Custom ``rules`` must pickle."""
    job: _pool.Job[Page, Wire] = _pool.Job(
        setup=page_scorer,
        settings=settings,
        noun="page",
        describe=lambda page: f"page {page.method!r}",
        run_local=lambda page: _to_wire(score(page)),
    )
    done = (lambda i: progress(len(pages[i].claims))) if progress is not None else None
    wires = _pool.run(pages, job, jobs, done=done)
    return [
        _from_wire(page, wire, settings.limits) for page, wire in zip(pages, wires, strict=True)
    ]


def evaluate_files(
    files: Sequence[str],
    settings: Settings,
    jobs: int,
    *,
    score: Callable[[Page], PageResult],
    progress: Callable[[int], None] | None = None,
) -> list[PageResult]:
    """The results of the pages of ``files`` (a wiki folder's, in name order), each file read
    and scored by one of ``jobs`` processes; ``progress(1)`` per file. A file that cannot be
    read raises its error once every file is done, the first in file order, so the error is
    the one a single process gives."""
    job: _pool.Job[str, FileWire] = _pool.Job(
        setup=file_scorer,
        settings=settings,
        noun="file",
        run_local=_file_wire(lambda page: _to_wire(score(page))),
    )
    done = (lambda i: progress(1)) if progress is not None else None
    results: list[PageResult] = []
    for pages, wires, error in _pool.run(files, job, jobs, done=done):
        if error is not None:
            raise error
        results.extend(
            _from_wire(page, wire, settings.limits) for page, wire in zip(pages, wires, strict=True)
        )
    return results
