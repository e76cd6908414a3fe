"""Citation markers to numbered citations and a reference list (``genlint cite``).

markers.py       find ``<sources>[…]</sources>``, ``[Source n]`` and ``[n]`` outside code
sources.py       validate SOURCES.json, merge duplicate URLs/titles
rewrite.py       where each citation goes (line rules) and the rewritten text
coverage.py      sentences and the share that carry a citation
csl.py           a source as a CSL-JSON item
bibliography.py  the reference list through citeproc-py (the ``cite`` extra)
process.py       process_citations / process_document
"""

from __future__ import annotations

from .process import CitationResult, DocumentResult, process_citations, process_document
from .sources import Source, SourceList, load_sources

__all__ = [
    "CitationResult",
    "DocumentResult",
    "Source",
    "SourceList",
    "load_sources",
    "process_citations",
    "process_document",
]
