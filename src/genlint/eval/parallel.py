"""Evaluate many pages in several processes: ``genlint eval --jobs N`` (:mod:`genlint._pool`).

Pages are independent: each is scored against its own fact, so the driver and the workers score
pages and the driver aggregates the page results in input order, as one process would. Every
worker builds the lexicon matcher and resolves the rules once.
"""

from __future__ import annotations

import gc
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .. import _pool
from .models import Fact, Page, PageResult, Thresholds

__all__ = ["evaluate_pages"]

Frozen = tuple[tuple[str, tuple[str, ...]], ...]


def page_scorer(settings: tuple[Any, ...]) -> Callable[[Page], PageResult]:
    """A worker's score of one page (``_pool.Job.setup``)."""
    from .context import Environment
    from .engine import _environment, _fact_finder, evaluate_page
    from .rules import resolve_rules

    facts, glossary, lexicon, rules, disable, limits = settings
    # as in evaluate(): an evaluation builds no cycles, and collections that walk its objects
    # again and again cost up to a fifth of the time; a worker lives for one run only
    gc.disable()
    shared = _environment(glossary, lexicon)
    env = Environment(matcher=shared.matcher, glossary=shared.glossary)
    active = list(rules) if rules is not None else resolve_rules(frozenset(disable))
    find_fact = _fact_finder(facts)
    return lambda page: evaluate_page(page, find_fact(page.method), env, active, limits)


def evaluate_pages(
    pages: Sequence[Page],
    facts: Mapping[str, Fact],
    glossary: Frozen,
    lexicon: Frozen,
    rules: Sequence[Any] | None,
    disable: frozenset[str],
    limits: Thresholds,
    jobs: int,
    *,
    score: Callable[[Page], PageResult],
    progress: Callable[[int], None] | None = None,
) -> list[PageResult]:
    """Each page's result in page order, from ``jobs`` processes; ``score`` is this process's
    own scorer (built by the caller with the same settings). Custom ``rules`` must pickle."""
    job: _pool.Job[Page, PageResult] = _pool.Job(
        setup=page_scorer,
        settings=(dict(facts), glossary, lexicon, rules, disable, limits),
        noun="page",
        describe=lambda page: f"page {page.method!r}",
        run_local=score,
    )
    done = (lambda i: progress(len(pages[i].claims))) if progress is not None else None
    return _pool.run(pages, job, jobs, done=done)
