"""``genlint parse``: turn an LLM reply into the JSON value it meant."""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import click

from ..config import Key
from ..errors import InputError
from .options import config_option, exit_codes, format_option, option, out_option

# [parse] keys of genlint.toml (docs/configuration.md)
_CONFIG_KEYS = {"fields": Key("str_list"), "schema": Key("str")}


@click.command(
    name="parse",
    epilog=exit_codes("no acceptable JSON value was found, or the value lost data (lossy)"),
)
@click.argument("file", default="-", required=False, metavar="[FILE|-]")
@option(
    "--schema", "schema_path", metavar="SCHEMA.json", help="JSON Schema the value must satisfy."
)
@option("--fields", metavar="NAME,NAME", help="Field names the value must hold.")
@format_option(
    "text",
    "json",
    help="text: the value as pretty JSON (strategy, and a cut, a guess or lost data, on stderr); "
    "json: the full result.",
)
@out_option()
@config_option
def command(
    file: str,
    schema_path: str | None,
    fields: str | None,
    fmt: str,
    out_path: str | None,
    config_path: str | None,
) -> int:
    """Parse FILE (or standard input) strictly, then repaired, extracted, or by fields."""
    from .._io import atomic_write, read_json, to_json
    from ..config import load_config
    from ..parse import parse_json
    from ..parse.accept import Acceptor
    from ..parse.closing import MAX_DEPTH

    config = load_config(config_path)
    section = config.validated("parse", _CONFIG_KEYS)
    if schema_path is None and section.get("schema") is not None:
        # A schema named in the configuration is relative to the configuration file.
        configured = Path(str(section["schema"]))
        if not configured.is_absolute() and config.path is not None:
            configured = config.path.parent / configured
        schema_path = str(configured)
    names = _field_names(fields, section.get("fields"))
    schema: Any = None
    if schema_path is not None:
        schema = read_json(schema_path)
        if not isinstance(schema, dict | bool):
            raise InputError(f"{schema_path}: a JSON Schema must be an object")
        try:
            Acceptor(schema)  # validates the schema itself, before reading the reply
        except InputError as exc:
            raise InputError(f"{schema_path}: {exc}") from None

    from .._io import read_bytes, utf8_text
    from ..parse.encoding import detect

    data = read_bytes(file)
    # UTF-16/32 (by BOM or zero-byte pattern, RFC 8259 §8.1) is decoded by the funnel
    reply: str | bytes = data if detect(data)[0] != "utf-8" else utf8_text(file, data)
    result = parse_json(reply, schema=schema, fields=names)
    output = None
    # A value nested up to the parser's limit (1,024 levels) is deeper than the writer's
    # fallback may recurse by default; the C encoder needs far less stack than that allows.
    with _recursion_limit(4 * MAX_DEPTH + 200):
        if fmt == "json":
            output = to_json(result.to_dict())
        elif result.ok:
            output = to_json(result.to_dict()["value"])
            sys.stderr.write(f"genlint: parse: strategy {result.strategy}\n")
    if fmt != "json" and not result.ok:
        sys.stderr.write("genlint: parse: no acceptable JSON value\n")
        for line in result.errors:
            sys.stderr.write(f"  {line}\n")
    warning = result.warning() if result.ok else None
    if warning and (fmt != "json" or result.lossy):
        # a cut or a guess is said in text mode (the JSON result carries the flags); a value
        # that lost data is no clean success (exit 1), though it is printed
        sys.stderr.write(f"genlint: parse: {warning}\n")
    if output is not None:
        if out_path is not None:
            atomic_write(out_path, output, inputs=[file])
        else:
            sys.stdout.write(output)
    # NaN/Infinity are float values in Python but null in JSON output: the printed value lost them
    # (docs/commands/parse.md "Numbers")
    nonfinite = any("NaN/Infinity value(s)" in note for note in result.repairs)
    if nonfinite:
        sys.stderr.write(
            "genlint: parse: lost data: NaN/Infinity written as null (JSON has no such numbers)\n"
        )
    return 0 if result.ok and not result.lossy and not nonfinite else 1


@contextlib.contextmanager
def _recursion_limit(limit: int) -> Iterator[None]:
    before = sys.getrecursionlimit()
    sys.setrecursionlimit(max(before, limit))
    try:
        yield
    finally:
        sys.setrecursionlimit(before)


def _field_names(flag: str | None, configured: Any) -> list[str] | None:
    if flag is not None:
        names = [name.strip() for name in flag.split(",") if name.strip()]
        if not names:
            raise InputError("--fields: give at least one field name")
        return names
    if configured is None:
        return None
    return list(configured) or None  # validated as a list of strings with the section
