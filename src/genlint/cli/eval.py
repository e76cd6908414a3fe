"""``genlint eval``: score a generated wiki against extracted facts (docs/commands/eval.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import click

from .options import config_option

_FORMATS = ("json", "text", "html")
_BY_SUFFIX = {".html": "html", ".htm": "html", ".txt": "text", ".json": "json"}


def _unit(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    if value is not None and not 0 <= value <= 1:
        raise click.BadParameter("must be between 0 and 1")
    return value


@click.command("eval")
@click.option("--facts", "facts_path", required=True, metavar="FACTS.json", help="Extracted facts.")
@click.option(
    "--wiki",
    "wiki_path",
    required=True,
    metavar="WIKI.json|FOLDER|-",
    help="One page, a list of pages, or a folder of page files.",
)
@click.option("--out", "out_path", metavar="FILE", help="Write the report here (atomically).")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    help="Default: text on stdout; with --out, from its suffix (.html, .txt), else json.",
)
@config_option
@click.option("--min-faithfulness", type=float, callback=_unit, help="Pass bound (default 0.95).")
@click.option(
    "--max-hallucination-rate", type=float, callback=_unit, help="Pass bound (default 0)."
)
@click.option(
    "--min-key-fact-recall", type=float, callback=_unit, help="Pass bound (default 0.85)."
)
@click.option(
    "--max-redundancy-rate", type=float, callback=_unit, help="Pass bound (default 0.15)."
)
@click.option("--disable", multiple=True, metavar="REASON", help="Skip a rule (repeatable).")
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
    disable: tuple[str, ...],
) -> int:
    """Score WIKI claims against FACTS: exit 0 pass, 1 fail, 2 bad input."""
    from .._io import atomic_write, read_json
    from ..config import load_config
    from ..eval.batch import read_pages
    from ..eval.engine import evaluate
    from ..eval.inputs import load_facts
    from ..eval.settings import settings_from, thresholds_from

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
    pages, several = read_pages(wiki_path)
    with _progress(sum(len(p.claims) for p in pages), len(pages)) as advance:
        result = evaluate(
            facts,
            pages,
            thresholds,
            glossary=settings.glossary,
            lexicon=settings.lexicon,
            disable=settings.disable | set(disable),
            progress=advance,
        )
    if not several:  # a single page object: the the contract's single-page shape, no "pages"
        from dataclasses import replace

        result = replace(result, multi_page=False)
    fmt = fmt or (_BY_SUFFIX.get(Path(out_path).suffix.lower(), "json") if out_path else "text")
    report = _render(result, fmt)
    if out_path is not None:
        atomic_write(out_path, report)
        from ..eval.report_text import summary

        sys.stderr.write(f"{summary(result)} → {out_path}\n")
    else:
        sys.stdout.write(report)
    return 0 if result.passed else 1


def _render(result: object, fmt: str) -> str:
    from ..eval.models import EvaluationResult

    assert isinstance(result, EvaluationResult)
    if fmt == "json":
        import orjson

        return orjson.dumps(result.to_dict(), option=orjson.OPT_INDENT_2).decode("utf-8") + "\n"
    if fmt == "html":
        from ..eval.report_html import render

        return render(result)
    from ..eval.report_text import render as render_text

    return render_text(result)


class _progress:
    """A rich progress bar on stderr when it is a terminal and the batch is big enough."""

    def __init__(self, claims: int, pages: int) -> None:
        self._bar = None
        if pages > 1 and sys.stderr.isatty():
            from rich.console import Console
            from rich.progress import Progress

            # stderr is a terminal (checked above) even when rich cannot tell, e.g. under tests
            console = Console(stderr=True, force_terminal=True)
            self._bar = Progress(console=console, transient=True)
            self._task = self._bar.add_task("evaluating", total=claims)

    def __enter__(self) -> Callable[[int], None] | None:
        if self._bar is None:
            return None
        self._bar.start()
        bar, task = self._bar, self._task
        return lambda n: bar.advance(task, n)

    def __exit__(self, *exc: object) -> None:
        if self._bar is not None:
            self._bar.stop()
