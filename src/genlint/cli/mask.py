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
    after_each: Callable[[str, Any], None] | None = None,
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
                after_each(target, result)  # the vault is saved before any output that needs it exists
            write_masked(target, result.data, source, in_place)
        except GenlintError as exc:
            outcomes.append(str(exc))
            continue
        except Exception as exc:  # one file's unexpected failure costs that file only
            from ..errors import failure_line

            outcomes.append(failure_line(source, exc))
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
@option("--strict", is_flag=True,
        help="Refuse a file holding images that were not read for personal data (no OCR, EMF).")
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
    strict: bool,
    fmt: str,
    config_path: str | None,
    jobs: str,
) -> int:
    """Write each file with its personal data masked (txt, md, json, docx, pdf, images)."""
    from .._pool import resolve_jobs
    from ..check import CheckConfig
    from ..mask.batch import mask_files
    from ..mask.vault import vault_lock

    if style == "token" and vault_path is None:
        raise click.UsageError("--style token needs --vault FILE (the tokens' way back)")
    if style != "token" and vault_path is not None:
        raise click.UsageError("--vault goes with --style token")
    workers = resolve_jobs(jobs)
    config = CheckConfig.load(config_path)
    chosen = [s for part in select for s in part.split(",") if s.strip()]
    pairs = _targets(paths, out_dir, in_place)
    if style == "token":
        assert vault_path is not None
        _vault_not_an_output(vault_path, pairs)
        # the lock is held from loading the vault to its last save: a concurrent run waits, then
        # reads what this one added (docs/commands/mask.md "Tokens and the vault")
        with vault_lock(vault_path):
            outcomes = _mask_with_vault(
                pairs, in_place, vault_path, chosen or None, config, strict=strict
            )
    else:
        outcomes = list(
            mask_files(
                pairs, style, chosen or None, config, in_place=in_place, jobs=workers,
                strict=strict,
            )
        )  # fmt: skip
    done, code = _settle(pairs, outcomes)
    for source, _target, result in done:
        for warning in result.warnings:
            sys.stderr.write(f"genlint: warning: {source}: {warning}\n")
    _report(done, fmt, style)
    return code


def _vault_not_an_output(vault_path: str, pairs: Sequence[tuple[str, str]]) -> None:
    """Refuse (InputError, exit 2) a vault that an output would overwrite: the tokens' only
    way back would be lost to a masked copy (docs/commands/mask.md "Tokens and the vault")."""
    from ..errors import InputError

    vault = os.path.abspath(vault_path)
    for source, target in pairs:
        if os.path.abspath(target) == vault or os.path.abspath(source) == vault:
            raise InputError(
                f"{vault_path}: the vault is also a file this run writes ({target}); "
                "keep it outside --out"
            )


def _mask_with_vault(
    pairs: list[tuple[str, str]],
    in_place: bool,
    vault_path: str,
    select: Any,
    config: Any,
    *,
    strict: bool = False,
) -> list[Any]:
    """Token masking, in one process: each output is recorded in the vault (its SHA-256 and
    tokens), and the vault saved, before the output is written."""
    from ..mask import Masker, Vault
    from ..mask.files import mask_bytes
    from ..mask.vault import TOKEN

    vault = Vault.load_or_new(vault_path)
    masker = Masker("token", select, config, vault=vault, strict=strict)
    inputs = tuple(s for s, _ in pairs)

    def record_and_save(target: str, result: Any) -> None:
        tokens = [r.replacement for r in result.replacements if TOKEN.fullmatch(r.replacement)]
        vault.record_document(result.data, target, tokens)
        vault.save(vault_path, inputs=inputs)

    return _run_files(pairs, in_place, lambda p, d: mask_bytes(p, d, masker), record_and_save)


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


@click.command("unmask", epilog=exit_codes(
    "tokens were left: of this vault but not placed, or not from this vault (--force)"))
@click.argument("paths", nargs=-1, required=True, metavar="PATH…")
@option("--vault", "vault_path", type=click.Path(dir_okay=False), required=True, metavar="FILE",
        help="The vault written by `genlint mask --style token`.")
@option("--out", "out_dir", type=click.Path(file_okay=False), default=None, metavar="DIR",
        help="Write restored copies into DIR.")
@option("--in-place", is_flag=True, help="Replace the inputs (atomically).")
@option("--force", is_flag=True,
        help="Restore files this vault did not produce (edited since masking): what is not "
             "this vault's is reported, exit 1.")
@format_option("text", "json", help="Report format (never shows a restored value).")
def unmask_command(
    paths: tuple[str, ...], vault_path: str, out_dir: str | None, in_place: bool, force: bool,
    fmt: str,
) -> int:
    """Restore the originals of `--style token` masking from the vault (txt, md, json, docx)."""
    from .._io import to_json
    from ..errors import InputError
    from ..mask import Vault
    from ..mask.unmask import unmask_bytes

    vault = Vault.load(vault_path)
    if not vault.keeps_records and not force:
        raise InputError(
            f"{vault_path}: an old vault (version 1) records no document it masked, so it cannot "
            "show that it produced these files; --force restores them anyway"
        )
    pairs = _targets(paths, out_dir, in_place)
    work = lambda p, d: unmask_bytes(p, d, vault, force=force)  # noqa: E731
    done, code = _settle(pairs, _run_files(pairs, in_place, work))
    rows = []
    left = 0
    for source, target, r in done:
        rows.append({"path": source, "out": target, "restored": r.restored,
                     "verified": not r.forced, "unplaced": r.unplaced, "foreign": r.foreign})
        if r.forced:
            sys.stderr.write(f"genlint: warning: {source}: not verified as a document this vault "
                             "produced (restored with --force)\n")
        for what, tokens in (("could not be placed", r.unplaced),
                             ("are not from this vault", r.foreign)):
            if tokens:
                shown = ", ".join(tokens[:5]) + (f" (+{len(tokens) - 5})" if len(tokens) > 5 else "")
                sys.stderr.write(f"genlint: warning: {source}: {len(tokens)} token(s) {what}, "
                                 f"left as they are: {shown}\n")
                left += len(tokens)
    if fmt == "json":
        sys.stdout.write(to_json({"version": 1, "files": rows,
                                  "summary": {"files": len(rows),
                                              "restored": sum(r["restored"] for r in rows),
                                              "left": left}}))
    else:
        for row in rows:
            sys.stdout.write(f"{row['path']} -> {row['out']}: {row['restored']} token(s) restored\n")
    return code or (1 if left else 0)
