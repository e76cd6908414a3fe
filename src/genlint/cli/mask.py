"""``genlint mask`` and ``genlint unmask``: write desensitised copies, and restore tokens."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import click

from .options import config_option, exit_codes, format_option, jobs_option, option

_EPILOG = exit_codes("(not used: masking either writes every file or fails)")


def _targets(paths: Sequence[str], out_dir: str | None, in_place: bool) -> list[tuple[str, str]]:
    """(input, output) per file; refuses an output folder that is an input folder and an
    output that is its own input without ``--in-place``."""
    from ..errors import InputError
    from ..readers import expand_paths

    if in_place == (out_dir is not None):
        raise click.UsageError("give either --out DIR or --in-place")
    if "-" in paths:
        raise InputError("mask writes files: standard input ('-') has no file to write")
    files = expand_paths(list(paths))
    if in_place:
        return [(f, f) for f in files]
    assert out_dir is not None
    out = Path(out_dir)
    if out.exists() and not out.is_dir():
        raise InputError(f"{out_dir}: --out must be a folder")
    pairs: list[tuple[str, str]] = []
    for given in paths:
        if os.path.isdir(given) and out.exists() and os.path.samefile(given, out):
            raise InputError(
                f"{out_dir}: the output folder is the input folder; use --in-place to replace "
                "the inputs"
            )
    for f in files:
        root = next((p for p in paths if os.path.isdir(p) and _under(f, p)), None)
        rel = os.path.relpath(f, root) if root is not None else os.path.basename(f)
        target = out / rel
        if target.exists() and os.path.samefile(target, f):
            raise InputError(f"{target}: is the input itself; use --in-place to replace it")
        pairs.append((f, str(target)))
    return pairs


def _under(path: str, folder: str) -> bool:
    return os.path.commonpath([os.path.abspath(path), os.path.abspath(folder)]) == os.path.abspath(
        folder
    )


def _run_files(
    pairs: list[tuple[str, str]],
    in_place: bool,
    work: Callable[[str, bytes], Any],
    after_each: Callable[[], None] | None = None,
) -> list[Any]:
    """Run ``work`` on each file and write its bytes: each file's result, or its error message
    (nothing written for it). Token masking and unmask go through here, in one process."""
    from .._io import read_bytes
    from ..errors import GenlintError
    from ..mask.batch import write_masked

    outcomes: list[Any] = []
    for source, target in pairs:
        try:
            result = work(source, read_bytes(source))
            if after_each is not None:
                after_each()  # the vault is saved before any output that needs it exists
            write_masked(target, result.data, source, in_place)
        except GenlintError as exc:
            outcomes.append(str(exc))
            continue
        outcomes.append(result)
    return outcomes


def _settle(
    pairs: list[tuple[str, str]], outcomes: list[Any]
) -> tuple[list[tuple[str, str, Any]], int]:
    """A bad file is one line on stderr, in input order, and is skipped; exit 2 at the end if
    any was bad."""
    done: list[tuple[str, str, Any]] = []
    failed = 0
    for (source, target), outcome in zip(pairs, outcomes, strict=True):
        if isinstance(outcome, str):
            message = outcome if outcome.startswith(source) else f"{source}: {outcome}"
            sys.stderr.write(f"genlint: error: {' '.join(message.split())}\n")
            failed += 1
            continue
        done.append((source, target, outcome))
    return done, (2 if failed else 0)


@click.command("mask", epilog=_EPILOG)
@click.argument("paths", nargs=-1, required=True, metavar="PATH…")
@option("--out", "out_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
        help="Write masked copies into DIR (folders keep their layout).")
@option("--in-place", is_flag=True, help="Replace the inputs (atomically).")
@option("--style", type=click.Choice(["keep-ends", "stars", "label", "token"]),
        default="keep-ends", show_default=True, help="What a masked value becomes.")
@option("--select", multiple=True, metavar="RULES", show_default="the sensitive pack",
        help="Rules of the sensitive pack to mask, comma-separated.")
@option("--vault", "vault_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
        help="Token vault (--style token): created with mode 0600, or extended.")
@format_option("text", "json", help="Report format (never shows an original value).")
@config_option
@jobs_option("Mask files (--style token: in one process, one vault)")
def command(
    paths: tuple[str, ...],
    out_dir: str | None,
    in_place: bool,
    style: str,
    select: tuple[str, ...],
    vault_path: str | None,
    fmt: str,
    config_path: str | None,
    jobs: str,
) -> int:
    """Write each file with its personal data masked (txt, md, json, docx, pdf)."""
    from .._pool import resolve_jobs
    from ..check import CheckConfig
    from ..mask import Masker, Vault
    from ..mask.batch import mask_files
    from ..mask.files import mask_bytes

    if style == "token" and vault_path is None:
        raise click.UsageError("--style token needs --vault FILE (the tokens' way back)")
    if style != "token" and vault_path is not None:
        raise click.UsageError("--vault goes with --style token")
    workers = resolve_jobs(jobs)
    config = CheckConfig.load(config_path)
    chosen = [s for part in select for s in part.split(",") if s.strip()]
    vault = Vault.load_or_new(vault_path) if vault_path is not None else None
    masker = Masker(style, chosen or None, config, vault=vault)
    pairs = _targets(paths, out_dir, in_place)

    def save_vault() -> None:
        if vault is not None and vault_path is not None:
            vault.save(vault_path, inputs=tuple(s for s, _ in pairs))

    if style == "token":
        outcomes = _run_files(pairs, in_place, lambda p, d: mask_bytes(p, d, masker), save_vault)
    else:
        outcomes = list(
            mask_files(
                pairs, style, chosen or None, config, in_place=in_place, jobs=workers,
                masker=masker,
            )
        )  # fmt: skip
    done, code = _settle(pairs, outcomes)
    for source, _target, result in done:
        for warning in result.warnings:
            sys.stderr.write(f"genlint: warning: {source}: {warning}\n")
    _report(done, fmt, style)
    return code


def _report(done: list[tuple[str, str, Any]], fmt: str, style: str) -> None:
    from .._io import to_json

    by_rule: dict[str, int] = {}
    files = []
    for source, target, result in done:
        counts: dict[str, int] = {}
        for r in result.replacements:
            counts[r.rule] = counts.get(r.rule, 0) + 1
            by_rule[r.rule] = by_rule.get(r.rule, 0) + 1
        files.append({"path": source, "out": target, "kind": result.kind,
                      "masked": [r.to_dict() for r in result.replacements],
                      "by_rule": dict(sorted(counts.items()))})
    total = sum(by_rule.values())
    if fmt == "json":
        sys.stdout.write(to_json({
            "version": 1, "style": style, "files": files,
            "summary": {"files": len(files), "masked": total, "by_rule": dict(sorted(by_rule.items()))},
        }))
        return
    for f in files:
        n = len(f["masked"])
        detail = ", ".join(f"{rule} {c}" for rule, c in f["by_rule"].items())
        sys.stdout.write(f"{f['path']} -> {f['out']}: {n} masked" + (f" ({detail})" if n else "") + "\n")
    sys.stdout.write(f"{len(files)} file(s) written, {total} value(s) masked\n")


@click.command("unmask", epilog=exit_codes("(not used)"))
@click.argument("paths", nargs=-1, required=True, metavar="PATH…")
@option("--vault", "vault_path", type=click.Path(dir_okay=False), required=True, metavar="FILE",
        help="The vault written by `genlint mask --style token`.")
@option("--out", "out_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
        help="Write restored copies into DIR.")
@option("--in-place", is_flag=True, help="Replace the inputs (atomically).")
@format_option("text", "json", help="Report format (never shows a restored value).")
def unmask_command(
    paths: tuple[str, ...], vault_path: str, out_dir: str | None, in_place: bool, fmt: str
) -> int:
    """Restore the originals of `--style token` masking from the vault (txt, md, json, docx)."""
    from .._io import to_json
    from ..mask import Vault
    from ..mask.unmask import unmask_bytes

    vault = Vault.load(vault_path)
    pairs = _targets(paths, out_dir, in_place)
    done, code = _settle(pairs, _run_files(pairs, in_place, lambda p, d: unmask_bytes(p, d, vault)))
    rows = [{"path": s, "out": t, "restored": r.restored, "unplaced": list(r.unplaced)}
            for s, t, r in done]
    for r in rows:
        if r["unplaced"]:
            # tokens only (never a value): the file was written with these still masked
            sys.stderr.write(f"genlint: warning: {r['path']}: {len(r['unplaced'])} token(s) could "
                             f"not be placed back: {', '.join(r['unplaced'])}\n")
            code = max(code, 1)
    if fmt == "json":
        sys.stdout.write(to_json({"version": 1, "files": rows,
                                  "summary": {"files": len(rows),
                                              "restored": sum(r["restored"] for r in rows)}}))
    else:
        for r in rows:
            sys.stdout.write(f"{r['path']} -> {r['out']}: {r['restored']} token(s) restored\n")
    return code
