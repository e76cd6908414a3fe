"""Every place a PDF keeps text that the page does not show: one list for the reader and for
``genlint mask`` (docs/commands/check.md, "PDF, every place for personal data").

:func:`places` walks a pypdf ``PdfReader`` or ``PdfWriter`` and yields a :class:`Slot` per
text: the Info dictionary and every XMP packet (``metadata``), AcroForm fields and XFA forms
(``form-field``, :mod:`.pdf_forms`), annotation contents, titles, link URIs, scripts and
appearance streams (``annotation``), outline titles and their links (``bookmark``), attached
files (``attachment``, :mod:`.pdf_files`: the name, and the bytes for the readers), the open
action (``link``), the structure tree's alternate text (``alt-text``), and then every other
string object (``object``, :mod:`.pdf_objects`). The reader reads ``Slot.text``; the masker
rewrites the same slot, so what ``check`` reads is exactly what ``mask`` rewrites and verifies.

Walks are bounded (a cycle in an outline, a field tree or a structure tree is visited once)
and a slot's label never holds the text it labels: a label names a place by its number
(``annotation 2``), never by a name that could itself be personal data.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

__all__ = ["Slot", "places"]

# outline items, fields, structure elements and attachments read at most (a crafted file could
# loop or fan out); a file with more is refused, never read in part
MAX_NODES = 100_000

# the annotation keys that hold text a viewer shows in a popup or list
_ANNOT_KEYS = ("/Contents", "/T", "/Subj", "/RC", "/NM")


@dataclass
class Slot:
    """One place holding text. ``kind`` says how the masker rewrites it:

    - ``string``: ``owner[key]`` is a text string; ``uri``: the same, a link (``text`` is
      URL-decoded);
    - ``xmp``: ``owner[key]`` is an XML packet (XMP, an XFA form), removed whole; ``text`` its
      text nodes and attribute values; ``xmp-stream``: ``owner`` is an XMP stream some other
      object refers to, emptied;
    - ``stream``: ``owner[key]`` is a stream of text (a script, rich text), removed when it
      holds a value;
    - ``appearance``: ``owner[key]`` is an ``/AP`` dictionary, ``text`` what its streams draw;
    - ``options``: ``owner[key]`` is a choice field's array of options;
    - ``file``: ``owner[key]`` is an embedded file stream, ``data`` its bytes, ``name`` its
      file name (which reader reads it); ``name-key``: ``owner[key][index]`` is an
      attachment's name in the name tree;
    - ``array-item``: ``owner[index]`` is a string; ``indirect-string``: object ``index`` of
      the document ``owner`` is a string (both from :mod:`.pdf_objects`)."""

    part: str
    label: str
    kind: str
    owner: Any
    key: str
    text: str = ""
    page: int | None = None
    name: str = ""
    data: bytes = b""
    index: int = -1


def places(doc: Any) -> Iterator[Slot]:
    """Every slot of a pypdf reader or writer, in a stable order (metadata, form fields,
    pages' annotations, outlines, attachments, the open action, the structure tree, then
    every other string: :mod:`.pdf_objects`)."""
    from .pdf_files import attachments
    from .pdf_forms import form_fields
    from .pdf_objects import numbered, other_strings, taken_by

    pages = _page_numbers(doc)
    fields: set[int] = set()
    taken: set[tuple[int, Any]] = set()
    for named in (_metadata(doc, numbered(doc)), form_fields(doc, pages, fields),
                  _annotations(doc, pages, fields), _outlines(doc), attachments(doc),
                  _open_action(doc), _structure(doc)):
        for slot in named:
            taken.update(taken_by(slot))
            yield slot
    yield from other_strings(doc, taken)


def string_text(value: Any) -> str | None:
    from pypdf.generic import ByteStringObject, TextStringObject

    value = resolved(value)
    if isinstance(value, TextStringObject):
        return str(value)
    if isinstance(value, ByteStringObject):
        return bytes(value).decode("latin-1")
    if isinstance(value, str):
        return value
    return None


def resolved(value: Any) -> Any:
    try:
        return value.get_object() if value is not None else None
    except Exception:  # a dangling reference in a damaged file
        return None


def _info(doc: Any) -> Any:
    from pypdf import PdfWriter

    if isinstance(doc, PdfWriter):  # the writer keeps its Info apart from the trailer
        return resolved(getattr(doc, "_info", None))
    return resolved(doc.trailer.get("/Info"))


def _metadata(doc: Any, objects: Iterator[tuple[int, Any]]) -> Iterator[Slot]:
    info = _info(doc)
    if info is not None:
        for key in sorted(info):
            text = string_text(info.get(key))
            if text:
                yield Slot("metadata", f"Info {key}", "string", info, key, text)
    root = doc.root_object
    seen: set[int] = set()
    yield from _xmp(root, "XMP metadata", None, seen)
    for number, page in enumerate(doc.pages, start=1):
        yield from _xmp(page, f"page {number} XMP metadata", number, seen)
    # XMP of an image, a font or any other object: the packet itself is the slot
    count = 0
    for _, obj in objects:
        if (id(obj) not in seen and hasattr(obj, "get_data") and hasattr(obj, "get")
                and obj.get("/Type") == "/Metadata"):
            count += 1
            seen.add(id(obj))
            yield Slot("metadata", f"object XMP metadata {count}", "xmp-stream", obj, "",
                       xml_text(stream_bytes(obj)))


def stream_bytes(stream: Any) -> bytes:
    try:
        return bytes(stream.get_data())
    except Exception:  # undecodable: the masker removes it, the reader reads what it can
        return b""


def _xmp(owner: Any, label: str, page: int | None, seen: set[int]) -> Iterator[Slot]:
    stream = resolved(owner.get("/Metadata"))
    if stream is None or not hasattr(stream, "get_data"):
        return
    seen.add(id(stream))
    yield Slot("metadata", label, "xmp", owner, "/Metadata", xml_text(stream_bytes(stream)),
               page)


def xml_text(raw: bytes) -> str:
    """Text nodes and attribute values of an XMP packet, one per line (no entity expansion,
    no network); an unparsable packet is read as text."""
    from lxml import etree

    parser = etree.XMLParser(resolve_entities=False, no_network=True, recover=True,
                             huge_tree=False)
    try:
        root = etree.fromstring(raw, parser)
    except Exception:
        root = None
    if root is None:
        return raw.decode("utf-8", "replace")
    out: list[str] = []
    for node in root.iter():
        for value in node.attrib.values():
            out.append(value)
        if node.text and node.text.strip():
            out.append(node.text.strip())
        if node.tail and node.tail.strip():
            out.append(node.tail.strip())
    return "\n".join(out)


def _page_numbers(doc: Any) -> dict[int, int]:
    """id of a page's object -> its 1-based number (to name a widget's page)."""
    out: dict[int, int] = {}
    for number, page in enumerate(doc.pages, start=1):
        ref = getattr(page, "indirect_reference", None)
        if ref is not None:
            out[ref.idnum] = number
    return out


def _annotations(doc: Any, pages: dict[int, int], fields: set[int]) -> Iterator[Slot]:
    for number, page in enumerate(doc.pages, start=1):
        annots = resolved(page.get("/Annots"))
        if not annots:
            continue
        for index, ref in enumerate(annots, start=1):
            annot = resolved(ref)
            if annot is None or not hasattr(annot, "get"):
                continue
            label = f"page {number} annotation {index}"
            if annot.get("/Subtype") == "/Widget" or "/FT" in annot:
                if id(annot) not in fields:  # a widget no field lists: read all the same
                    fields.add(id(annot))
                    from .pdf_forms import field_slots

                    yield from field_slots(doc, annot, label, number)
                continue
            for key in _ANNOT_KEYS:
                yield from text_slot("annotation", f"{label} {key}", annot, key, number)
            yield from action_slots("annotation", label, annot, number)
            yield from appearance_slots("annotation", label, annot, page, number)
            fs = resolved(annot.get("/FS"))
            if fs is not None and hasattr(fs, "get"):
                from .pdf_files import file_spec

                yield from file_spec(fs, f"{label} attached file")


def action_slots(part: str, label: str, owner: Any, page: int | None,
            entry: str = "/A") -> Iterator[Slot]:
    action = resolved(owner.get(entry))
    if action is None or not hasattr(action, "get"):
        return
    for key in ("/URI", "/F"):
        text = string_text(action.get(key))
        if text:
            yield Slot(part, f"{label} link", "uri", action, key, _decoded(text), page)
    yield from text_slot(part, f"{label} script", action, "/JS", page)


def text_slot(part: str, label: str, owner: Any, key: str, page: int | None) -> Iterator[Slot]:
    """``owner[key]`` as a slot: a text string, or a stream of text (a script, rich text)."""
    value = resolved(owner.get(key))
    text = string_text(value)
    if text:
        yield Slot(part, label, "string", owner, key, text, page)
    elif value is not None and hasattr(value, "get_data"):
        yield Slot(part, label, "stream", owner, key, _stream_text_of(stream_bytes(value)), page)


def _stream_text_of(raw: bytes) -> str:
    """A text stream's bytes as text: UTF-16 with its byte order mark, else UTF-8, else
    Latin-1 (PDFDocEncoding's printable range)."""
    if raw[:2] in (b"\xfe\xff", b"\xff\xfe"):
        return raw.decode("utf-16", "replace")
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("latin-1")


def _open_action(doc: Any) -> Iterator[Slot]:
    """The action run when the file opens (a link or a script): ``part`` ``link``."""
    yield from action_slots("link", "open action", doc.root_object, None, entry="/OpenAction")


# the structure tree (tagged PDF): what a screen reader reads instead of the page
_STRUCT_KEYS = ("/Alt", "/ActualText", "/E", "/T")


def _structure(doc: Any) -> Iterator[Slot]:
    """Alternate descriptions and replacement text of the structure tree (``alt-text``)."""
    root = resolved(doc.root_object.get("/StructTreeRoot"))
    if root is None or not hasattr(root, "get"):
        return
    seen: set[int] = set()
    stack = [root]
    count = 0
    while stack:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if hasattr(node, "get"):
            count = bounded(count + 1, "structure elements")
            for key in _STRUCT_KEYS:
                text = string_text(node.get(key))
                if text:
                    yield Slot("alt-text", f"structure element {count} {key}", "string", node,
                               key, text)
            kids = resolved(node.get("/K"))
            if kids is not None:
                stack.append(kids)
        elif isinstance(node, list):
            stack.extend(resolved(k) for k in reversed(node))


def bounded(count: int, what: str) -> int:
    """``count`` (the items of one walk read so far), or InputError past :data:`MAX_NODES`:
    a place left unread would pass silently."""
    if count > MAX_NODES:
        from ..errors import InputError

        raise InputError(f"more than {MAX_NODES:,} {what}; genlint does not read the file")
    return count


def _decoded(uri: str) -> str:
    """A URI as a person reads it: ``%40`` is ``@``; a ``+`` in a query is a space."""
    try:
        return unquote(uri)
    except Exception:
        return uri


def appearance_slots(part: str, label: str, owner: Any, page: Any, number: int | None) -> Iterator[Slot]:
    ap = resolved(owner.get("/AP"))
    if ap is None or not hasattr(ap, "get"):
        return
    texts: list[str] = []
    for state in ("/N", "/R", "/D"):
        entry = resolved(ap.get(state))
        streams = [entry] if hasattr(entry, "get_data") else (
            [resolved(v) for v in entry.values()] if hasattr(entry, "values") else [])
        for stream in streams:
            if stream is None or not hasattr(stream, "get_data"):
                continue
            texts.append(_stream_text(page, stream))
    yield Slot(part, f"{label} appearance", "appearance", owner, "/AP", "\n".join(texts), number)


def _stream_text(page: Any, stream: Any) -> str:
    """What an appearance stream draws, as pypdf extracts text from a form XObject."""
    if page is None:
        from pypdf import PageObject

        page = PageObject()
    try:
        return str(page.extract_xform_text(stream))
    except Exception:  # a stream pypdf cannot interpret: its raw strings, as a forensic look
        try:
            return bytes(stream.get_data()).decode("latin-1")
        except Exception:
            return ""


def _outlines(doc: Any) -> Iterator[Slot]:
    outlines = resolved(doc.root_object.get("/Outlines"))
    if outlines is None or not hasattr(outlines, "get"):
        return
    seen: set[int] = set()
    stack = [outlines.get("/First")]
    count = 0
    while stack:
        ref = stack.pop()
        item = resolved(ref)
        if item is None or not hasattr(item, "get"):
            continue
        ident = getattr(ref, "idnum", None) or id(item)
        if ident in seen:
            continue
        seen.add(ident)
        count = bounded(count + 1, "bookmarks")
        label = f"bookmark {count}"
        text = string_text(item.get("/Title"))
        if text:
            yield Slot("bookmark", f"{label} title", "string", item, "/Title", text)
        yield from action_slots("bookmark", label, item, None)
        # depth first, in reading order: the next sibling after the children
        stack.append(item.get("/Next"))
        stack.append(item.get("/First"))


