"""DOCX: everything a person sees in Word, with locations they can find.

python-docx's package reader opens the OPC package (ZIP, content types, the relationship
graph); each text part is parsed with lxml, first strictly and, if that fails, with lxml's
recovering parser (a warning names the part). :mod:`.docx_walk` turns a part into lines.

Parts are read in this order, each line with its place: the body (``paragraph``, or
``table``/``row``/``cell``), headers, footers, footnotes, endnotes, then review comments
(``part: comment``). Text boxes follow the paragraph that anchors them (``part: textbox``).
Tracked changes and comments are counted for the ``document`` pack.
"""

from __future__ import annotations

import contextlib
import io
import re
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from ..errors import InputError, require
from . import Document, Segment, wants_sensitive_places
from .docx_package import Package
from .docx_place import Place
from .docx_places import collect_places
from .docx_walk import REVISION_TAGS, Layout, Story, W, read_blocks

# text a person does not see is read for personal data only (placeholders there are no one's)
HIDDEN_PACKS = frozenset(("sensitive",))


# A DOCX is a ZIP: bound what its parts may expand to before anything is decompressed, so a
# zip bomb named .docx costs nothing (readers.check_zip inflates each entry in blocks, counting).
def _max_expanded() -> int:
    from .._io import env_megabytes

    return env_megabytes("GENLINT_MAX_DOCX_MB", 512)


# content type (after the wordprocessingml prefix) -> part name in locations; reading order
_PARTS = {
    "document.main+xml": "body",
    "template.main+xml": "body",
    "document.macroEnabled.main+xml": "body",
    "template.macroEnabledTemplate.main+xml": "body",
    "header+xml": "header",
    "footer+xml": "footer",
    "footnotes+xml": "footnote",
    "endnotes+xml": "endnote",
    "comments+xml": "comment",
}
_ORDER = ("body", "header", "footer", "footnote", "endnote", "comment")
# notes Word keeps for its own separators carry no text of the document
_NOTE_TYPES_SKIPPED = frozenset(("separator", "continuationSeparator", "continuationNotice"))


@dataclass
class Walked:
    """A read DOCX: its layout, the parsed text parts (kind, part name, root) and counts."""

    layout: Layout
    parts: list[tuple[str, str, Any]]
    warnings: list[str]
    revisions: int = 0
    comments: int = 0
    # every part python-docx read (name -> bytes): the hidden places read them without
    # decompressing the package again
    blobs: dict[str, bytes] = field(default_factory=dict)


def read(path: str, data: bytes) -> Document:
    if not wants_sensitive_places():
        # no rule would read the hidden places or the pictures (readers.sensitive_places)
        return document(path, walk(path, data))
    return read_package(path, data)[0]


def read_package(path: str, data: bytes) -> tuple[Document, Package]:
    """The Document, and the package it was read from (its entries decompressed and parsed
    once: mask searches the same trees again for copies of masked values)."""
    walked = walk(path, data)
    doc = document(path, walked)
    package, places = hidden_places(data, walked)
    doc.warnings.extend(package.warnings)
    doc.segments.extend(hidden_segments(places))
    from .images_inside import add_images, docx_images

    return add_images(doc, docx_images(path, data)), package


def hidden_places(data: bytes, walked: Walked) -> tuple[Package, list[Place]]:
    """The package (sharing the walked trees) and every place of text a person does not see
    (:mod:`.docx_places`): the ``sensitive`` pack reads them, mask rewrites them."""
    package = Package(data, {name: root for _, name, root in walked.parts}, walked.blobs)
    package.malformed.update(
        name for _, name, _ in walked.parts if any(w.startswith(f"{name}:") for w in walked.warnings)
    )
    return package, collect_places(package, [(kind, name) for kind, name, _ in walked.parts])


def hidden_segments(places: list[Place]) -> list[Segment]:
    """A segment per hidden place, read by the ``sensitive`` pack only; a finding's location
    names the place (``part``: ``properties``, ``link``…; ``field``: which one), and its line
    counts within the place."""
    return [Segment(p.text, places=[(0, p.location())], packs=HIDDEN_PACKS) for p in places]


def walk(path: str, data: bytes, *, track: bool = False) -> Walked:
    """Parse the text parts and lay out their lines; ``track`` records where each piece of
    text came from (``Layout.origins``), for writing back."""
    require("docx", "docs")
    blobs: dict[str, bytes] = {}
    parts = _text_parts(path, data, blobs)
    if not any(kind == "body" for kind, _, _ in parts):
        raise InputError(f"{path}: not a Word document (no main document part)")
    layout = Layout.tracked() if track else Layout()
    walked = Walked(layout, [], [], blobs=blobs)
    for kind, name, blob in parts:
        root = _parse(path, name, blob, walked.warnings)
        walked.parts.append((kind, name, root))
        walked.revisions += sum(1 for el in root.iter() if el.tag in REVISION_TAGS)
        story = Story(kind)
        if kind == "body":
            body = root.find(W + "body")
            read_blocks(body if body is not None else root, story, layout, None)
        elif kind in ("footnote", "endnote", "comment"):
            for item in root:
                if item.tag != W + kind:
                    continue
                if item.get(W + "type") in _NOTE_TYPES_SKIPPED:
                    continue
                if kind == "comment":
                    walked.comments += 1
                read_blocks(item, story, layout, None)
        else:
            read_blocks(root, story, layout, None)
    return walked


def document(path: str, walked: Walked) -> Document:
    """The Document check reads from a walked DOCX."""
    layout = walked.layout
    text, starts = _join(layout.lines)
    places = list(zip(starts, layout.places, strict=True))
    doc = Document(
        path=path, kind="docx", segments=[Segment(text, places=places)],
        warnings=list(walked.warnings),
    )
    if walked.revisions:
        line = layout.first_revision_line
        doc.leftovers["tracked-changes"] = (walked.revisions, starts[line] if line is not None else 0)
    if walked.comments:
        line = layout.first_comment_line
        doc.leftovers["comments"] = (walked.comments, starts[line] if line is not None else 0)
    return doc


def _join(lines: list[str]) -> tuple[str, list[int]]:
    starts: list[int] = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    return "\n".join(lines), starts


def _text_parts(path: str, data: bytes, blobs: dict[str, bytes]) -> list[tuple[str, str, bytes]]:
    """(kind, part name, XML bytes) of every part with text, in reading order."""
    from docx.opc.pkgreader import PackageReader

    buffer = io.BytesIO(data)
    if not zipfile.is_zipfile(buffer):
        raise InputError(f"{path}: not a DOCX file (corrupt or not a ZIP package)")
    from . import check_zip

    check_zip(path, data, _max_expanded())  # what the entries really inflate to (issue 25)
    try:
        package = PackageReader.from_file(io.BytesIO(data))
        found = list(_kinds(package.iter_sparts(), blobs))
    except Exception as exc:  # zip, content-type and relationship errors have many types
        raise InputError(f"{path}: cannot read DOCX ({_why(exc)})") from None
    found.sort(key=lambda item: (_ORDER.index(item[0]), _natural(item[1])))
    return found


def _kinds(
    sparts: Iterator[tuple[Any, str, str, bytes]], blobs: dict[str, bytes]
) -> Iterator[tuple[str, str, bytes]]:
    for partname, content_type, _reltype, blob in sparts:
        blobs[str(partname).lstrip("/")] = blob
        tail = content_type.partition("wordprocessingml.")[2]
        if not tail:
            tail = content_type.partition("ms-word.")[2]
        kind = _PARTS.get(tail)
        if kind is not None:
            yield kind, str(partname).lstrip("/"), blob


def _natural(name: str) -> list[Any]:
    """header2.xml before header10.xml."""
    return [int(t) if t.isdigit() else t for t in re.split(r"(\d+)", name)]


def _parse(path: str, name: str, blob: bytes, warnings: list[str]) -> Any:
    from lxml import etree

    # no entities, no network: a document cannot make the reader fetch or expand anything
    options = {"resolve_entities": False, "no_network": True, "remove_comments": True}
    from . import refuse_xml_loss

    try:
        root = etree.fromstring(blob, etree.XMLParser(**options))
        refuse_xml_loss(path, name, root=root)
        return root
    except etree.XMLSyntaxError as exc:
        first_error = exc
    refuse_xml_loss(path, name, error=first_error)
    root = None
    with contextlib.suppress(etree.XMLSyntaxError):
        root = etree.fromstring(blob, etree.XMLParser(recover=True, **options))
    if root is None:
        raise InputError(f"{path}: cannot read DOCX part {name} ({first_error})") from None
    refuse_xml_loss(path, name, root=root)
    warnings.append(
        f"{name}: malformed XML ({first_error}); read with a recovering parser, "
        "text near the damage may be missing"
    )
    return root


def _why(exc: Exception) -> str:
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else ""
    return f"{type(exc).__name__}: {text}"[:200] if text else type(exc).__name__
