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

import contextvars
import importlib
import io
import os
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError

__all__ = [
    "READERS", "Document", "Segment", "check_zip", "expand_paths", "read_data", "read_document",
]

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
    # offsets of colons ending a line whose label the layout gives a value elsewhere on the
    # page (a PDF invoice's ``名称：`` with the name in another column: :mod:`.pdf_layout`)
    labels_with_values: frozenset[int] = frozenset()


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
    # images inside the file that were not read for personal data (no OCR, or undecodable)
    images_not_read: list[str] = field(default_factory=list)


# whether the readers read the places only the ``sensitive`` pack checks (a PDF's hidden
# places and PDFium's text, the pictures inside a PDF by OCR)
_SENSITIVE_PLACES: contextvars.ContextVar[bool] = contextvars.ContextVar(
    "genlint_sensitive_places", default=True
)


@contextmanager
def sensitive_places(wanted: bool) -> Iterator[None]:
    """Within the block, a PDF is read without the places only the ``sensitive`` pack checks
    unless ``wanted``: a check that selects none of its rules would drop their segments unread
    (:meth:`~genlint.check.engine.Checker.check_document`), after reading every attachment and
    running OCR on every picture."""
    token = _SENSITIVE_PLACES.set(wanted)
    try:
        yield
    finally:
        _SENSITIVE_PLACES.reset(token)


def wants_sensitive_places() -> bool:
    return _SENSITIVE_PLACES.get()


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


def _not_to_read(full: str, top: str) -> str | None:
    """Why a walked entry is not read (None: it is read)."""
    import stat

    if os.path.islink(full):
        target = os.path.realpath(full)
        if os.path.commonpath([target, top]) != top:
            return "a symbolic link that leaves the checked folder"
    try:
        mode = os.stat(full).st_mode
    except OSError:
        return None  # a broken link or a race: reading it reports it
    if not stat.S_ISREG(mode):
        return "not a regular file (a FIFO, socket or device)"
    return None


def expand_paths(paths: Sequence[str], skipped: list[str] | None = None) -> list[str]:
    """Files to check: files as given (a missing one too: reading it reports it); folders
    walked recursively for supported suffixes, skipping hidden files and folders (``.git``,
    ``.venv``…), in sorted order.

    In a folder, a symbolic link whose target lies outside the folder, and anything that is
    not a regular file (a FIFO, a device), is skipped: the folder's content may come from
    anyone, and a link to ``/proc/self/environ`` must not be read into a report or a review
    copy. ``skipped`` receives one line per such entry, naming the link, never its target."""
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
        top = os.path.realpath(path)
        for root, dirs, files in os.walk(path):
            dirs[:] = sorted(d for d in dirs if not _is_hidden(d))
            for name in sorted(files):
                if not _is_hidden(name) and os.path.splitext(name)[1].lower() in READERS:
                    full = os.path.join(root, name)
                    why = _not_to_read(full, top)
                    if why is None:
                        found.append(full)
                    elif skipped is not None:
                        skipped.append(f"{full}: {why}; skipped")
        if not found:
            raise InputError(
                f"{path}: folder holds no file to check ({', '.join(sorted(set(READERS)))})"
            )
        out.extend(found)
    return out


# -- ZIP packages (DOCX): bounds on what the entries really expand to ------------------------
_LOCAL_HEADER = 30
_CHUNK = 1 << 20


def check_zip(path: str, data: bytes, limit: int) -> int:
    """Refuse (InputError) a ZIP package whose entries expand past ``limit`` bytes in all, or
    past their declared sizes; return the bytes they expand to.

    The declared sizes cannot be trusted: ``zipfile`` truncates an entry to its declared size,
    but only after decompressing all of it in one call (an entry declaring 1 KB that inflates
    to 2 GB costs 2 GB). So each entry's compressed bytes are inflated here, a megabyte at a
    time, counting what really comes out; nothing is kept."""
    import struct
    import zipfile
    import zlib

    try:
        with zipfile.ZipFile(io.BytesIO(data)) as archive:
            infos = archive.infolist()
    except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
        raise InputError(f"{path}: not a ZIP package ({exc})") from None
    declared = sum(info.file_size for info in infos)
    if declared > limit:  # honest sizes: refused before anything is inflated
        raise InputError(f"{path}: expands to {declared // 2**20} MB, over the {limit // 2**20} MB "
                         "limit (a zip bomb?); set GENLINT_MAX_DOCX_MB to raise it")
    total = 0
    for info in infos:
        start = info.header_offset
        header = data[start : start + _LOCAL_HEADER]
        if len(header) < _LOCAL_HEADER or header[:4] != b"PK\x03\x04":
            raise InputError(f"{path}: damaged ZIP package (entry {info.filename!r} has no header)")
        name_len, extra_len = struct.unpack("<HH", header[26:30])
        begin = start + _LOCAL_HEADER + name_len + extra_len
        raw = memoryview(data)[begin : begin + info.compress_size]
        if info.compress_type == zipfile.ZIP_STORED:
            size = len(raw)
        elif info.compress_type == zipfile.ZIP_DEFLATED:
            size = _inflated_size(path, info.filename, raw, limit - total, zlib)
        else:
            raise InputError(f"{path}: ZIP entry {info.filename!r} uses compression method "
                             f"{info.compress_type}, which Office never writes; not read")
        if size > info.file_size:
            raise InputError(f"{path}: ZIP entry {info.filename!r} expands past its declared "
                             f"size ({info.file_size:,} bytes): a zip bomb? not read")
        total += size
        if total > limit:
            break
    if total > limit:
        raise InputError(f"{path}: expands to more than {limit // 2**20} MB, over the limit "
                         "(a zip bomb?); set GENLINT_MAX_DOCX_MB to raise it")
    return total


def _inflated_size(path: str, name: str, raw: memoryview, room: int, zlib: Any) -> int:
    """Bytes the raw deflate stream ``raw`` inflates to, stopping once past ``room``."""
    inflater = zlib.decompressobj(-15)
    size = 0
    pending = bytes(raw[:_CHUNK])
    offset = len(pending)
    try:
        while True:
            out = inflater.decompress(pending, _CHUNK)
            size += len(out)
            if size > room:
                return size
            pending = inflater.unconsumed_tail
            if inflater.eof:
                return size
            if not pending:
                if offset >= len(raw):
                    return size + len(inflater.flush())
                pending = bytes(raw[offset : offset + _CHUNK])
                offset += len(pending)
    except zlib.error as exc:
        raise InputError(f"{path}: damaged ZIP entry {name!r} ({exc})") from None


# -- XML parts (DOCX): what a parser would drop is bad input, not a warning --------------------
def refuse_xml_loss(path: str, part: str, *, error: Exception | None = None, root: Any = None) -> None:
    """InputError when a part cannot be read whole: nested past the parser's depth limit (the
    recovering parser drops everything inside, silently), or holding entity references that
    stay unresolved (the text after each is lost). The predefined entities and character
    references are resolved by the parser; a DOCX declares no others."""
    if error is not None and "depth" in str(error).lower():
        raise InputError(f"{path}: part {part} is nested deeper than the XML parser reads "
                         "(256 levels); its text would be lost, so the file is not read")
    if root is not None:
        from lxml import etree

        entity = next(root.iter(etree.Entity), None)
        if entity is not None:
            raise InputError(f"{path}: part {part} uses the XML entity {entity.text[:40]} "
                             "(a DOCX declares none); not read")
