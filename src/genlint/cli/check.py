"""``genlint check``: lint documents for placeholders and unmasked personal data."""

from __future__ import annotations

import os
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
    show_values_option,
)

if TYPE_CHECKING:
    from ..check import CheckConfig, CheckReport, FileResult


@click.command("check", epilog=exit_codes("something was found (warnings included)"))
@click.argument("paths", nargs=-1, metavar="[PATH…|-]")
@option(
    "--select",
    multiple=True,
    metavar="PACKS_OR_RULES",
    # the default selection, spelled out so --help imports no rule (a test keeps it equal to
    # genlint.check.rules.DEFAULT_PACKS)
    show_default="placeholder,sensitive,citation,document",
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
@show_values_option
@option(
    "--annotate",
    "annotate_dir",
    type=click.Path(file_okay=False),
    default=None,
    metavar="DIR",
    help="Write a review copy of each file into DIR: Word comments, PDF notes, HTML for text.",
)
@option(
    "--lang",
    type=click.Choice(["zh", "en"]),
    default=None,
    show_default="[check] lang, else the document's (HTML, review copies)",
    help="Language of messages and fixes in HTML, review copies and (when given) the text report.",
)
@option(
    "--baseline",
    "baseline_path",
    type=click.Path(dir_okay=False),
    default=None,
    show_default="[check] baseline",
    help="Report only findings not in this baseline (see --write-baseline).",
)
@option(
    "--write-baseline",
    "write_baseline_path",
    type=click.Path(dir_okay=False),
    default=None,
    help="Record every finding in FILE as accepted (no personal values) and exit 0.",
)
@option(
    "--no-inline-ignores",
    is_flag=True,
    help="Directives written in the checked documents (genlint: ignore[...]) silence nothing.",
)
@option(
    "--isolated",
    is_flag=True,
    help="Read no configuration file (neither --config nor a discovered genlint.toml).",
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
    show_values: bool,
    annotate_dir: str | None,
    lang: str | None,
    baseline_path: str | None,
    write_baseline_path: str | None,
    no_inline_ignores: bool,
    isolated: bool,
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
    if isolated and config_path is not None:
        raise click.UsageError("--isolated reads no configuration file: drop --config")
    config = CheckConfig.load(config_path, isolated=isolated)
    if no_inline_ignores:
        from dataclasses import replace

        config = replace(config, inline_ignores=False)
    baseline_path = baseline_path or config.baseline_file  # the flag beats [check] baseline
    if engine == "ray" and (baseline_path or write_baseline_path):
        raise click.UsageError("--baseline and --write-baseline run with --engine local")
    if show_values or lang is not None:
        from dataclasses import replace

        # the flags beat the file
        config = replace(
            config, show_values=show_values or config.show_values, lang=lang or config.lang
        )
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
            loaded = load_sources(sources)
        except SchemaError as exc:
            raise InputError(f"{sources_path}: {exc}") from None
        for warning in loaded.warnings:
            sys.stderr.write(f"genlint: warning: {sources_path}: {warning}\n")
        options["sources"] = sources
    if engine == "ray" and annotate_dir is not None:
        raise click.UsageError("--annotate runs with --engine local")
    if engine == "ray":
        from .check_ray import run_on_ray

        ray_paths = list(paths)
        if config.exclude:
            from ..check.suppress import not_excluded
            from ..readers import expand_paths

            # the files [check] exclude leaves, as check_paths reads them on this machine
            ray_paths = not_excluded(expand_paths(ray_paths), config)
        ray_report, total = run_on_ray(
            ray_paths,
            (select or None, ignore, config, options),
            fmt=fmt,
            out_path=out_path,
            address=ray_address,
            jobs=workers if jobs != "1" else None,
        )
        if fmt != "parquet":
            return finish(ray_report, fmt, out_path, paths, color, statistics, config.show_values)
        report_problems(ray_report.files)
        if ray_report.errors:
            return 2
        return 1 if total else 0
    from ..readers import expand_paths
    from .progress import progress_bar

    skipped: list[str] = []
    files = expand_paths(list(paths), skipped)  # once: check_paths takes the files as they are
    with progress_bar("checking", len(files), pages=True) as advance:
        report = check_paths(
            files,
            select or None,
            config,
            ignore=ignore,
            options=options,
            jobs=workers,
            progress=advance,
        )
    report.skipped[:0] = skipped
    if files and not report.files:
        # a run that read nothing is no pass: say why
        sys.stderr.write(
            f"genlint: warning: all {len(files)} file{'s' if len(files) != 1 else ''} "
            "excluded by [check] exclude; nothing was checked\n"
        )
    if write_baseline_path is not None:
        return _write_baseline(report, write_baseline_path, paths)
    if baseline_path is not None:
        from ..check.baseline import apply_baseline, load_baseline

        report, accepted = apply_baseline(report, load_baseline(baseline_path))
        if accepted:
            sys.stderr.write(
                f"genlint: {accepted} finding{'s' if accepted != 1 else ''} "
                f"accepted by {baseline_path} not shown\n"
            )
    code = finish(
        report, fmt, out_path, paths, color, statistics, config.show_values, lang=config.lang
    )
    if annotate_dir is not None:
        code = max(code, _annotate(report, annotate_dir, config))
    return code


def _annotate(report: CheckReport, out_dir: str, config: CheckConfig) -> int:
    """Review copies into ``out_dir``; each one written and each skipped said on stderr (a
    skipped file is exit 2: the copy the user asked for is missing)."""
    from ..check.annotate import annotate_report

    done = annotate_report(report, out_dir, lang=config.lang, show_values=config.show_values)
    for source, copy, notes in done.written:
        sys.stderr.write(f"genlint: annotated {source} -> {copy} ({notes} notes)\n")
    for source, why in done.skipped:
        why = why if why.startswith(source) else f"{source}: {why}"
        sys.stderr.write(f"genlint: error: not annotated: {why}\n")
    return 2 if done.skipped else 0


def _write_baseline(report: CheckReport, path: str, paths: tuple[str, ...]) -> int:
    """Write the baseline; 0, or 2 when a file could not be read (its findings are missing)."""
    from .._io import atomic_write
    from ..check.baseline import baseline_json

    report_problems(report.files)
    atomic_write(path, baseline_json(report, os.path.dirname(os.path.abspath(path))), inputs=paths)
    n = len(report.findings)
    sys.stderr.write(f"genlint: wrote {n} finding{'s' if n != 1 else ''} to {path}\n")
    return 2 if report.errors else 0


def finish(
    report: CheckReport,
    fmt: str,
    out_path: str | None,
    paths: tuple[str, ...] | list[str],
    color: bool | None,
    statistics: bool,
    show_values: bool = False,
    *,
    lang: str | None = None,
) -> int:
    """Warnings and unreadable files on stderr, then the report, written once and whole, with
    personal values masked unless ``show_values`` (genlint.check.redact)."""
    from dataclasses import replace

    text_on_stdout = fmt == "text" and out_path is None and not statistics
    # the text report lists each unreadable file; when it shares the terminal (or pipe) with
    # stderr, the stderr line would print the error a second time
    report_problems(report.files, errors=not (text_on_stdout and _same_stream()))
    from ..check.reporters._safe import printable

    for line in report.skipped:
        sys.stderr.write(f"genlint: warning: {printable(line)}\n")
    # every reporter masks personal values unless the report says to show them
    report = replace(report, show_values=show_values)
    if text_on_stdout and report.errors:
        # the text report puts the path before the error, which already starts with it
        report = replace(report, files=[_without_path(f) for f in report.files])
    if color is None:
        color = fmt == "text" and out_path is None and sys.stdout.isatty()
    if fmt == "parquet":
        from ..batch.parquet import write_report

        assert out_path is not None  # checked with the options
        write_report(report, out_path, inputs=paths, show_values=show_values)
        return report.exit_code
    if statistics:
        from ..check.reporters import statistics as stats

        output = stats.render(report, fmt)
    else:
        output = render(fmt, report, color=color, width=_terminal_columns(fmt, out_path), lang=lang)
    if out_path is not None:
        from .._io import atomic_write

        atomic_write(out_path, output, inputs=paths)
    else:
        sys.stdout.write(output)
        sys.stdout.flush()
    return report.exit_code


def _terminal_columns(fmt: str, out_path: str | None) -> int | None:
    """The width the text report fits: the terminal's (or ``COLUMNS``, as a shell exports it);
    None when the report goes to a file or a pipe, whose lines nothing wraps."""
    import os

    if fmt != "text" or out_path is not None:
        return None
    if not sys.stdout.isatty() and not os.environ.get("COLUMNS", "").isdigit():
        return None
    from ..check.reporters.text import terminal_width

    return terminal_width()


def _same_stream() -> bool:
    """Whether standard output and standard error are one file (a terminal, ``2>&1``)."""
    import os

    try:
        return os.path.samestat(os.fstat(sys.stdout.fileno()), os.fstat(sys.stderr.fileno()))
    except (OSError, ValueError, AttributeError):  # a replaced stream without a descriptor
        return False


def _without_path(file: FileResult) -> FileResult:
    from dataclasses import replace

    if file.error and file.error.startswith(f"{file.path}: "):
        return replace(file, error=file.error[len(file.path) + 2 :])
    return file


def report_problems(files: list[FileResult], errors: bool = True) -> None:
    """A reader's repairs as warnings and each unreadable file as an error (unless
    ``errors`` is false: the report on the same stream shows them), on stderr."""
    from ..check.report import display_path

    def named(path: str, text: str) -> str:
        # the path as the findings name it (drafts/x.png, not ./drafts/x.png)
        shown = display_path(path)
        return shown + text[len(path) :] if text.startswith(path) else f"{shown}: {text}"

    for file in files:
        for warning in file.warnings:
            sys.stderr.write(f"genlint: warning: {named(file.path, warning)}\n")
    for failed in files if errors else ():
        if failed.error is not None:
            message = named(failed.path, failed.error or "cannot read")
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
