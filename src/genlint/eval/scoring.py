"""The score of one page: every rule over every claim, with the facts and the shared lexicon.

Kept apart from :mod:`.engine` (which reads the inputs and aggregates) so that the worker
processes of :mod:`.parallel` score pages without importing the engine back
(docs/architecture.md).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence
from functools import lru_cache

from ..errors import GenlintError
from . import metrics as _metrics
from .context import ClaimContext, Environment, Ref, parse_ref, ref_exists
from .glossary import Glossary
from .lexicon import Lexicon
from .models import REF_KINDS, Counts, Fact, Page, PageResult, Thresholds, Violation
from .rules import EvalRule

# the engine's logger, as before the split: one name for what eval tells
log = logging.getLogger("genlint.eval.engine")


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


@lru_cache(maxsize=8)
def _environment(
    glossary: tuple[tuple[str, tuple[str, ...]], ...],
    lexicon: tuple[tuple[str, tuple[str, ...]], ...],
) -> Environment:
    """Lexicon and glossary are data files; parse them once per process and settings."""
    return Environment(
        matcher=Lexicon.load(dict(lexicon)).matcher(), glossary=Glossary(dict(glossary))
    )
