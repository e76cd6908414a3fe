"""promptfoo assertions for ``genlint check`` and ``genlint parse`` (the ``eval`` one is
:mod:`.promptfoo`). promptfoo loads a Python assertion from a file's ``get_assert``, so each has
a one-line file in ``examples/promptfoo`` (``genlint_check.py``, ``genlint_parse.py``)::

    assert:
      - type: python
        value: file://genlint_check.py
        config: {select: [placeholder, sensitive], max: {sensitive: 0, placeholder: 1}}
      - type: python
        value: file://genlint_parse.py
        config: {fields: [score, reason], allow: [direct, repaired]}

check: a reply passes when each rule or pack named in ``max`` (default: everything selected,
at most 0) has at most that many findings; ``named_scores`` count the findings per pack and
per rule; the reason quotes a few, personal values masked. parse: a reply passes when it
parses (``ok``) by an allowed step, and is neither ``lossy`` (the value keeps less than the
text holds) nor ``truncated`` (brackets or a string had to be closed: the reply was cut off),
unless ``allow_lossy`` / ``allow_truncated`` say so.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import GenlintError, InputError

__all__ = ["check_assert", "parse_assert", "truncated"]

_MAX_LISTED = 3
# repair notes that mean the reply ended before its JSON did (genlint.parse.closing and
# json-repair's messages)
_TRUNCATION = re.compile(r"closed a truncated|closed \d+ open bracket|missed the closing")


def _failure(what: str, exc: BaseException) -> dict[str, Any]:
    # genlint's own errors say what is wrong with the config; another exception's text may quote
    # the reply (personal data), so only its kind is given
    why = str(exc) if isinstance(exc, GenlintError) else type(exc).__name__
    return {"pass": False, "score": 0.0, "reason": f"genlint {what} could not run: {why}"}


def _names(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(",") if v.strip()]
    return [str(v) for v in value]


def check_assert(output: Any, context: Mapping[str, Any] | None) -> dict[str, Any]:
    """``genlint check`` on the reply; never raises (a bad config is a failed assertion)."""
    try:
        return _check(output, context or {})
    except Exception as exc:
        return _failure("check", exc)


def _check(output: Any, context: Mapping[str, Any]) -> dict[str, Any]:
    from ..check import check_text
    from ..check.redact import is_personal, masked_value
    from ..check.suppress import matches_rule

    config = context.get("config") or {}
    text = output if isinstance(output, str) else str(output)
    findings = check_text(
        text,
        _names(config.get("select")) or None,
        ignore=_names(config.get("ignore")) or None,
        markdown=bool(config.get("markdown", True)),
    )
    limits = config.get("max")
    if limits is None:
        limits = {"*": 0}
    elif isinstance(limits, int) and not isinstance(limits, bool):
        limits = {"*": limits}
    if not isinstance(limits, Mapping):
        raise InputError("config 'max' must be a number or a table of rule or pack -> number")
    per_rule = Counter(f.rule for f in findings)
    per_pack = Counter(f.pack for f in findings)
    components = []
    failed = []
    for name, limit in limits.items():
        if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
            raise InputError(f"config 'max': {name!r} must be a whole number ≥ 0")
        count = (
            len(findings)
            if name == "*"
            else sum(1 for f in findings if matches_rule(f.rule, [name]))
        )
        ok = count <= limit
        label = "findings" if name == "*" else name
        if not ok:
            failed.append(f"{label} {count} > {limit}")
        components.append(
            {
                "pass": ok,
                "score": 1.0 if ok else 0.0,
                "reason": f"{label}: {count} (at most {limit})",
                "assertion": {"type": "python", "value": f"genlint check: {label}"},
            }
        )
    passed = not failed
    shown = []
    for f in findings[:_MAX_LISTED]:
        value = masked_value(f.rule, f.text) if is_personal(f) else f.text
        shown.append(f"{f.line}:{f.column} {f.rule} '{value}'")
    if len(findings) > _MAX_LISTED:
        shown.append(f"… {len(findings) - _MAX_LISTED} more")
    head = "PASS" if passed else "FAIL: " + "; ".join(failed)
    return {
        "pass": passed,
        "score": round(1.0 / (1 + len(findings)), 4),
        "reason": " | ".join([head, *shown]),
        "named_scores": {**dict(per_pack), **dict(per_rule)},
        "component_results": components,
    }


def truncated(repairs: Sequence[str]) -> bool:
    """Whether repair notes say a parse closed what the reply left open (it was cut off); a
    :class:`~genlint.parse.ParseResult` says so itself (``truncated``)."""
    return any(_TRUNCATION.search(note) for note in repairs)


def parse_assert(output: Any, context: Mapping[str, Any] | None) -> dict[str, Any]:
    """``genlint parse`` on the reply; never raises."""
    try:
        return _parse(output, context or {})
    except Exception as exc:
        return _failure("parse", exc)


def _parse(output: Any, context: Mapping[str, Any]) -> dict[str, Any]:
    from ..parse import parse_json

    config = context.get("config") or {}
    schema = config.get("schema")
    if isinstance(schema, str):
        from .._io import read_json

        schema = read_json(schema.removeprefix("file://"))
    fields = _names(config.get("fields")) or None
    allowed = _names(config.get("allow")) or ["direct", "repaired", "extracted", "fields"]
    text = output if isinstance(output, str) else str(output)
    result = parse_json(text, schema=schema, fields=fields)
    is_truncated = result.truncated  # the parser's own flag, as `genlint parse` shows it
    checks = [
        ("ok", result.ok, "parsed" if result.ok else "no JSON: " + "; ".join(result.errors[-2:])),
        (
            "strategy",
            result.strategy in allowed,
            f"step {result.strategy} ({'allowed' if result.strategy in allowed else 'not in'} "
            f"{', '.join(allowed)})",
        ),
        (
            "lossy",
            not result.lossy or bool(config.get("allow_lossy")),
            "lossy: " + next((r for r in result.repairs if r.startswith("lost data")), "")
            if result.lossy
            else "nothing lost",
        ),
        (
            "truncated",
            not is_truncated or bool(config.get("allow_truncated")),
            "truncated: the reply was cut off and closed" if is_truncated else "complete",
        ),
    ]
    passed = all(ok for _, ok, _ in checks)
    failed = [reason for _, ok, reason in checks if not ok]
    return {
        "pass": passed,
        "score": 1.0 if passed else 0.0,
        "reason": "PASS" if passed else "FAIL: " + "; ".join(failed),
        "named_scores": {
            "ok": float(result.ok),
            "lossy": float(result.lossy),
            "truncated": float(is_truncated),
        },
        "component_results": [
            {
                "pass": ok,
                "score": 1.0 if ok else 0.0,
                "reason": reason,
                "assertion": {"type": "python", "value": f"genlint parse: {name}"},
            }
            for name, ok, reason in checks
        ],
    }
