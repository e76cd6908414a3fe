"""``genlint match``: the review criteria that apply to a contract clause (docs/commands/match.md)."""

from __future__ import annotations

import sys
from typing import Any

import click

from .options import config_option


@click.command("match")
@click.option(
    "--criteria",
    "criteria_path",
    required=True,
    metavar="FILE",
    help="CRITERIA.json: a list of review criteria.",
)
@click.option(
    "--clause",
    "clause_path",
    metavar="FILE",
    help="CLAUSE.json: {clause_id, clause_ref, text} (- for standard input).",
)
@click.option(
    "--clauses",
    "clauses_path",
    metavar="FILE",
    help="A whole contract: a list of clauses (progress bar on a terminal).",
)
@click.option(
    "--llm/--no-llm",
    "use_llm",
    default=None,
    help="Filter semantic candidates by an LLM's applicability verdict.",
)
@click.option("--model", default=None, help="Chat model for --llm.")
@click.option("--base-url", default=None, help="OpenAI-compatible endpoint (…/v1).")
@click.option(
    "--api-key-env",
    default=None,
    metavar="VAR",
    help="Environment variable holding the API key (default OPENAI_API_KEY).",
)
@click.option("--timeout", type=float, default=None, help="Seconds to wait for the LLM (30).")
@click.option(
    "--embedder",
    default=None,
    metavar="SPEC",
    help="lexical (default, offline), openai:MODEL or st:PATH.",
)
@click.option(
    "--threshold",
    type=float,
    default=None,
    help="Cosine cut-off for semantic candidates (default: the embedder's).",
)
@click.option(
    "--top-k", type=click.IntRange(1, 100), default=None, help="Semantic candidates considered (5)."
)
@click.option(
    "--max-results",
    type=click.IntRange(1, 100),
    default=None,
    help="Criteria returned at most (3).",
)
@click.option(
    "--cache-dir",
    default=None,
    metavar="DIR",
    help="Where criteria embeddings are cached (neural embedders only).",
)
@click.option(
    "--format", "fmt", type=click.Choice(["text", "json"]), default="text", show_default=True
)
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
    config_path: str | None,
) -> int:
    """Match a clause (or every clause of a contract) to review criteria: exact clause
    reference first, else semantic candidates, optionally filtered by an LLM.

    Exit code 0 on success (also when nothing matched), 2 on bad input.
    """
    from dataclasses import replace

    from .._io import read_json
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
    if clause_path is not None:
        clauses = [load_clause(read_json(clause_path), clause_path)]
    else:
        assert clauses_path is not None
        clauses = load_clauses(read_json(clauses_path), clauses_path)

    matcher = _build_matcher(criteria, settings)
    if clauses_path is not None and sys.stderr.isatty() and len(clauses) > 1:
        from rich.console import Console
        from rich.progress import Progress

        with Progress(console=Console(stderr=True), transient=True) as bar:
            task = bar.add_task("matching clauses", total=len(clauses))
            results = matcher.match_many(clauses, lambda n: bar.advance(task, n))
    else:
        results = matcher.match_many(clauses)

    if fmt == "json":
        import orjson

        payload: Any = (
            results[0].to_dict() if clause_path is not None else [r.to_dict() for r in results]
        )
        sys.stdout.write(orjson.dumps(payload, option=orjson.OPT_INDENT_2).decode() + "\n")
    else:
        for result in results:
            sys.stdout.write(_render_text(result))
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
