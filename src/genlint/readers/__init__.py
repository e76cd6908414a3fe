"""Readers: turn a file into the text the rules check.

A reader is a module with ``read(path: str, data: bytes) -> Document``, registered by file
suffix in :data:`READERS` and imported only when a file of its kind is read (so pypdf and
python-docx load only for PDF and DOCX input).

Offsets of findings are code points into a :class:`Segment`'s text. Most files are one segment;
a JSON file is one segment per string value (with its JSON pointer, and ``locate`` mapping an
offset in the value to the line and column of the file). A PDF is one segment of all pages
joined by a line break, with ``page_starts`` giving where each page begins (findings then count
lines within their page). ``places`` tie offsets to where a person finds the text in the
original (a DOCX table cell, an OCR line's box): docs/commands/check.md "Locations".
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError

__all__ = ["READERS", "Document", "Segment", "expand_paths", "read_data", "read_document"]

# suffix -> reader module
READERS: dict[str, str] = {
    ".txt": "genlint.readers.text",
    ".text": "genlint.readers.text",
    ".md": "genlint.readers.markdown",
    ".markdown": "genlint.readers.markdown",
    ".json": "genlint.readers.json_strings",
    ".docx": "genlint.readers.docx",
    ".pdf": "genlint.readers.pdf",
    ".png": "genlint.readers.image",
    ".jpg": "genlint.readers.image",
    ".jpeg": "genlint.readers.image",
    ".tif": "genlint.readers.image",
    ".tiff": "genlint.readers.image",
}


@dataclass
class Segment:
    """A run of text checked as a whole."""

    text: str
    pointer: str | None = None
    locate: Callable[[int], tuple[int, int]] | None = None
    code_ranges: list[tuple[int, int]] = field(default_factory=list)
    # (offset, fields), sorted by offset: text from ``offset`` on sits at ``fields``
    places: list[tuple[int, dict[str, Any]]] = field(default_factory=list)
    # a place a person does not see (PDF metadata, a DOCX deletion): only these packs read it
    # (``sensitive``: personal data is a leak wherever the file holds it); None: every pack
    packs: frozenset[str] | None = None
    # the page the whole segment is on (a PDF annotation); the document's page_starts then
    # do not apply
    page: int | None = None


@dataclass
class Document:
    path: str
    kind: str
    segments: list[Segment]
    page_starts: list[int] | None = None
    encoding: str | None = None  # text files: how the bytes were decoded
    warnings: list[str] = field(default_factory=list)  # what the reader had to repair
    # what a delivered document must not carry (rule name -> (count, offset of the first)):
    # tracked changes and review comments, for the ``document`` pack
    leftovers: dict[str, tuple[int, int]] = field(default_factory=dict)


def read_document(path: str) -> Document:
    """Read one file (or ``-``, standard input, read as plain text) into a Document."""
    from .._io import read_bytes

    return read_data(path, read_bytes(path))


def read_data(path: str, data: bytes) -> Document:
    """Read a file's bytes already in memory (a Ray or Spark batch of files), choosing the
    reader by the suffix of ``path`` exactly as :func:`read_document` does."""
    suffix = os.path.splitext(path)[1].lower() if path != "-" else ".txt"
    # a file named on the command line with another suffix is read as plain text
    module = importlib.import_module(READERS.get(suffix, "genlint.readers.text"))
    doc: Document = module.read(path, data)
    return doc


def _is_hidden(name: str) -> bool:
    return name.startswith(".") and name not in (".", "..")


def expand_paths(paths: Sequence[str]) -> list[str]:
    """Files to check: files as given (a missing one too: reading it reports it); folders
    walked recursively for supported suffixes, skipping hidden files and folders (``.git``,
    ``.venv``…), in sorted order."""
    if not paths:
        raise InputError("no path given (use '-' for standard input)")
    out: list[str] = []
    for path in paths:
        if path == "-":
            out.append(path)
            continue
        if not os.path.isdir(path):
            # a missing or unreadable path is reported for itself when it is read, like a
            # corrupt file: one bad path never costs the others their findings
            out.append(path)
            continue
        found: list[str] = []
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not _is_hidden(d))
            for name in sorted(files):
                if not _is_hidden(name) and os.path.splitext(name)[1].lower() in READERS:
                    found.append(os.path.join(root, name))
        if not found:
            raise InputError(
                f"{path}: folder holds no file to check ({', '.join(sorted(set(READERS)))})"
            )
        out.extend(found)
    return out
