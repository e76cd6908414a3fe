"""Author names as sources give them: a list of strings or objects, each an Author."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from .. import _lazy_re as lazy_re
from .._describe import json_kind
from ..errors import SchemaError


@dataclass(frozen=True, slots=True)
class Author:
    """A person or an organisation. ``literal`` is used as written (organisations, and CJK
    names, which have no space between family and given name)."""

    family: str | None = None
    given: str | None = None
    literal: str | None = None


_CJK = lazy_re.compile(r"[\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff]")
_ORGANISATION_WORDS = frozenset(
    [
        "organization",
        "organisation",
        "institute",
        "university",
        "association",
        "bank",
        "agency",
        "inc",
        "inc.",
        "ltd",
        "ltd.",
        "llc",
        "corporation",
        "corp",
        "company",
        "committee",
        "council",
        "department",
        "ministry",
        "office",
        "bureau",
        "foundation",
        "society",
        "group",
        "center",
        "centre",
        "commission",
        "administration",
        "team",
        "project",
        "consortium",
        "laboratory",
        "lab",
        "press",
        "government",
    ]
)


def _parse_authors(where: str, value: object) -> tuple[Author, ...]:
    if value is None:
        return ()
    if isinstance(value, (str, Mapping)):
        value = [value]
    if not isinstance(value, Sequence):
        raise SchemaError(f'{where} "authors" must be a list, got {json_kind(value)}')
    authors: list[Author] = []
    for i, item in enumerate(value):
        if isinstance(item, str):
            if item.strip():
                authors.append(parse_name(item))
        elif isinstance(item, Mapping):
            authors.append(_name_from_mapping(f'{where} "authors"[{i}]', item))
        else:
            raise SchemaError(
                f'{where} "authors"[{i}] must be a string or an object, got {json_kind(item)}'
            )
    return tuple(authors)


def _name_from_mapping(where: str, item: Mapping[str, Any]) -> Author:
    literal = item.get("literal") or item.get("name")
    family, given = item.get("family"), item.get("given")
    for key, val in (("literal", literal), ("family", family), ("given", given)):
        if val is not None and not isinstance(val, str):
            raise SchemaError(f'{where} "{key}" must be a string')
    if literal:
        return Author(literal=literal.strip())
    if not family:
        raise SchemaError(f'{where} needs "family" or "literal"')
    if _CJK.search(family + (given or "")):
        # CJK names are written family-then-given with no space: 李世民, never "李 世民".
        return Author(literal=family.strip() + (given or "").strip())
    return Author(family=family.strip(), given=(given or "").strip() or None)


@lru_cache(maxsize=8192)
def parse_name(text: str) -> Author:
    """A name written as one string: "Smith, John", "John Smith", "李世民", "World Bank".

    Kept by text (Author is immutable): a long source list names the same people and
    organisations again and again."""
    name = " ".join(text.split())
    if _CJK.search(name):
        return Author(literal=name.replace(" ", ""))
    if "," in name:
        family, given = (part.strip() for part in name.split(",", 1))
        if family and given:
            return Author(family=family, given=given)
    words = name.split(" ")
    if len(words) == 1 or len(words) > 4:
        return Author(literal=name)
    for word in words:
        if word.casefold().strip(",.") in _ORGANISATION_WORDS:
            return Author(literal=name)
    return Author(family=words[-1], given=" ".join(words[:-1]))
