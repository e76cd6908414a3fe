"""``genlint check``: lint documents for placeholders and unmasked personal data."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

import click

from ..check.reporters import REPORTERS, render
from .options import (
    config_option,
    exit_codes,
    format_option,
    jobs_option,
    option,
    out_option,
)

if TYPE_CHECKING:
    from ..check import CheckConfig, CheckReport, FileResult


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
@format_option(
    *REPORTERS,
    "parquet",
    help="Report format (parquet: one row per finding, needs --out; inferred from FILE.parquet).",
)
@out_option("Write the report to FILE (atomically) instead of standard output.", dir_okay=True)
@jobs_option("Check files")
@option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="Where to run: this machine, or a Ray cluster (needs genlint[ray]).",
)
@option(
    "--ray-address",
    default=None,
    metavar="ADDR",
    show_default="RAY_ADDRESS, else a local cluster",
    help="Ray cluster to run on with --engine ray (host:port or ray://host:port).",
)
@config_option
@option(
    "--sources",
    "sources_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="SOURCES.json: lets the citation pack flag ids that name no source.",
)
@option(
    "--profile",
    type=click.Choice(["default", "judgment"]),
    default=None,
    show_default="[check] profile, else default",
    help="What the documents are: judgment keeps anonymised names (李某, 张某1) quiet.",
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
    jobs: str,
    engine: str,
    ray_address: str | None,
    config_path: str | None,
    sources_path: str | None,
    profile: str | None,
    color: bool | None,
    statistics: bool,
    list_rules: bool,
) -> int:
    """Check PATHs (files or folders; - for standard input) and report the findings."""
    from ..check import CheckConfig, check_paths
    from ..check.parallel import resolve_jobs
    from ..errors import InputError

    workers = resolve_jobs(jobs)
    if out_path is not None and out_path.lower().endswith(".parquet") and fmt == "text":
        fmt = "parquet"  # the default format never beats what the file name says
    if fmt == "parquet" and out_path is None:
        raise click.UsageError("--format parquet writes a file: give --out FILE.parquet")
    if statistics and fmt not in ("text", "json"):
        raise click.UsageError(f"--statistics prints text or json, not {fmt}")
    if ray_address is not None and engine != "ray":
        raise click.UsageError("--ray-address needs --engine ray")
    config = CheckConfig.load(config_path)
    if list_rules:
        return _list_rules(select, ignore, config, fmt)
    options: dict[str, object] = {"sources": None}
    if profile is not None:
        options["profile"] = profile
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
    if engine == "ray":
        from .check_ray import run_on_ray

        return run_on_ray(
            list(paths),
            (select or None, ignore, config, options),
            fmt=fmt,
            out_path=out_path,
            address=ray_address,
            jobs=workers if jobs != "1" else None,
            color=color,
            statistics=statistics,
        )
    from ..readers import expand_paths
    from .progress import progress_bar

    files = expand_paths(list(paths))  # once: check_paths takes the files as they are
    with progress_bar("checking", len(files)) as advance:
        report = check_paths(
            files,
            select or None,
            config,
            ignore=ignore,
            options=options,
            jobs=workers,
            progress=advance,
        )
    return finish(report, fmt, out_path, paths, color, statistics)


def finish(
    report: CheckReport,
    fmt: str,
    out_path: str | None,
    paths: tuple[str, ...] | list[str],
    color: bool | None,
    statistics: bool,
) -> int:
    """Warnings and unreadable files on stderr, then the report, written once and whole."""
    report_problems(report.files)
    if color is None:
        color = fmt == "text" and out_path is None and sys.stdout.isatty()
    if fmt == "parquet":
        from ..batch.parquet import write_report

        assert out_path is not None  # checked with the options
        write_report(report, out_path, inputs=paths)
        return report.exit_code
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


def report_problems(files: list[FileResult]) -> None:
    """A reader's repairs as warnings and each unreadable file as an error, on stderr."""
    for file in files:
        for warning in file.warnings:
            if not warning.startswith(file.path):
                warning = f"{file.path}: {warning}"
            sys.stderr.write(f"genlint: warning: {warning}\n")
    for failed in files:
        if failed.error is None:
            continue
        message = failed.error or "cannot read"
        if not message.startswith(failed.path):
            message = f"{failed.path}: {message}"
        sys.stderr.write(f"genlint: error: {message}\n")


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
