"""``evaluate``: run the rules over every claim of every page and aggregate the metrics."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from .._gc import gc_paused
from . import metrics as _metrics
from .batch import WikiFolder, folder_pages, wiki_files
from .context import Environment
from .inputs import load_facts, load_wiki
from .models import (
    Counts,
    EvaluationResult,
    Fact,
    Page,
    PageResult,
    Thresholds,
)
from .rules import EvalRule, resolve_rules
from .scoring import _environment, _fact_finder, evaluate_page
from .settings import thresholds_from

log = logging.getLogger(__name__)

FactsInput = Mapping[str, Any] | Sequence[Any] | Mapping[str, Fact] | str | os.PathLike[str]
WikiInput = Mapping[str, Any] | Sequence[Any] | str | os.PathLike[str] | WikiFolder


def evaluate(
    facts: FactsInput,
    wiki: WikiInput,
    thresholds: Thresholds | Mapping[str, float] | None = None,
    *,
    glossary: Mapping[str, Sequence[str]] | None = None,
    lexicon: Mapping[str, Sequence[str]] | None = None,
    disable: Iterable[str] = (),
    rules: Sequence[EvalRule] | None = None,
    progress: Callable[[int], None] | None = None,
    jobs: int = 1,
) -> EvaluationResult:
    """Score a generated wiki against extracted facts (docs/commands/eval.md).

    ``facts`` and ``wiki`` are the parsed JSON (dicts/lists), ``Page`` objects, or paths to the
    JSON files; ``wiki`` may also be a folder of page files (read in name order). ``thresholds`` overrides some or all of the pass bounds; ``glossary`` and
    ``lexicon`` add words to the built-in data; ``disable`` drops rules by reason; ``rules``
    replaces the registry (built-in + ``genlint.eval_rules`` plugins) entirely.
    ``progress`` is called with the number of claims done after each page (with a folder and
    ``jobs`` > 1: with 1 after each file). ``jobs`` > 1 scores the pages in that many
    processes (:mod:`genlint.eval.parallel`), which also read a folder's files, with the same
    result; custom ``rules`` must then pickle.
    """
    # an evaluation allocates hundreds of thousands of objects and no cycles (see _gc.py)
    with gc_paused():
        fact_map = _facts(facts)
        if isinstance(wiki, WikiFolder):
            files: list[str] | None = wiki.files
        else:
            files = wiki_files(os.fspath(wiki)) if isinstance(wiki, (str, os.PathLike)) else None
        pages, multi = ([], True) if files is not None else _wiki(wiki)
        limits = thresholds_from(thresholds)
        frozen = (_freeze(glossary), _freeze(lexicon))
        shared = _environment(*frozen)
        # per call: the entries cache is keyed by fact id, which another facts file may reuse
        env = Environment(matcher=shared.matcher, glossary=shared.glossary)
        disabled = frozenset(disable)
        active = list(rules) if rules is not None else resolve_rules(disabled)
        find_fact = _fact_finder(fact_map)

        def score(page: Page) -> PageResult:
            return evaluate_page(page, find_fact(page.method), env, active, limits)

        if files is not None and not (jobs > 1 and len(files) > 2):
            pages, files = folder_pages(files), None  # read here: too few files for workers
        if jobs > 1 and len(files if files is not None else pages) > 2:
            # (one or two pages: a worker costs more than it saves)
            from .parallel import Settings, evaluate_files, evaluate_pages

            settings = Settings(dict(fact_map), *frozen, rules, disabled, limits)
            if files is not None:  # the processes read the files too
                results = evaluate_files(files, settings, jobs, score=score, progress=progress)
            else:
                results = evaluate_pages(pages, settings, jobs, score=score, progress=progress)
            return aggregate(results, limits, multi)
        results = []
        for page in pages:
            results.append(score(page))
            if progress is not None:
                progress(len(page.claims))
        return aggregate(results, limits, multi)


def aggregate(pages: Sequence[PageResult], thresholds: Thresholds, multi: bool) -> EvaluationResult:
    """Metrics over all claims and key facts together (docs/commands/eval.md, several pages)."""
    counts = Counts()
    for p in pages:
        counts = counts + p.counts
    m = _metrics.compute(counts)
    return EvaluationResult(
        metrics=m,
        counts=counts,
        violations=tuple(v for p in pages for v in p.violations),
        uncovered_facts=tuple(dict.fromkeys(u for p in pages for u in p.uncovered_facts)),
        thresholds=thresholds,
        passed=_metrics.passes(m, thresholds),
        pages=tuple(pages),
        multi_page=multi,
    )


def _facts(facts: FactsInput) -> dict[str, Fact]:
    if isinstance(facts, (str, os.PathLike)):
        from .._io import read_json

        return load_facts(read_json(facts), os.fspath(facts))
    # facts already loaded (an empty map too: a facts.json with no facts); raw JSON has "facts"
    if (
        isinstance(facts, Mapping)
        and "facts" not in facts
        and all(isinstance(v, Fact) for v in facts.values())
    ):
        return {str(k): v for k, v in facts.items()}
    return load_facts(facts)


def _wiki(wiki: WikiInput) -> tuple[list[Page], bool]:
    if isinstance(wiki, (str, os.PathLike)):
        from .._io import read_json

        return load_wiki(read_json(wiki), os.fspath(wiki))
    if isinstance(wiki, Sequence) and wiki and all(isinstance(p, Page) for p in wiki):
        return list(wiki), True
    return load_wiki(wiki)


def _freeze(table: Mapping[str, Sequence[str]] | None) -> tuple[tuple[str, tuple[str, ...]], ...]:
    return tuple(sorted((k, tuple(v)) for k, v in (table or {}).items()))
