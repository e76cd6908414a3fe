"""Built-in checks for the gate. A check is any callable ``text -> list[Finding]``.

The engines are imported when a check is built, not when genlint is imported: the placeholder
and sensitive packs (``genlint.check``), the JSON funnel (``genlint.parse``) and citations
(``genlint.cite``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from ..errors import InputError
from ..findings import Finding

Check = Callable[[str], list[Finding]]

#: genlint's own checks carry this attribute: their time is linear in the text (rules are bounded
#: against hostile input, docs/commands/check.md), so the gate may run them on a short reply in
#: its own thread instead of a watchdog thread (generate/session.py ``_checked``)
BOUNDED = "_genlint_bounded"


def _bounded(check: Check) -> Check:
    setattr(check, BOUNDED, True)
    return check


def pack_check(select: Sequence[str]) -> Check:
    """Rules or packs of ``genlint check`` (e.g. ``["placeholder", "sensitive"]``)."""
    from ..check import Checker

    chosen = list(select)
    # built once (an unknown rule fails now, not at the first reply): choosing the rules cost
    # more than checking a short reply
    checker = Checker(chosen)

    def check(text: str) -> list[Finding]:
        return list(checker.check(text))

    check.__name__ = f"pack_check({','.join(chosen)})"
    return _bounded(check)


def json_check(schema: Any = None, fields: Sequence[str] | None = None) -> Check:
    """A finding ``json/unparseable`` when the parse funnel finds no acceptable value."""
    from ..parse import parse_json

    parse_json("{}", schema=schema, fields=fields)  # a bad schema fails now

    def check(text: str) -> list[Finding]:
        result = parse_json(text, schema=schema, fields=fields)
        if result.ok:
            return []
        reason = "; ".join(str(e) for e in result.errors)[:300] or "no JSON value found"
        return [
            Finding(
                rule="json/unparseable",
                message=f"not the required JSON ({reason})",
                text=text[:60],
                start=0,
                end=len(text),
            )
        ]

    return _bounded(check)


def citation_check(sources: Sequence[dict[str, Any]]) -> Check:
    """``citation/unknown-id`` for each marker naming no source: the citation pack of
    ``genlint check --sources``, so the gate and the check can never disagree."""
    from ..check import Checker
    from ..cite.sources import load_sources

    source_list = list(sources)
    load_sources(source_list)  # a bad list fails now, not at the first reply
    checker = Checker("citation/unknown-id", options={"sources": source_list})

    def check(text: str) -> list[Finding]:
        return checker.check(text)

    return _bounded(check)


def resolve_checks(checks: Iterable[Check | str] | Check | str) -> list[Check]:
    """Callables as given; names become built-ins: ``json`` the funnel, anything else a rule
    or pack of ``genlint check`` (all names are checked in one ``check_text`` call)."""
    if isinstance(checks, str):
        checks = [c for c in checks.split(",") if c.strip()]
    elif callable(checks):
        checks = [checks]
    resolved: list[Check] = []
    names: list[str] = []
    for item in checks:
        if isinstance(item, str):
            name = item.strip()
            if name == "json":
                resolved.append(json_check())
            elif name:
                names.append(name)
        elif callable(item):
            resolved.append(item)
        else:
            raise InputError(
                f"a check must be a callable or a rule name, got {type(item).__name__}"
            )
    if names:
        resolved.insert(0, pack_check(names))
    return resolved
