"""``genlint check``: lint documents for placeholders and unmasked personal data."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..check.reporters import REPORTERS
from .options import config_option, exit_codes, format_option, option, out_option

if TYPE_CHECKING:
    from ..check import CheckConfig


@click.command("check", epilog=exit_codes("something was found (warnings included)"))
@click.argument("paths", nargs=-1, metavar="[PATH…|-]")
@option(
    "--select",
    multiple=True,
    metavar="PACKS_OR_RULES",
    show_default="placeholder,sensitive,citation",
    help="Packs or rule ids to run, comma-separated.",
)
@option("--ignore", multiple=True, metavar="RULES", help="Packs or rule ids to skip.")
@format_option(*REPORTERS, help="Report format.")
@out_option("Write the report to FILE (atomically) instead of standard output.")
@config_option
@option(
    "--sources",
    "sources_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="SOURCES.json: lets the citation pack flag ids that name no source.",
)
@option(
    "--color/--no-color",
    default=None,
    show_default="on a terminal",
    help="Colour the text report.",
)
@option(
    "--statistics",
    is_flag=True,
    help="Print counts per rule and per distinct text instead of every finding (text or json).",
)
@option(
    "--list-rules",
    is_flag=True,
    help="List the selected rules (id, severity, description, examples) and exit.",
)
def command(
    paths: tuple[str, ...],
    select: tuple[str, ...],
    ignore: tuple[str, ...],
    fmt: str,
    out_path: str | None,
    config_path: str | None,
    sources_path: str | None,
    color: bool | None,
    statistics: bool,
    list_rules: bool,
) -> int:
    """Check PATHs (files or folders; - for standard input) and report the findings."""
    from ..check import CheckConfig, check_paths
    from ..check.reporters import render
    from ..errors import InputError

    if statistics and fmt not in ("text", "json"):
        raise click.UsageError(f"--statistics prints text or json, not {fmt}")
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
    for file in report.files:
        for warning in file.warnings:
            if not warning.startswith(file.path):
                warning = f"{file.path}: {warning}"
            sys.stderr.write(f"genlint: warning: {warning}\n")
    for failed in report.errors:
        message = failed.error or "cannot read"
        if not message.startswith(failed.path):
            message = f"{failed.path}: {message}"
        sys.stderr.write(f"genlint: error: {message}\n")
    if color is None:
        color = fmt == "text" and out_path is None and sys.stdout.isatty()
    if statistics:
        from ..check.reporters import statistics as stats

        output = stats.render(report, fmt)
    else:
        output = render(fmt, report, color=color)
    if out_path is not None:
        from .._io import atomic_write

        atomic_write(out_path, output, inputs=paths)
    else:
        sys.stdout.write(output)
        sys.stdout.flush()
    return report.exit_code


def _list_rules(
    select: tuple[str, ...], ignore: tuple[str, ...], config: CheckConfig, fmt: str
) -> int:
    from .._io import to_json
    from ..check import Checker
    from ..check.rules.docs import document

    checker = Checker(select or None, ignore, config)
    # the same metadata as `genlint rule ID` and the README table (genlint.check.rules.docs)
    rows = [document(rule, str(checker.severity_of(rule))).to_dict() for rule in checker.rules]
    for row in rows:
        row["description"] = row["summary"]
    if fmt == "json":
        sys.stdout.write(to_json({"rules": rows}))
    else:
        width = max((len(r["id"]) for r in rows), default=0)
        for r in rows:
            example = f"  e.g. {r['bad'][0]}" if r["bad"] else ""
            sys.stdout.write(
                f"{r['id']:<{width}}  {r['severity']:<7}  {r['description']}{example}\n"
            )
    return 0
