"""``process_citations`` and ``process_document``: markers in, numbered text and references out."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import chain, filterfalse
from operator import itemgetter
from typing import Any

from .._gc import gc_paused
from ..errors import InputError
from .coverage import Coverage, measure
from .markers import Token
from .rewrite import Plan, Span, plan, render
from .sources import SourcesLike, load_sources

_IDS = itemgetter(2)  # Span.ids
_LABEL = itemgetter(0)  # of a (label, source) entry


@dataclass(frozen=True, slots=True)
class CitationResult:
    """What ``genlint cite`` returns for one text.

    ``cited``: source ids (after merging duplicates), unique, in order of first appearance.
    ``invalid_ids``: ids that name no source (int) and tokens that are no id (trimmed str),
    unique, in order. ``uncited``: sources never cited, in source-list order. ``counts``: how
    many citations name each source (0 for uncited ones). ``numbers``: source id -> number
    shown in the text (the id itself unless renumbered). ``merged``: duplicate id -> kept id.
    ``citations``: where each citation sits in ``text``.
    """

    text: str
    cited: list[int]
    invalid_ids: list[Token]
    uncited: list[int]
    bibliography: str
    counts: dict[int, int]
    coverage: Coverage
    numbers: dict[int, int] = field(default_factory=dict)
    merged: dict[int, int] = field(default_factory=dict)
    citations: list[Span] = field(default_factory=list)
    style: str = "numeric"

    def to_dict(self) -> dict[str, Any]:
        """The docs/commands/cite.md JSON document (plus ``counts``, ``coverage``, ``numbers``, ``merged``)."""
        return {
            "text": self.text,
            "cited": self.cited,
            "invalid_ids": self.invalid_ids,
            "uncited": self.uncited,
            "bibliography": self.bibliography,
            "counts": {str(k): v for k, v in self.counts.items()},
            "coverage": self.coverage.to_dict(self.text),
            "numbers": {str(k): v for k, v in self.numbers.items()},
            "merged": {str(k): v for k, v in self.merged.items()},
            "style": self.style,
        }


@dataclass(frozen=True, slots=True)
class DocumentResult:
    """``process_document``: each chapter's own result (without a reference list) and the
    document-wide fields, with one ``bibliography`` for the whole document."""

    chapters: list[CitationResult]
    cited: list[int]
    invalid_ids: list[Token]
    uncited: list[int]
    bibliography: str
    counts: dict[int, int]
    coverage: Coverage
    numbers: dict[int, int] = field(default_factory=dict)
    merged: dict[int, int] = field(default_factory=dict)
    style: str = "numeric"

    @property
    def texts(self) -> list[str]:
        return [c.text for c in self.chapters]

    def to_dict(self) -> dict[str, Any]:
        return {
            "chapters": [c.text for c in self.chapters],
            "cited": self.cited,
            "invalid_ids": self.invalid_ids,
            "uncited": self.uncited,
            "bibliography": self.bibliography,
            "counts": {str(k): v for k, v in self.counts.items()},
            "coverage": self.coverage.to_dict(),
            "chapter_coverage": [c.coverage.to_dict(c.text) for c in self.chapters],
            "numbers": {str(k): v for k, v in self.numbers.items()},
            "merged": {str(k): v for k, v in self.merged.items()},
            "style": self.style,
        }


def process_citations(
    text: str,
    sources: SourcesLike,
    style: str = "numeric",
    renumber: bool = False,
) -> CitationResult:
    """Turn the ``<sources>[…]</sources>`` markers of ``text`` into ``[n]`` citations.

    ``sources``: the decoded SOURCES.json (a list of ``{"id", "title", …}``) or a SourceList.
    Raises SchemaError for a bad source list, InputError for an unknown style."""
    return single_result(process_document([text], sources, style=style, renumber=renumber))


def single_result(doc: DocumentResult) -> CitationResult:
    """The CitationResult of a one-chapter document."""
    chapter = doc.chapters[0]
    return CitationResult(
        text=chapter.text,
        cited=doc.cited,
        invalid_ids=doc.invalid_ids,
        uncited=doc.uncited,
        bibliography=doc.bibliography,
        counts=doc.counts,
        coverage=chapter.coverage,
        numbers=doc.numbers,
        merged=doc.merged,
        citations=chapter.citations,
        style=doc.style,
    )


def process_document(
    chapters: Sequence[str] | str,
    sources: SourcesLike,
    style: str = "numeric",
    renumber: bool = False,
) -> DocumentResult:
    """Process chapters as one document: first appearance counts across chapters, and one
    reference list covers them all."""
    with gc_paused():
        return _process(chapters, sources, style, renumber)


def _process(
    chapters: Sequence[str] | str, sources: SourcesLike, style: str, renumber: bool
) -> DocumentResult:
    from .bibliography import render_bibliography, style_name

    if isinstance(chapters, str):
        chapters = [chapters]
    for i, chapter in enumerate(chapters):
        if not isinstance(chapter, str):
            raise InputError(f"chapter {i}: expected text (str), got {type(chapter).__name__}")
    style = style_name(style)
    source_list = load_sources(sources)
    plans: list[Plan] = [plan(text, source_list) for text in chapters]
    orders = [p.id_order() for p in plans]
    order: dict[int, None] = {}
    for ids in orders:
        order.update(dict.fromkeys(ids))
    cited = list(order)
    if renumber:
        numbers = dict(zip(cited, range(1, len(cited) + 1), strict=True))
    else:
        numbers = dict(zip(cited, cited, strict=True))
    invalid: dict[Token, None] = {}
    ids = source_list.ids
    counts = dict.fromkeys(ids, 0)
    shown: Counter[int] = Counter()  # citations per id over all chapters
    # One copy for the document and all its chapters (like numbers): a copy per chapter would
    # cost chapters x merged sources.
    merged = dict(source_list.aliases)
    results: list[CitationResult] = []
    for p, chapter_cited in zip(plans, orders, strict=True):
        invalid.update(dict.fromkeys(p.invalid))
        out, spans = render(p, numbers)
        shown.update(chain.from_iterable(map(_IDS, spans)))
        coverage = measure(out, spans)  # a Span starts with (start, end)
        results.append(
            CitationResult(
                text=out,
                cited=chapter_cited,
                invalid_ids=list(dict.fromkeys(p.invalid)),
                uncited=[],
                bibliography="",
                counts={},
                coverage=coverage,
                numbers=numbers,
                merged=merged,
                citations=spans,
                style=style,
            )
        )
    # (source_list.get inline: a call per cited source)
    known, aliases = source_list.known, source_list.aliases
    entries = sorted(
        [(numbers[sid], source) for sid in cited if (source := known.get(aliases.get(sid, sid)))],
        key=_LABEL,
    )
    # Every id a span shows is a kept source id, so it is already a key of counts (which
    # keeps its order).
    counts.update(shown)
    cited_set = set(cited)
    return DocumentResult(
        chapters=results,
        cited=cited,
        invalid_ids=list(invalid),
        uncited=list(filterfalse(cited_set.__contains__, ids)),
        bibliography=render_bibliography(entries, style),
        counts=counts,
        coverage=_total(results),
        numbers=numbers,
        merged=merged,
        style=style,
    )


def _total(chapters: Sequence[CitationResult]) -> Coverage:
    sentences = sum(c.coverage.sentences for c in chapters)
    cited = sum(c.coverage.cited for c in chapters)
    return Coverage(sentences, cited)
