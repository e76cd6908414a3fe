"""``genlint generate``: call an OpenAI-compatible endpoint until the reply passes the checks.

Exit 0 when every reply came back clean, 1 when one ended degraded or failed, 2 on bad input
or when the endpoint could not be used at all (unreachable, authentication, unknown model).
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

import click

from ..config import Key
from ..errors import InputError
from .options import (
    config_option,
    deprecated_alias,
    endpoint_options,
    exit_codes,
    format_option,
    option,
    prefer,
    show_values_option,
)

logger = logging.getLogger(__name__)

PROMPT_SUFFIXES = (".txt", ".md", ".json")
# Endpoint failures that no retry fixes: the command reports them as bad input (exit 2).
_UNUSABLE = {"connection", "auth", "not_found", "bad_request"}

# [generate] keys of genlint.toml and the types they accept.
_CONFIG_KEYS: dict[str, Key] = {
    "model": Key("str"),
    "base_url": Key("str"),
    "api_key_env": Key("str"),
    "select": Key("str_or_list"),
    "max_retries": Key("int"),
    "deadline_s": Key("number"),
    "token_budget": Key("int"),
    "attempt_timeout_s": Key("number"),
    "transient_retries": Key("int"),
    "on_fail": Key("str"),
    "on_terminal": Key("str"),
    "temperature": Key("number"),
    "max_tokens": Key("int"),
    "concurrency": Key("int"),
    "system": Key("str"),
    "show_values": Key("bool"),
    "keep_personal_data": Key("bool"),
}


@click.command(
    "generate", epilog=exit_codes("a reply was never clean (degraded or failed)")
)
@option(
    "--prompt-file", "prompt_file", metavar="P", help="Prompt: text, or JSON messages; - for stdin."
)
@option(
    "--prompts-dir",
    "prompts_dir",
    metavar="DIR",
    help="A batch: every .txt/.md/.json prompt in DIR.",
)
@endpoint_options
@deprecated_alias("--attempt-timeout", "--timeout", "attempt_timeout_alias", type=float)
@option(
    "--select",
    metavar="RULES",
    show_default="placeholder,sensitive",
    help="Check packs/rules, comma-separated.",
)
@option(
    "--schema",
    "schema_file",
    metavar="SCHEMA.json",
    help="Also require JSON valid against this schema.",
)
@option("--system", metavar="TEXT", help="System message sent before each prompt.")
@option("--max-retries", type=int, show_default="3", help="Re-asks after the first attempt.")
@option(
    "--deadline", "deadline_s", type=float, help="Seconds per prompt, all attempts included."
)
@option("--token-budget", type=int, help="Tokens per prompt, all attempts included.")
@option(
    "--transient-retries",
    type=int,
    show_default="4",
    help="Resends after timeouts, 429, 5xx, connection errors.",
)
@option(
    "--on-fail",
    type=click.Choice(["best", "none"]),
    show_default="best",
    help="Never clean: return the best attempt, or nothing.",
)
@option(
    "--on-terminal",
    type=click.Choice(["stop", "resend"]),
    show_default="stop",
    help="After a truncated or refused reply.",
)
@option("--temperature", type=float, help="Sampling temperature.")
@option("--max-tokens", type=int, help="Reply length cap per request.")
@option("--concurrency", type=int, show_default="8", help="Prompts in flight at once in a batch.")
@option(
    "--out", metavar="FILE", help="Write the text there (a folder with --prompts-dir), atomically."
)
@option(
    "--mask-prompts",
    is_flag=True,
    help="Send personal data as tokens (<PHONE_1>) and restore them in the reply.",
)
@option(
    "--keep-personal-data",
    is_flag=True,
    help="Write a never-clean reply as it came, personal data included (otherwise masked).",
)
@show_values_option
@format_option("text", "json")
@config_option
def command(**opts: Any) -> int:
    """Call an LLM until its output passes the checks.

    --timeout limits each request (60 s unless set), --deadline all attempts of a prompt."""
    from .._io import read_json
    from ..config import load_config
    from ..generate import Gate
    from ..llm import OpenAICompatible

    mask_prompts = bool(opts.pop("mask_prompts", False))
    opts["attempt_timeout_s"] = prefer(opts.pop("timeout"), opts.pop("attempt_timeout_alias"))
    for flag in ("show_values", "keep_personal_data"):
        opts[flag] = opts[flag] or None  # an unset flag leaves the file's value
    settings = _settings(load_config(opts.pop("config_path")).validated("generate", _CONFIG_KEYS), opts)
    opts["show_values"] = bool(settings.get("show_values", False))
    opts["keep_personal_data"] = bool(settings.get("keep_personal_data", False))
    if bool(opts["prompt_file"]) == bool(opts["prompts_dir"]):
        raise InputError("give exactly one of --prompt-file or --prompts-dir")
    if not settings.get("model"):
        raise InputError("--model is required (or model in the [generate] config section)")

    checks: list[Any] = [
        c.strip() for c in _as_list(settings.get("select", "placeholder,sensitive"))
    ]
    if opts["schema_file"]:
        from ..generate import json_check

        checks.append(json_check(schema=read_json(opts["schema_file"])))
    model = OpenAICompatible(
        settings["model"],
        settings.get("base_url"),
        settings.get("api_key_env", "OPENAI_API_KEY"),
        timeout=float(settings.get("attempt_timeout_s", 60.0)),
        temperature=settings.get("temperature"),
        max_tokens=settings.get("max_tokens"),
    )
    gate = Gate(
        checks,
        max_retries=settings.get("max_retries", 3),
        deadline_s=settings.get("deadline_s"),
        token_budget=settings.get("token_budget"),
        attempt_timeout_s=settings.get("attempt_timeout_s", 60.0),
        on_fail=settings.get("on_fail", "best"),
        on_terminal=settings.get("on_terminal", "stop"),
        max_transient_retries=settings.get("transient_retries", 4),
        system=settings.get("system"),
        mask_prompts=mask_prompts,
    )
    if not opts["keep_personal_data"]:
        from ..generate.personal import sensitive_selection

        # a never-clean reply is written and shown with its personal data masked
        opts["mask_select"] = sensitive_selection(checks)
    if opts["prompts_dir"]:
        return _batch(gate, model, Path(opts["prompts_dir"]), opts, settings.get("concurrency", 8))
    return _single(gate, model, opts)


def _masked(result: Any, opts: dict[str, Any]) -> Any:
    """The result as it may be written: personal data of a never-clean reply masked unless
    --keep-personal-data (genlint.generate.personal)."""
    if "mask_select" not in opts:
        return result
    from ..generate.personal import mask_personal_data

    return mask_personal_data(result, opts["mask_select"])


def _as_dict(result: Any, opts: dict[str, Any]) -> dict[str, Any]:
    from ..generate.personal import result_dict

    return result_dict(result, show_values=opts["show_values"])


def _single(gate: Any, model: Any, opts: dict[str, Any]) -> int:
    from .._io import atomic_write

    source = opts["prompt_file"]
    prompt = _read_prompt(source)
    if opts["out"]:
        _check_out_file(opts["out"], source)
    result = _masked(gate.run(model, prompt), opts)
    _refuse_unusable([result])
    if opts["out"] and result.text is not None:
        atomic_write(opts["out"], result.text, inputs=[source])
    if opts["fmt"] == "json":
        _print_json({"version": 1, "prompt": source, **_as_dict(result, opts)})
    else:
        if result.text is not None and not opts["out"]:
            sys.stdout.write(result.text if result.text.endswith("\n") else result.text + "\n")
        _summary(
            source,
            result,
            stream=sys.stderr if not opts["out"] else sys.stdout,
            show_values=opts["show_values"],
        )
    return 0 if result.ok else 1


def _batch(gate: Any, model: Any, folder: Path, opts: dict[str, Any], concurrency: Any) -> int:
    from .._io import atomic_write
    from ..generate import BatchStats

    if not folder.is_dir():
        raise InputError(f"{folder}: no such folder")
    paths = sorted(
        p for p in folder.rglob("*") if p.is_file() and p.suffix.lower() in PROMPT_SUFFIXES
    )
    if not paths:
        raise InputError(f"{folder}: no .txt, .md or .json prompt files")
    # one malformed prompt is that prompt's error line (exit 2 at the end), never the batch's
    failed: dict[str, str] = {}
    readable: list[tuple[Path, Any]] = []
    for p in paths:
        try:
            readable.append((p, _read_prompt(str(p))))
        except InputError as exc:
            failed[str(p.relative_to(folder))] = str(exc)
    for message in failed.values():
        sys.stderr.write(f"genlint: error: {' '.join(message.split())}\n")
    if not readable:
        raise InputError(f"{folder}: no prompt could be read ({len(failed)} failed)")
    paths = [p for p, _ in readable]
    prompts = [prompt for _, prompt in readable]
    out_dir = Path(opts["out"]) if opts["out"] else None
    if out_dir is not None and not out_dir.is_dir():
        raise InputError(f"{out_dir}: --out must be an existing folder with --prompts-dir")
    if not isinstance(concurrency, int) or concurrency < 1:
        raise InputError("--concurrency must be ≥ 1")
    names = [str(p.relative_to(folder)) for p in paths]
    targets: dict[Path, str] = {}
    inputs = {p.resolve() for p in paths}
    for name in names:
        target = Path(name).with_suffix(".txt")
        other = targets.setdefault(target, name)
        if out_dir is None:
            continue
        if other != name:
            raise InputError(f"{other} and {name} would both be written to {target}")
        if (out_dir / target).resolve() in inputs:
            raise InputError(f"--out {out_dir} would overwrite the prompt {out_dir / target}")
    from .progress import progress_bar

    kept: list[str] = []
    masked: dict[int, Any] = {}  # each result masked once, as it finishes

    def keep(index: int, result: Any) -> None:
        """Write each result as it finishes, and its ledger line: Ctrl-C loses none of them."""
        result = masked[index] = _masked(result, opts)
        if out_dir is None:
            return
        written = None
        if result.text is not None:
            target = out_dir / Path(names[index]).with_suffix(".txt")
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, result.text, inputs=paths)
            written = str(target)
            kept.append(written)
        _ledger_line(out_dir, names[index], result, written)

    try:
        with progress_bar("generate", len(prompts)) as advance:
            results = gate.run_many(
                model, prompts, concurrency=concurrency, progress=advance, on_result=keep
            )
    except KeyboardInterrupt:
        where = f" in {out_dir}" if out_dir is not None else ""
        sys.stderr.write(f"genlint: interrupted: kept {len(kept)} finished result(s){where}\n")
        raise
    _refuse_unusable(results, every=True)
    results = [masked[i] if i in masked else _masked(r, opts) for i, r in enumerate(results)]
    stats = BatchStats.of(results)
    if opts["fmt"] == "json":
        _print_json(
            {
                "version": 1,
                "results": [
                    {"prompt": n, **_as_dict(r, opts)}
                    for n, r in zip(names, results, strict=True)
                ]
                + [{"prompt": n, "error": message} for n, message in failed.items()],
                "summary": stats.to_dict(),
            }
        )
    else:
        for name, result in zip(names, results, strict=True):
            _summary(name, result, stream=sys.stdout, show_values=opts["show_values"])
        s = stats
        sys.stdout.write(
            f"{s.items} prompt(s): first-try pass {s.first_try_pass_rate:.1%}, final pass "
            f"{s.final_pass_rate:.1%}, {s.mean_attempts:.2f} attempts/prompt, "
            f"{s.retry_tokens} tokens on retries of {s.total_tokens}\n"
        )
    if failed:
        return 2
    return 0 if all(r.ok for r in results) else 1


# -- helpers ---------------------------------------------------------------------------------
def _settings(section: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
    merged = dict(section)
    for key in _CONFIG_KEYS:
        if opts.get(key) is not None:
            merged[key] = opts[key]  # flags beat the file
    return merged


def _as_list(value: Any) -> list[str]:
    if isinstance(value, list):
        return [str(v) for v in value]
    return [v for v in str(value).split(",") if v.strip()]


def _read_prompt(path: str) -> Any:
    from .._io import read_json, read_text

    if path.lower().endswith(".json"):
        data = read_json(path)  # every JSON error names the file, as the other commands say it
        messages = data.get("messages") if isinstance(data, dict) else data
        if not (
            isinstance(messages, list)
            and messages
            and all(
                isinstance(m, dict)
                and isinstance(m.get("role"), str)
                and isinstance(m.get("content"), str)
                for m in messages
            )
        ):
            raise InputError(
                f'{path}: expected a list of {{role, content}} messages or {{"messages": [...]}}'
            )
        return messages
    text = read_text(path)
    if not text.strip():
        raise InputError(f"{path}: the prompt is empty")
    return text


def _ledger_line(out_dir: Path, name: str, result: Any, written: str | None) -> None:
    """One JSON line per finished prompt in ``genlint-ledger.jsonl`` (appended: a line is
    written in one call, so an interrupted run leaves whole lines)."""
    from .._io import to_json

    total = getattr(result, "total_usage", None)
    line = {
        "prompt": name,
        "status": result.status,
        "attempts": len(result.attempts),
        "tokens": getattr(total, "total_tokens", None),
        "written": written,
    }
    masking = getattr(result, "extra", {}).get("masking")
    if masking is not None:
        line["masking"] = masking  # counts only, never a value
    from ..generate.personal import MASKED_KEY

    if MASKED_KEY in getattr(result, "extra", {}):
        line[MASKED_KEY] = result.extra[MASKED_KEY]
    with open(out_dir / "genlint-ledger.jsonl", "a", encoding="utf-8") as fh:
        fh.write(to_json(line, pretty=False))


def _check_out_file(out: str, source: str) -> None:
    """Refuse a bad --out before any request is paid for (atomic_write checks again)."""
    import os

    target = Path(out)
    if target.is_dir():
        raise InputError(f"{target}: is a folder, expected a file for --out")
    if not (target.parent if str(target.parent) else Path(".")).is_dir():
        raise InputError(f"{target}: folder {target.parent} does not exist")
    if target.exists() and not target.is_file():
        raise InputError(f"{target}: not a regular file; refusing to replace it")
    if source != "-" and target.exists() and os.path.samefile(source, target):
        raise InputError(f"{target}: is one of the inputs; refusing to overwrite it")


def _refuse_unusable(results: list[Any], *, every: bool = False) -> None:
    """Exit 2 when the endpoint could not be used: for one prompt, when it failed so; for a
    batch (``every``), only when every prompt did, so one bad request loses no other result."""
    unusable = [r for r in results if _unusable(r)]
    if unusable and (not every or len(unusable) == len(results)):
        first = unusable[0]
        raise InputError(first.last_error or f"the endpoint cannot be used ({first.stop_reason})")


def _unusable(result: Any) -> bool:
    never_connected = bool(result.attempts) and all(
        a.error_kind == "connection" for a in result.attempts
    )
    return result.stop_reason in _UNUSABLE or never_connected


def _summary(name: str, result: Any, *, stream: Any, show_values: bool = False) -> None:
    from ..check.redact import mask_findings
    from ..generate.personal import MASKED_KEY

    tokens = result.total_usage.total_tokens
    retries = result.transient_retries
    lines = [
        f"{name}: {result.status} after {result.content_attempts} attempt(s)"
        f"{f', {retries} transient retries' if retries else ''}, {tokens} tokens"
        + ("" if result.ok else f", stopped by {result.stop_reason}")
    ]
    for a in result.attempts:
        if a.outcome == "findings":
            listed = mask_findings(a.findings[:4], show_values=show_values)
            shown = ", ".join(f"{f.rule} {f.text!r} {f.line}:{f.column}" for f in listed)
            more = f", +{a.finding_count - 4} more" if a.finding_count > 4 else ""
            what = f"{a.finding_count} finding(s): {shown}{more}"
        elif a.outcome == "clean":
            what = "clean"
        else:
            what = f"{a.outcome} ({a.error_kind}): {a.error}"
        lines.append(f"  attempt {a.n}: {what}")
    masked = result.extra.get(MASKED_KEY)
    if masked:
        lines.append(
            f"  personal data masked in the returned text: {masked} value(s) "
            "(--keep-personal-data keeps them)"
        )
    stream.write("\n".join(lines) + "\n")


def _print_json(payload: dict[str, Any]) -> None:
    from .._io import to_json

    sys.stdout.write(to_json(payload))
