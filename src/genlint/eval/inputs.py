"""facts.json and wiki.json as model objects, with errors that name the JSON path.

Only the shape is checked here; whether a reference exists is the evaluation's business (a
wrong reference is a finding, not bad input). A claim without ``fact_refs`` (or with null) is
read as having none, so that it is reported as ``missing_ref`` instead of rejected.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import SchemaError
from .models import REF_KINDS, Claim, Fact, Page

# isinstance(x, str) as a C function for map(): the fast paths check whole lists in one call
_is_str = str.__instancecheck__


def load_facts(data: object, name: str = "facts.json") -> dict[str, Fact]:
    """``{"facts": [...]}`` (or the bare list) → facts by id; duplicate ids are merged."""
    if isinstance(data, Mapping):
        if "facts" not in data:
            raise SchemaError(f"{name}: missing key 'facts'")
        items, path = data["facts"], "facts"
    else:
        items, path = data, ""
    if not isinstance(items, list):
        raise SchemaError(f"{name}: {path or 'top level'} must be a list")
    facts: dict[str, Fact] = {}
    for i, item in enumerate(items):
        where = f"{path}[{i}]"
        if not isinstance(item, Mapping):
            raise SchemaError(f"{name}: {where} must be an object")
        fact_id = item.get("id")
        if not isinstance(fact_id, str) or not fact_id.strip():
            raise SchemaError(f"{name}: {where}.id must be a non-empty string")
        lists = {kind: _string_list(item.get(kind), f"{where}.{kind}", name) for kind in REF_KINDS}
        role = item.get("role")
        fact = Fact(
            id=fact_id.strip(),
            kind=str(item.get("kind", "method")),
            role=role if isinstance(role, str) else None,
            **lists,
        )
        previous = facts.get(fact.id)
        facts[fact.id] = fact if previous is None else _merge(previous, fact)
    return facts


def load_wiki(data: object, name: str = "wiki.json") -> tuple[list[Page], bool]:
    """One page, a list of pages, or ``{"pages": [...]}`` → (pages, several)."""
    if isinstance(data, Mapping) and "claims" not in data and isinstance(data.get("pages"), list):
        return [_page(item, f"pages[{i}]", name) for i, item in enumerate(data["pages"])], True
    if isinstance(data, Mapping):
        return [_page(data, "", name)], False
    if isinstance(data, list):
        return [_page(item, f"[{i}]", name) for i, item in enumerate(data)], True
    raise SchemaError(f"{name}: top level must be a page object or a list of pages")


def _page(data: object, where: str, name: str, source: str | None = None) -> Page:
    if not isinstance(data, Mapping):
        raise SchemaError(f"{name}: {where or 'top level'} must be an object")
    prefix = f"{where}." if where else ""
    method = data.get("method")
    if not isinstance(method, str) or not method.strip():
        raise SchemaError(f"{name}: {prefix}method must be a non-empty string")
    claims_raw = data.get("claims")
    if not isinstance(claims_raw, list):
        raise SchemaError(f"{name}: {prefix}claims must be a list")
    claims: list[Claim] = []
    for i, raw in enumerate(claims_raw):
        # the common, well-formed claim takes the fast path; error text is built only on failure
        if type(raw) is dict:
            text, refs = raw.get("text"), raw.get("fact_refs")
            if type(text) is str and type(refs) is list and all(map(_is_str, refs)):
                claims.append(Claim(text, tuple(refs)))
                continue
        claims.append(_claim(raw, f"{prefix}claims[{i}]", name))
    method = method.strip()
    if method.startswith("method:"):
        method = method[len("method:") :]
    return Page(method=method, claims=tuple(claims), source=source)


def _claim(raw: object, where: str, name: str) -> Claim:
    if not isinstance(raw, Mapping):
        raise SchemaError(f"{name}: {where} must be an object")
    text = raw.get("text")
    if not isinstance(text, str):
        raise SchemaError(f"{name}: {where}.text must be a string")
    refs = raw.get("fact_refs")
    if refs is None:
        refs = []
    if not isinstance(refs, list):
        raise SchemaError(f"{name}: {where}.fact_refs must be a list")
    for j, ref in enumerate(refs):
        if not isinstance(ref, str):
            raise SchemaError(f"{name}: {where}.fact_refs[{j}] must be a string")
    return Claim(text, tuple(refs))


def page_from_file(data: object, name: str) -> list[Page]:
    """Pages of one file of a batch folder (a page or a list of pages), tagged with the file."""
    pages, _ = load_wiki(data, name)
    return [Page(p.method, p.claims, source=name) for p in pages]


def _string_list(value: Any, where: str, name: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if type(value) is list and all(map(_is_str, value)):
        return tuple([v.strip() for v in value])
    if not isinstance(value, list):
        raise SchemaError(f"{name}: {where} must be a list")
    out: list[str] = []
    for i, item in enumerate(value):
        if not isinstance(item, str):
            raise SchemaError(f"{name}: {where}[{i}] must be a string")
        out.append(item.strip())
    return tuple(out)


def _merge(a: Fact, b: Fact) -> Fact:
    def union(x: Sequence[str], y: Sequence[str]) -> tuple[str, ...]:
        return tuple(dict.fromkeys([*x, *y]))

    return Fact(
        id=a.id,
        kind=a.kind,
        role=a.role or b.role,
        calls=union(a.calls, b.calls),
        writes=union(a.writes, b.writes),
        annotations=union(a.annotations, b.annotations),
        conditions=union(a.conditions, b.conditions),
    )
