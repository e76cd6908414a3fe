"""Built-in checks for the gate. A check is any callable ``text -> list[Finding]``.

The engines are imported when a check is built, not when genlint is imported: the placeholder
and sensitive packs (``genlint.check``), the JSON funnel (``genlint.parse``) and citations
(``genlint.cite``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

import regex

from ..errors import InputError
from ..findings import Finding

Check = Callable[[str], list[Finding]]

# A <sources>[…]</sources> marker as the cite engine tolerates it (spaces, case, full width).
_MARKER = regex.compile(
    r"<\s*sources\s*>\s*[\[［](?P<ids>[^\]］]*)[\]］]\s*<\s*/\s*sources\s*>", regex.I
)


def pack_check(select: Sequence[str]) -> Check:
    """Rules or packs of ``genlint check`` (e.g. ``["placeholder", "sensitive"]``)."""
    from ..check import check_text

    chosen = list(select)
    check_text("", select=chosen)  # an unknown rule fails now, not at the first reply

    def check(text: str) -> list[Finding]:
        return list(check_text(text, select=chosen))

    check.__name__ = f"pack_check({','.join(chosen)})"
    return check


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

    return check


def citation_check(sources: Sequence[dict[str, Any]]) -> Check:
    """A finding ``citation/unknown-source`` for each marker id that names no source."""
    from ..cite import process_citations

    source_list = list(sources)

    def check(text: str) -> list[Finding]:
        result = process_citations(text, source_list)
        invalid = {str(i) for i in result.invalid_ids}
        if not invalid:
            return []
        findings: list[Finding] = []
        for marker in _MARKER.finditer(text):
            offset = marker.start("ids")
            for token in regex.finditer(r"[^,，\s]+", marker.group("ids")):
                if token.group() in invalid:
                    start = offset + token.start()
                    findings.append(
                        located(
                            text,
                            "citation/unknown-source",
                            f"citation '{token.group()}' names no source",
                            start,
                            offset + token.end(),
                        )
                    )
        if not findings:  # an inline form the scan above does not know: report it unlocated
            findings = [
                Finding("citation/unknown-source", f"citation '{i}' names no source", i, 0, 0)
                for i in sorted(invalid)
            ]
        return findings

    return check


def located(text: str, rule: str, message: str, start: int, end: int) -> Finding:
    line = text.count("\n", 0, start) + 1
    column = start - (text.rfind("\n", 0, start) + 1) + 1
    return Finding(rule, message, text[start:end], start, end, line, column)


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
