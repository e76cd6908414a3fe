"""``genlint eval``: score a generated wiki against extracted facts (docs/commands/eval.md)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING

import click

from .options import (
    config_option,
    deprecated_alias,
    exit_codes,
    jobs_option,
    option,
    out_option,
    prefer,
)
from .progress import progress_bar

if TYPE_CHECKING:
    from ..eval.models import Page

_FORMATS = ("json", "text", "html")
_BY_SUFFIX = {".html": "html", ".htm": "html", ".txt": "text", ".json": "json"}


def _unit(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not 0 <= value <= 1:
        raise click.BadParameter("must be between 0 and 1")
    return value


@click.command("eval", epilog=exit_codes("the evaluation is below its thresholds"))
@option("--facts", "facts_path", required=True, metavar="FACTS.json", help="Extracted facts.")
@option(
    "--wiki",
    "wiki_path",
    required=True,
    metavar="WIKI.json|FOLDER|-",
    help="One page, a list of pages, or a folder of page files.",
)
@out_option("Write the report to FILE (atomically) instead of standard output.")
@option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    show_default="text; with --out, from its suffix (.html, .txt), else json",
    help="Report format.",
)
@config_option
@option("--min-faithfulness", type=float, callback=_unit, show_default="0.95", help="Pass bound.")
@option(
    "--max-hallucination-rate", type=float, callback=_unit, show_default="0", help="Pass bound."
)
@option(
    "--min-key-fact-recall", type=float, callback=_unit, show_default="0.85", help="Pass bound."
)
@option(
    "--max-redundancy-rate", type=float, callback=_unit, show_default="0.15", help="Pass bound."
)
@option(
    "--ignore", multiple=True, metavar="REASON", help="Skip a rule, e.g. redundant (repeatable)."
)
@deprecated_alias("--disable", "--ignore", "disable", multiple=True, metavar="REASON")
@option(
    "--explain",
    is_flag=True,
    help="Print on stderr, per claim, the verb classes and reference classes compared.",
)
@jobs_option("Score the pages")
def command(
    facts_path: str,
    wiki_path: str,
    out_path: str | None,
    fmt: str | None,
    config_path: str | None,
    min_faithfulness: float | None,
    max_hallucination_rate: float | None,
    min_key_fact_recall: float | None,
    max_redundancy_rate: float | None,
    ignore: tuple[str, ...],
    disable: tuple[str, ...] | None,
    jobs: str,
    explain: bool,
) -> int:
    """Score WIKI claims against FACTS."""
    from .._io import atomic_write, read_json
    from .._pool import resolve_jobs
    from ..config import load_config
    from ..eval.batch import WikiFolder, folder_pages, read_pages, wiki_files
    from ..eval.engine import evaluate
    from ..eval.inputs import load_facts
    from ..eval.settings import settings_from, thresholds_from

    workers = resolve_jobs(jobs)
    config = load_config(config_path)
    settings = settings_from(config.section("eval"), config.where("eval"))
    overrides = {
        name: value
        for name, value in (
            ("faithfulness", min_faithfulness),
            ("hallucination_rate", max_hallucination_rate),
            ("key_fact_recall", min_key_fact_recall),
            ("redundancy_rate", max_redundancy_rate),
        )
        if value is not None
    }
    thresholds = thresholds_from(overrides, base=settings.thresholds)
    if out_path is not None and Path(out_path).is_dir():
        raise click.BadParameter(f"{out_path} is a folder", param_hint="--out")
    facts = load_facts(read_json(facts_path), facts_path)
    warnings = [] if facts else [f"{facts_path}: no facts: every reference is invalid"]
    for warning in warnings:
        sys.stderr.write(f"genlint: warning: {warning}\n")
    files = wiki_files(wiki_path)  # None: one file, or standard input
    wiki: WikiFolder | list[Page]
    if files is not None and workers > 1 and len(files) > 2:
        # the processes read the files too: the bar counts files, as their pages are unknown
        wiki, several, total, items = WikiFolder(files), True, len(files), len(files)
    else:
        wiki, several = (folder_pages(files), True) if files is not None else read_pages(wiki_path)
        total, items = sum(len(p.claims) for p in wiki), len(wiki)
    ignore = tuple(prefer(ignore, disable) or ())
    with progress_bar("evaluating", total, items=items) as advance:
        result = evaluate(
            facts,
            wiki,
            thresholds,
            glossary=settings.glossary,
            lexicon=settings.lexicon,
            disable=settings.disable | set(ignore),
            progress=advance,
            jobs=workers,
        )
    if not several:  # a single page object: the the contract's single-page shape, no "pages"
        from dataclasses import replace

        result = replace(result, multi_page=False)
    if explain:
        from ..eval.explain import explain as explain_claims

        pages = folder_pages(wiki.files) if isinstance(wiki, WikiFolder) else wiki
        for item in explain_claims(
            facts, pages, glossary=settings.glossary, lexicon=settings.lexicon
        ):
            sys.stderr.write(item.line() + "\n")
    fmt = fmt or (_BY_SUFFIX.get(Path(out_path).suffix.lower(), "json") if out_path else "text")
    report = _render(result, fmt, warnings)
    if out_path is not None:
        atomic_write(out_path, report, inputs=[facts_path, wiki_path])
        from ..eval.report_text import summary

        sys.stderr.write(f"{summary(result)} → {out_path}\n")
    else:
        sys.stdout.write(report)
    return 0 if result.passed else 1


def _render(result: object, fmt: str, warnings: list[str]) -> str:
    from ..eval.models import EvaluationResult

    assert isinstance(result, EvaluationResult)
    if fmt == "json":
        from .._io import to_json

        data = result.to_dict()
        if warnings:
            data["warnings"] = warnings
        return to_json(data)
    if fmt == "html":
        from ..eval.report_html import render

        return render(result)
    from ..eval.report_text import render as render_text

    return render_text(result)
