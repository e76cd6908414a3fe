"""``genlint match``: the review criteria that apply to a contract clause (docs/commands/match.md)."""

from __future__ import annotations

import sys
from typing import Any

import click

from .options import config_option, endpoint_options, exit_codes, format_option, option, out_option
from .progress import progress_bar


@click.command(
    "match", epilog=exit_codes("never: a clause that matches nothing is still a success")
)
@option(
    "--criteria",
    "criteria_path",
    required=True,
    metavar="FILE",
    help="CRITERIA.json: a list of review criteria.",
)
@option(
    "--clause",
    "clause_path",
    metavar="FILE",
    help="CLAUSE.json: {clause_id, clause_ref, text} (- for standard input).",
)
@option(
    "--clauses",
    "clauses_path",
    metavar="FILE",
    help="A whole contract: a list of clauses (progress bar on a terminal).",
)
@option(
    "--llm/--no-llm",
    "use_llm",
    default=None,
    help="Filter semantic candidates by an LLM's applicability verdict.",
)
@endpoint_options
@option(
    "--embedder",
    default=None,
    metavar="SPEC",
    show_default="lexical",
    help="lexical (offline), openai:MODEL or st:PATH.",
)
@option(
    "--threshold",
    type=float,
    default=None,
    show_default="the embedder's calibrated cut-off; lexical: 0.10 Chinese, 0.12 English",
    help="Cosine cut-off for semantic candidates; a clause whose best criterion scores below it "
    "gets none.",
)
@option(
    "--top-k",
    type=click.IntRange(1, 100),
    default=None,
    show_default="5",
    help="Semantic candidates considered.",
)
@option(
    "--max-results",
    type=click.IntRange(1, 100),
    default=None,
    show_default="3",
    help="Criteria returned at most.",
)
@option(
    "--cache-dir",
    default=None,
    metavar="DIR",
    help="Where criteria embeddings are cached (neural embedders only).",
)
@format_option("text", "json")
@out_option()
@config_option
def command(
    criteria_path: str,
    clause_path: str | None,
    clauses_path: str | None,
    use_llm: bool | None,
    model: str | None,
    base_url: str | None,
    api_key_env: str | None,
    timeout: float | None,
    embedder: str | None,
    threshold: float | None,
    top_k: int | None,
    max_results: int | None,
    cache_dir: str | None,
    fmt: str,
    out_path: str | None,
    config_path: str | None,
) -> int:
    """Match a clause (or every clause of a contract) to review criteria: exact clause
    reference first, else semantic candidates, optionally filtered by an LLM."""
    from dataclasses import replace

    from .._io import atomic_write, read_json, to_json
    from ..errors import InputError
    from ..match.models import load_clause, load_clauses, load_criteria
    from ..match.settings import MatchSettings

    if (clause_path is None) == (clauses_path is None):
        raise InputError("give exactly one of --clause FILE and --clauses FILE")
    settings = MatchSettings.load(config_path)
    overrides: dict[str, Any] = {
        "llm": use_llm, "model": model, "base_url": base_url, "api_key_env": api_key_env,
        "timeout": timeout, "embedder": embedder, "threshold": threshold, "top_k": top_k,
        "max_results": max_results, "cache_dir": cache_dir,
    }  # fmt: skip
    if use_llm is None and model is not None:
        overrides["llm"] = True  # naming a chat model on the command line means: use it
    settings = replace(settings, **{k: v for k, v in overrides.items() if v is not None})

    criteria = load_criteria(read_json(criteria_path), criteria_path)
    warnings = [] if criteria else [f"{criteria_path}: no criteria: no clause can match"]
    for warning in warnings:
        sys.stderr.write(f"genlint: warning: {warning}\n")
    if clause_path is not None:
        clauses = [load_clause(read_json(clause_path), clause_path)]
    else:
        assert clauses_path is not None
        clauses = load_clauses(read_json(clauses_path), clauses_path)

    matcher = _build_matcher(criteria, settings)
    with progress_bar("matching clauses", len(clauses)) as advance:
        results = matcher.match_many(clauses, advance)

    if fmt == "json":
        dicts = [dict(r.to_dict(), **({"warnings": warnings} if warnings else {})) for r in results]
        payload: Any = dicts[0] if clause_path is not None else dicts
        output = to_json(payload)
    else:
        output = "".join(_render_text(result) for result in results)
    if out_path is not None:
        inputs = [p for p in (criteria_path, clause_path, clauses_path) if p is not None]
        atomic_write(out_path, output, inputs=inputs)
    else:
        sys.stdout.write(output)
    return 0


def _build_matcher(criteria: list[Any], settings: Any) -> Any:
    from ..errors import InputError
    from ..match.cache import default_cache_dir
    from ..match.embedders import make_embedder
    from ..match.pipeline import Matcher

    llm = None
    if settings.llm:
        if not settings.model:
            raise InputError("--llm needs --model (or model in the [match] config section)")
        from ..llm.openai_compat import OpenAICompatible

        llm = OpenAICompatible(
            settings.model, base_url=settings.base_url, api_key_env=settings.api_key_env,
            timeout=settings.timeout,
        )  # fmt: skip
    emb = make_embedder(
        settings.embedder, base_url=settings.base_url, api_key_env=settings.api_key_env,
        threshold=settings.threshold,
    )  # fmt: skip
    # The lexical embedder costs less to recompute than to read back; neural ones are cached.
    cache = None
    if not settings.embedder.startswith("lexical"):
        cache = settings.cache_dir or default_cache_dir()
    return Matcher(
        criteria, emb, llm, top_k=settings.top_k, max_results=settings.max_results,
        threshold=settings.threshold, llm_timeout=settings.timeout, cache_dir=cache,
    )  # fmt: skip


def _render_text(result: Any) -> str:
    how = "LLM-filtered" if result.llm_filtered else "not LLM-filtered"
    noun = "criterion" if result.total_matched == 1 else "criteria"
    lines = [f"clause {result.clause_id}: {result.total_matched} {noun} ({how})"]
    for c in result.matched_criteria:
        lines.append(f"  {c.criterion_id}  {c.match_type} {c.match_score:.3f}  {c.review_point}")
        if c.applicability_reason:
            lines.append(f"      {c.applicability_reason}")
    return "\n".join(lines) + "\n"
