"""``genlint check``: lint documents for placeholders and unmasked personal data."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..check.reporters import REPORTERS
from .options import config_option

if TYPE_CHECKING:
    from ..check import CheckConfig


@click.command("check")
@click.argument("paths", nargs=-1, metavar="[PATH…|-]")
@click.option(
    "--select",
    multiple=True,
    metavar="PACKS_OR_RULES",
    help="Packs or rule ids to run, comma-separated (default: placeholder,sensitive,citation).",
)
@click.option("--ignore", multiple=True, metavar="RULES", help="Packs or rule ids to skip.")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(list(REPORTERS)),
    default="text",
    show_default=True,
    help="Report format.",
)
@config_option
@click.option(
    "--sources",
    "sources_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="SOURCES.json: lets the citation pack flag ids that name no source.",
)
@click.option(
    "--color/--no-color",
    default=None,
    help="Colour the text report (default: only on a terminal).",
)
@click.option(
    "--list-rules",
    is_flag=True,
    help="List the selected rules (id, severity, description, examples) and exit.",
)
def command(
    paths: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fmt: str,
    config_path: str | None,
    sources_path: str | None,
    color: bool | None,
    list_rules: bool,
) -> int:
    """Check PATHs (files or folders; - for standard input) and report the findings.

    Exit code 0 when clean, 1 when something was found, 2 on bad input.
    """
    from ..check import CheckConfig, check_paths
    from ..check.reporters import render
    from ..errors import InputError

    config = CheckConfig.load(config_path)
    if list_rules:
        return _list_rules(select, ignore, config, fmt)
    options: dict[str, object] = {"sources": None}
    if sources_path is not None:
        from .._io import read_json

        sources = read_json(sources_path)
        if not isinstance(sources, list):
            raise InputError(f"{sources_path}: expected a JSON list of sources")
        # validate once, up front: a bad list is one error, not one per checked file
        from ..cite.sources import load_sources
        from ..errors import SchemaError

        try:
            load_sources(sources)
        except SchemaError as exc:
            raise InputError(f"{sources_path}: {exc}") from None
        options["sources"] = sources
    report = check_paths(list(paths), select or None, config, ignore=ignore, options=options)
    for failed in report.errors:
        message = failed.error or "cannot read"
        if not message.startswith(failed.path):
            message = f"{failed.path}: {message}"
        sys.stderr.write(f"genlint: error: {message}\n")
    if color is None:
        color = fmt == "text" and sys.stdout.isatty()
    sys.stdout.write(render(fmt, report, color=color))
    sys.stdout.flush()
    return report.exit_code


def _list_rules(
    select: tuple[str, ...], ignore: tuple[str, ...], config: CheckConfig, fmt: str
) -> int:
    import orjson

    from ..check import Checker
    from ..check.rules.docs import document

    checker = Checker(select or None, ignore, config)
    # the same metadata as `genlint rule ID` and the README table (genlint.check.rules.docs)
    rows = [document(rule, str(checker.severity_of(rule))).to_dict() for rule in checker.rules]
    for row in rows:
        row["description"] = row["summary"]
    if fmt == "json":
        sys.stdout.write(orjson.dumps({"rules": rows}).decode("utf-8") + "\n")
    else:
        width = max((len(r["id"]) for r in rows), default=0)
        for r in rows:
            example = f"  e.g. {r['bad'][0]}" if r["bad"] else ""
            sys.stdout.write(
                f"{r['id']:<{width}}  {r['severity']:<7}  {r['description']}{example}\n"
            )
    return 0
