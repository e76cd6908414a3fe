"""``evaluate``: run the rules over every claim of every page and aggregate the metrics."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from functools import lru_cache
from typing import Any

from .._gc import gc_paused
from ..errors import GenlintError
from . import metrics as _metrics
from .batch import WikiFolder, folder_pages, wiki_files
from .context import ClaimContext, Environment, Ref, parse_ref, ref_exists
from .glossary import Glossary
from .inputs import load_facts, load_wiki
from .lexicon import Lexicon
from .models import (
    REF_KINDS,
    Counts,
    EvaluationResult,
    Fact,
    Page,
    PageResult,
    Thresholds,
    Violation,
)
from .rules import EvalRule, resolve_rules
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


def evaluate_page(
    page: Page,
    fact: Fact | None,
    env: Environment,
    rules: Sequence[EvalRule],
    thresholds: Thresholds,
) -> PageResult:
    if fact is None:
        log.warning(
            "page %r: no fact 'method:%s' in facts; every reference is invalid",
            page.method,
            page.method,
        )
    covered: dict[Ref, int] = {}
    known = _known_refs(page, fact)
    violations: list[Violation] = []
    faithful = hallucinated = redundant = 0
    find = env.matcher.find
    checks = [(rule.check, rule.reason, rule.counts_as) for rule in rules]
    for index, claim in enumerate(page.claims):
        valid: list[Ref] = []
        invalid: list[str] = []
        for raw in claim.fact_refs:
            ref = known.get(raw)
            if ref is None:
                parsed = parse_ref(raw)
                if parsed is not None and ref_exists(parsed, page, fact):
                    ref = parsed
            if ref is not None:
                valid.append(ref)
            else:
                invalid.append(raw)
        ctx = ClaimContext(
            page, fact, index, claim, env, valid, invalid, covered, find(claim.text)
        )  # fmt: skip
        hallucination = unfaithful = is_redundant = False
        reason = ""
        try:
            for check, reason, counts_as in checks:
                detail = check(ctx)
                if detail is None:
                    continue
                violations.append(Violation(page.method, index, claim.text, reason, detail))
                if counts_as == "hallucination":
                    hallucination = True
                elif counts_as == "unfaithful":
                    unfaithful = True
                elif counts_as == "redundant":
                    is_redundant = True
        except GenlintError:
            raise
        except Exception as exc:
            raise GenlintError(
                f"eval rule {reason!r} failed on page {page.method!r} claim {index + 1}: "
                f"{type(exc).__name__}: {exc}"
            ) from exc
        hallucinated += hallucination
        faithful += not (hallucination or unfaithful)
        redundant += is_redundant
        # after the rules: a claim's own references do not make it redundant
        for ref in valid:
            covered.setdefault(ref, index)
    key_facts = fact.key_facts() if fact is not None else []
    covered_keys = {f"{kind}:{target}" for kind, target in covered}  # str(Ref), inlined
    uncovered = tuple(k for k in key_facts if k not in covered_keys)
    counts = Counts(
        claims=len(page.claims), faithful=faithful, hallucinated=hallucinated,
        redundant=redundant, key_facts=len(key_facts), covered=len(key_facts) - len(uncovered),
    )  # fmt: skip
    return page_result(page, counts, tuple(violations), uncovered, thresholds)


def page_result(
    page: Page,
    counts: Counts,
    violations: tuple[Violation, ...],
    uncovered: tuple[str, ...],
    thresholds: Thresholds,
) -> PageResult:
    """A page's result from its counts: what a worker of ``eval --jobs`` sends back is these
    counts, violations and uncovered facts, and the driver builds the rest here."""
    m = _metrics.compute(counts)
    return PageResult(
        page=page.method, metrics=m, counts=counts, violations=violations,
        uncovered_facts=uncovered, thresholds=thresholds, passed=_metrics.passes(m, thresholds),
        claims=page.claims, source=page.source,
    )  # fmt: skip


def _fact_finder(facts: Mapping[str, Fact]) -> Callable[[str], Fact | None]:
    """``method:<name>`` exactly; failing that, the one fact whose id ends in ``.<name>``
    (``method:HogosyaController.changeHogosyaJoho``), as extractors often qualify names."""
    by_short: dict[str, list[Fact]] = {}
    for fact in facts.values():
        by_short.setdefault(fact.name.rsplit(".", 1)[-1].rsplit("#", 1)[-1], []).append(fact)

    def find(method: str) -> Fact | None:
        fact = facts.get(f"method:{method}")
        if fact is not None:
            return fact
        short = method.rsplit(".", 1)[-1].rsplit("#", 1)[-1]
        if short != method and f"method:{short}" in facts:
            return facts[f"method:{short}"]
        candidates = by_short.get(short, [])
        return candidates[0] if len(candidates) == 1 else None

    return find


def _known_refs(page: Page, fact: Fact | None) -> dict[str, Ref]:
    """The exact spellings of the page's existing references: the fast path of validation."""
    if fact is None:
        return {}
    known = {f"{kind}:{e}": Ref(kind, e) for kind in REF_KINDS for e in fact.entries(kind)}
    known[f"method:{page.method}"] = Ref("method", page.method)
    return known


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


@lru_cache(maxsize=8)
def _environment(
    glossary: tuple[tuple[str, tuple[str, ...]], ...],
    lexicon: tuple[tuple[str, tuple[str, ...]], ...],
) -> Environment:
    """Lexicon and glossary are data files; parse them once per process and settings."""
    return Environment(
        matcher=Lexicon.load(dict(lexicon)).matcher(), glossary=Glossary(dict(glossary))
    )
