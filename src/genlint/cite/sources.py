"""The source list: validation of the user's entries and merging of duplicates.

A source is one entry of ``SOURCES.json`` (its authors: names.py). ``id`` (an integer, or a string of digits) and
``title`` are required; everything else is optional and only feeds the reference list.
CSL-JSON names are read too (``container-title``, ``issued``, ``URL``, ``DOI``, ``page``,
``type``, ``publisher-place``; ``author`` as name objects); a field genlint does not know is
ignored with a warning that suggests the field meant (``journal`` -> ``container``), kept in
:attr:`SourceList.warnings`.
Two entries naming the same page (same normalised URL) or the same work (same normalised
title) are one source: the first one is kept, later ones become aliases of it and lend it
any field it lacks.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Any, Union

from .._describe import json_kind
from .._gc import gc_paused
from ..errors import SchemaError
from .names import Author, _parse_authors, parse_name
from .urls import normalise_url

_OPTIONAL_STR_FIELDS = (
    "url",
    "source_type",
    "container",
    "volume",
    "issue",
    "pages",
    "doi",
    "accessed",
    "publisher",
    "place",
    "edition",
    "language",
)
_OPTIONAL_STR_SET = frozenset(_OPTIONAL_STR_FIELDS)
# every field an entry may have; ``content`` is the source's text (the eval and generate checks)
_KNOWN = frozenset({"id", "title", "year", "date", "authors", "author", "content"}) | (
    _OPTIONAL_STR_SET
)
# CSL-JSON (what Zotero and pandoc export) -> genlint's name
_CSL = {
    "container-title": "container",
    "URL": "url",
    "DOI": "doi",
    "page": "pages",
    "type": "source_type",
    "publisher-place": "place",
    "issued": "year",
}
# names people write for a field, beyond what difflib finds
_SYNONYMS = {
    "journal": "container",
    "journal_title": "container",
    "booktitle": "container",
    "publication": "container",
    "website": "url",
    "link": "url",
    "number": "issue",
    "pp": "pages",
    "isbn": "doi",
}


# No slots: a long list builds a Source per entry, and _new_source fills an instance's __dict__
# in one step (~1 µs) where the generated __init__ of a frozen dataclass sets 17 fields one by
# one through object.__setattr__ (~5 µs).
@dataclass(frozen=True)
class Source:
    """One validated source. ``raw`` keeps the entry as given (e.g. ``content``)."""

    id: int
    title: str
    url: str | None = None
    source_type: str | None = None
    authors: tuple[Author, ...] = ()
    year: str | None = None
    container: str | None = None
    volume: str | None = None
    issue: str | None = None
    pages: str | None = None
    doi: str | None = None
    accessed: str | None = None
    publisher: str | None = None
    place: str | None = None
    edition: str | None = None
    language: str | None = None
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)


class SourceList:
    """Kept sources in the order given, and ``aliases``: merged id -> kept id."""

    __slots__ = ("_by_id", "_ids", "aliases", "sources", "warnings")

    def __init__(self, sources: Sequence[Source], aliases: Mapping[int, int]) -> None:
        self.sources = tuple(sources)
        self.aliases = dict(aliases)
        # what was ignored: ``source 4: unknown field "journal" ignored (did you mean "container"?)``
        self.warnings: list[str] = []
        # Read once: each read of a source's id in a list of 100,000 is a cache miss.
        self._ids = [s.id for s in self.sources]
        self._by_id = dict(zip(self._ids, self.sources, strict=True))

    def get(self, source_id: int) -> Source | None:
        """The kept source an id names (following a merge), or None."""
        return self._by_id.get(self.aliases.get(source_id, source_id))

    def resolve(self, source_id: int) -> int | None:
        """The kept id an id stands for, or None when it names no source."""
        kept = self.aliases.get(source_id, source_id)
        return kept if kept in self._by_id else None

    @property
    def known(self) -> Mapping[int, Source]:
        """Kept id -> source (``resolve`` without the call, for loops over many ids)."""
        return self._by_id

    @property
    def ids(self) -> list[int]:
        return self._ids.copy()


SourcesLike = Union["SourceList", Sequence[Mapping[str, Any] | Source]]
"""What the API accepts as sources: decoded SOURCES.json, Source objects, or a SourceList."""


def load_sources(data: SourcesLike | object) -> SourceList:
    """Validate a decoded ``SOURCES.json`` (or a list of dicts / Source objects) and merge
    duplicates. Raises SchemaError naming the entry: ``[3] missing "title"``."""
    if isinstance(data, SourceList):
        return data
    if not isinstance(data, Sequence) or isinstance(data, (str, bytes)):
        raise SchemaError(f"expected a list of sources, got {json_kind(data)}")
    with gc_paused():
        return _load(data)


def _load(data: Sequence[object]) -> SourceList:
    parsed: list[Source] = []
    append = parsed.append
    warnings: list[str] = []
    known = _KNOWN
    for index, entry in enumerate(data):
        if type(entry) is dict and not known.issuperset(entry):
            entry = _translated(index, entry, warnings)
        # the usual shape first, then any other (or its SchemaError)
        source = _parse_plain(entry) if type(entry) is dict else None
        if source is None:
            try:
                source = entry if isinstance(entry, Source) else _parse_checked(index, entry)
            except SchemaError:
                _check_ids(parsed)  # a duplicate id before this entry is the first error
                raise
        append(source)
    ids = [s.id for s in parsed]
    if len(set(ids)) != len(ids):
        _check_ids(parsed)
    result = merge_duplicates(parsed)
    result.warnings.extend(warnings)
    return result


def _translated(index: int, entry: dict[str, Any], warnings: list[str]) -> dict[str, Any]:
    """``entry`` with CSL-JSON names read as genlint's, and each unknown field left out with a
    warning that suggests the field meant."""
    import difflib

    out: dict[str, Any] = {}
    for name, value in entry.items():
        if name in _KNOWN:
            out.setdefault(name, value)
            continue
        target = _CSL.get(name)
        if target is not None:
            if name in ("issued",) and isinstance(value, Mapping):
                value = _csl_year(value)
            if target not in entry:
                out[target] = value
            continue
        guess = _SYNONYMS.get(name.lower()) or next(
            iter(difflib.get_close_matches(name.lower(), sorted(_KNOWN | set(_CSL)), n=1)), None
        )
        guess = _CSL.get(guess, guess) if guess else None
        hint = f' (did you mean "{guess}"?)' if guess else ""
        warnings.append(f'{_entry_name(index, entry)}: unknown field "{name}" ignored{hint}')
    if isinstance(out.get("accessed"), Mapping):
        out["accessed"] = _csl_date(out["accessed"])
    return out


def _entry_name(index: int, entry: Mapping[str, Any]) -> str:
    """How a warning names an entry: by its id (``source 4``), which is what the document's
    markers say, and its place in the list only when it has no usable id."""
    source_id = entry.get("id")
    if type(source_id) is int or (isinstance(source_id, str) and source_id.strip().isdigit()):
        return f"source {str(source_id).strip()}"
    return f"entry {index + 1}"


def _csl_year(value: Mapping[str, Any]) -> Any:
    """The year of a CSL date: ``{"date-parts": [[2020, 5, 1]]}``, ``{"raw": "2020-05"}``
    or ``{"literal": "spring 2020"}``."""
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return parts[0][0]
    for key in ("raw", "literal"):
        if isinstance(value.get(key), str):
            text = value[key].strip()
            return text[:4] if key == "raw" and text[:4].isdigit() else text
    return value  # the year check then says what is wrong


def _csl_date(value: Mapping[str, Any]) -> Any:
    parts = value.get("date-parts")
    if isinstance(parts, list) and parts and isinstance(parts[0], list) and parts[0]:
        return "-".join(f"{int(p):02d}" if i else str(p) for i, p in enumerate(parts[0]))
    return value.get("raw") or value.get("literal") or value


def _check_ids(sources: Sequence[Source]) -> None:
    """SchemaError for the first source whose id an earlier one has."""
    first_index: dict[int, int] = {}
    for index, source in enumerate(sources):
        if source.id in first_index:
            raise SchemaError(
                f"[{index}] duplicate id {source.id} (also at [{first_index[source.id]}])"
            )
        first_index[source.id] = index


def merge_duplicates(sources: Iterable[Source]) -> SourceList:
    """Keep the first of sources sharing a normalised URL or title; later ones become aliases
    and fill fields the kept one lacks."""
    sources = list(sources)
    # All keys first (each a call, without the loop's lookups): most lists have no
    # duplicate, and then no source merges.
    title_keys = list(map(normalise_title, [s.title for s in sources]))
    url_keys = [normalise_url(url) if url else "" for url in [s.url for s in sources]]
    if len(set(title_keys)) == len(title_keys):
        urls = [key for key in url_keys if key]
        if len(set(urls)) == len(urls):
            return SourceList(sources, {})
    kept: list[Source] = []
    aliases: dict[int, int] = {}
    # normalised title / URL -> index in kept (the title is looked up first)
    by_title: dict[str, int] = {}
    by_url: dict[str, int] = {}
    for source, title_key, url_key in zip(sources, title_keys, url_keys, strict=True):
        hit = by_title.get(title_key) if title_key else None
        if hit is None and url_key:
            hit = by_url.get(url_key)
        if hit is None:
            if title_key:
                by_title[title_key] = len(kept)
            if url_key:
                by_url[url_key] = len(kept)
            kept.append(source)
            continue
        target = kept[hit]
        aliases[source.id] = target.id
        kept[hit] = _fill_missing(target, source)
        if title_key:
            by_title.setdefault(title_key, hit)
        if url_key:
            by_url.setdefault(url_key, hit)
    return SourceList(tuple(kept), aliases)


_TITLE_ENDS = " .。!！?？:：;；,，-–—\"'“”‘’《》<>"


def normalise_title(title: str) -> str:
    """A key equal for titles that differ only in case, width, spacing or end punctuation."""
    if title.isascii() and title.isprintable() and "  " not in title:
        # Most titles: NFKC leaves ASCII as is, casefold is lower, and there is no run of
        # spaces nor other whitespace to collapse (a space at either end is stripped anyway).
        return title.lower().strip(_TITLE_ENDS)
    text = unicodedata.normalize("NFKC", title).casefold()
    text = " ".join(text.split())
    return text.strip(_TITLE_ENDS)


_MISSING = object()
# Every field of a Source that _parse_plain may leave unset, with its default.
_BLANK: dict[str, Any] = {f.name: f.default for f in fields(Source) if f.default is not MISSING}
_new_object = object.__new__
_set_attribute = object.__setattr__


def _new_source(attrs: dict[str, Any]) -> Source:
    """A Source whose ``__dict__`` is ``attrs`` (every field, already validated)."""
    source: Source = _new_object(Source)
    _set_attribute(source, "__dict__", attrs)
    return source


def _parse_plain(entry: dict[str, Any]) -> Source | None:
    """The Source of an entry in the shape almost every list has (int id, string fields, a
    list of author names), as _parse_checked builds it; None for any other shape, which
    _parse_checked then reads (or rejects with its message)."""
    source_id = entry.get("id")
    title = entry.get("title")
    if type(source_id) is not int or type(title) is not str:
        return None
    title = title.strip()
    if not title:
        return None
    values = _plain_fields(entry)
    if values is None:
        return None
    attrs = _BLANK | values
    year = entry.get("year", _MISSING)
    if year is _MISSING:
        year = entry.get("date")
    if year is not None:
        if type(year) is str:
            attrs["year"] = year.strip() or None
        elif type(year) is int:
            attrs["year"] = str(year)
        else:
            return None
    authors = entry.get("authors", _MISSING)
    if authors is _MISSING:
        authors = entry.get("author")
    if authors is not None:
        if type(authors) is not list:
            return None
        try:
            # (a name that is no string raises TypeError: _parse_checked says what is wrong)
            if all(map(str.strip, authors)):
                attrs["authors"] = tuple(map(parse_name, authors))
            else:
                attrs["authors"] = tuple(map(parse_name, filter(str.strip, authors)))
        except TypeError:
            return None
    attrs["id"] = source_id
    attrs["title"] = title
    attrs["raw"] = dict(entry)
    return _new_source(attrs)


def _parse_checked(index: int, entry: object) -> Source:
    where = f"[{index}]"
    if not isinstance(entry, Mapping):
        raise SchemaError(f"{where} expected an object, got {json_kind(entry)}")
    if "id" not in entry:
        raise SchemaError(f'{where} missing "id"')
    source_id = _parse_id(where, entry["id"])
    title = entry.get("title")
    if title is None:
        raise SchemaError(f'{where} missing "title"')
    if not isinstance(title, str) or not title.strip():
        raise SchemaError(f'{where} "title" must be a non-empty string')
    values = _plain_fields(entry)
    if values is None:
        values = _checked_fields(where, entry)
    year = entry.get("year", entry.get("date"))
    if year is not None:
        if isinstance(year, bool) or not isinstance(year, (str, int)):
            raise SchemaError(f'{where} "year" must be a number or string, got {json_kind(year)}')
        values["year"] = str(year).strip() or None
    authors = entry.get("authors", entry.get("author"))
    return Source(
        id=source_id,
        title=title.strip(),
        authors=_parse_authors(where, authors),
        raw=dict(entry),
        **values,
    )


def _plain_fields(entry: Mapping[str, Any]) -> dict[str, Any] | None:
    """The optional fields when each is a string or null (almost always), read off the
    entry's own keys; None sends the entry to _checked_fields."""
    values: dict[str, Any] = {}
    for name, value in entry.items():
        if name in _OPTIONAL_STR_SET:
            if type(value) is str:
                value = value.strip()
                if value:
                    values[name] = value
            elif value is not None:
                return None
    return values


def _checked_fields(where: str, entry: Mapping[str, Any]) -> dict[str, Any]:
    """The optional fields, numbers as text, or SchemaError naming the first bad one."""
    values: dict[str, Any] = {}
    for name in _OPTIONAL_STR_FIELDS:
        value = entry.get(name)
        if value is None:
            continue
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise SchemaError(f'{where} "{name}" must be a string, got {json_kind(value)}')
        text = str(value).strip()
        if text:
            values[name] = text
    return values


def _parse_id(where: str, value: object) -> int:
    if isinstance(value, bool):
        raise SchemaError(f'{where} "id" must be an integer, got a boolean')
    if isinstance(value, int):
        return value
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value.strip())
    raise SchemaError(f'{where} "id" must be an integer, got {value!r}')


def _fill_missing(kept: Source, other: Source) -> Source:
    changes: dict[str, Any] = {}
    for name in ("url", "source_type", "year", *_OPTIONAL_STR_FIELDS):
        if getattr(kept, name) is None and getattr(other, name) is not None:
            changes[name] = getattr(other, name)
    if not kept.authors and other.authors:
        changes["authors"] = other.authors
    return replace(kept, **changes) if changes else kept
