"""``genlint cite``: citation markers to numbered citations and a reference list (docs/commands/cite.md).

Exit 0 when every marker named a source, 1 when ids were dropped (they are listed on stderr
and in ``invalid_ids``), 2 for bad input. Several FILEs are chapters of one document:
numbering runs across them and one reference list closes the output.
"""

from __future__ import annotations

import sys
from typing import Any

import click

from ..config import Key
from .options import config_option, exit_codes, format_option, option, out_option

_STYLES = ("numeric", "apa", "mla", "gb7714")
# [cite] keys of genlint.toml (docs/configuration.md)
_CONFIG_KEYS = {"style": Key("str"), "renumber": Key("bool")}


@click.command(name="cite", epilog=exit_codes("citations naming no source were dropped"))
@click.argument("files", nargs=-1, required=True, metavar="FILE...")
@option(
    "--sources",
    "sources_path",
    required=True,
    metavar="SOURCES.json",
    help="The numbered source list: [{id, title, url, authors, year, …}].",
)
@option(
    "--style",
    default=None,
    metavar="|".join(_STYLES),
    show_default="numeric",
    help="Reference list style.",
)
@option(
    "--renumber/--no-renumber",
    default=None,
    help="Number cited sources 1…n by first appearance.",
)
@format_option("text", "json")
@out_option()
@config_option
def command(
    files: tuple[str, ...],
    sources_path: str,
    style: str | None,
    renumber: bool | None,
    fmt: str,
    out_path: str | None,
    config_path: str | None,
) -> int:
    """Turn <sources>[1, 2]</sources> markers into [1][2] and append the reference list."""
    from .._io import atomic_write, read_json, read_text, to_json
    from ..cite import load_sources, process_document
    from ..cite.bibliography import style_name
    from ..cite.process import single_result
    from ..errors import SchemaError

    settings = _settings(config_path)
    style = style_name(style or str(settings.get("style", "numeric")))
    if renumber is None:
        renumber = bool(settings.get("renumber", False))
    try:
        sources = load_sources(read_json(sources_path))
        warnings = [f"{sources_path}: {w}" for w in sources.warnings]
        if not sources.ids:
            warnings.append(f"{sources_path}: no sources: every citation is dropped")
    except SchemaError as exc:
        raise SchemaError(f"{sources_path}: {exc}") from exc
    chapters = [read_text(path) for path in files]
    doc = process_document(chapters, sources, style=style, renumber=renumber)

    for warning in warnings:
        click.echo(f"genlint: warning: {warning}", err=True)
    for token in doc.invalid_ids:
        what = f"id {token} names no source" if isinstance(token, int) else f"{token!r} is no id"
        click.echo(f"genlint: warning: dropped citation: {what}", err=True)

    payload: dict[str, Any]
    if fmt == "json":
        payload = single_result(doc).to_dict() if len(files) == 1 else doc.to_dict()
        if warnings:
            payload["warnings"] = warnings
        output = to_json(payload)
    else:
        body = "\n\n".join(c.text.rstrip("\n") for c in doc.chapters)
        output = body + ("\n\n" + doc.bibliography if doc.bibliography else "") + "\n"

    if out_path:
        atomic_write(out_path, output, inputs=[*files, sources_path])
        click.echo(
            f"genlint: wrote {out_path} ({len(doc.cited)} cited, "
            f"{len(doc.invalid_ids)} dropped, coverage {doc.coverage.ratio:.0%})",
            err=True,
        )
    else:
        sys.stdout.write(output)
        sys.stdout.flush()
    return 1 if doc.invalid_ids else 0


def _settings(config_path: str | None) -> dict[str, Any]:
    from ..config import load_config

    return load_config(config_path).validated("cite", _CONFIG_KEYS)
