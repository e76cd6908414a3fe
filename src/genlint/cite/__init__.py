"""Citation markers to numbered citations and a reference list (``genlint cite``).

markers.py       find ``<sources>[…]</sources>``, ``[Source n]`` and ``[n]`` outside code
sources.py       validate SOURCES.json, merge duplicate URLs/titles
names.py         author names (strings or objects) as Author
urls.py          URL keys (duplicate sources merge on them)
rewrite.py       where each citation goes (line rules) and the rewritten text
lines.py         the line geometry the line rules read
coverage.py      sentences and the share that carry a citation
csl.py           a source as a CSL-JSON item
ieee.py          the numeric (IEEE) entry natively, as citeproc-py renders it
ieee_plain.py    the same entry for the common sources, as one concatenation
bibliography.py  the reference list: numeric natively, other styles through citeproc-py
                 (the ``cite`` extra), entry by entry
process.py       process_citations / process_document
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

if TYPE_CHECKING:
    from .process import CitationResult, DocumentResult, process_citations, process_document
    from .sources import Source, SourceList, load_sources

# Loaded on first use: the check's citation pack imports genlint.cite.markers, and must not pay
# for the rewriting and bibliography modules at start-up.
_LAZY = {
    "CitationResult": ".process",
    "DocumentResult": ".process",
    "process_citations": ".process",
    "process_document": ".process",
    "Source": ".sources",
    "SourceList": ".sources",
    "load_sources": ".sources",
}


__getattr__, __dir__ = lazy_exports(__name__, _LAZY, globals())

__all__ = [
    "CitationResult",
    "DocumentResult",
    "Source",
    "SourceList",
    "load_sources",
    "process_citations",
    "process_document",
]
