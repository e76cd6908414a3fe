"""Every place a PDF keeps text that the page does not show: one list for the reader and for
``genlint mask`` (docs/commands/check.md "Every place a file keeps text").

:func:`places` walks a pypdf ``PdfReader`` or ``PdfWriter`` and yields a :class:`Slot` per
text: the Info dictionary and XMP metadata (``metadata``), annotation contents, titles and link
URIs (``annotation``), AcroForm field values and the appearance streams that draw them
(``form-field``), outline titles and their links (``bookmark``), and attached files
(``attachment``: the file's name, and its bytes for the readers). The reader reads
``Slot.text``; the masker rewrites the same slot (``owner[key]``), so what ``check`` reads is
exactly what ``mask`` rewrites and verifies.

Walks are bounded (a cycle in an outline or a field tree is visited once) and a slot's label
never holds the text it labels: a label names a place by its number (``annotation 2``), never by
a name that could itself be personal data.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote

__all__ = ["MAX_ATTACHMENT_BYTES", "Slot", "places"]

log = logging.getLogger(__name__)

# an attachment larger than this (declared or decompressed) is not read: bad input, never a
# silent pass
MAX_ATTACHMENT_BYTES = 32 * 1024 * 1024
# outline items, fields and annotations visited at most (a crafted file could loop or fan out)
_MAX_NODES = 100_000

# the annotation keys that hold text a viewer shows in a popup or list
_ANNOT_KEYS = ("/Contents", "/T", "/Subj", "/RC", "/NM")
_FIELD_KEYS = ("/V", "/DV", "/TU", "/TM")


@dataclass
class Slot:
    """One place holding text. ``kind``: ``string`` (``owner[key]`` is a text string), ``uri``
    (a link URI; ``text`` is URL-decoded), ``xmp`` (``owner[key]`` is an XML packet, XMP or an
    XFA form, removed whole when masked; ``text`` its text nodes and attribute values), ``xmp-stream`` (``owner`` is an XMP stream some other
    object refers to), ``appearance`` (``owner[key]`` is an ``/AP``
    dictionary; ``text`` what its streams draw), ``options`` (``owner[key]`` is a choice
    field's array of options), ``file`` (``owner[key]`` is an embedded file stream;
    ``data`` its bytes, ``name`` its file name, read by the readers), ``name-key`` (the name
    of an attachment in the name tree, ``owner[key][index]``), ``array-item`` (a string at
    ``owner[index]``), ``indirect-string`` (object ``index`` of the document ``owner``; both
    :mod:`.pdf_objects`)."""

    part: str
    label: str
    kind: str
    owner: Any
    key: str
    text: str = ""
    page: int | None = None
    name: str = ""
    data: bytes = b""
    index: int = -1  # ``name-key``: where the name sits in ``owner[key]``; ``array-item``:
    # where the string sits in ``owner``


def places(doc: Any) -> Iterator[Slot]:
    """Every slot of a pypdf reader or writer, in a stable order (metadata, form fields,
    pages' annotations, outlines, attachments, the open action, the structure tree, then
    every other string: :mod:`.pdf_objects`)."""
    from .pdf_objects import other_strings, taken_by

    pages = _page_numbers(doc)
    fields: set[int] = set()
    taken: set[tuple[int, Any]] = set()
    for named in (_metadata(doc), _form_fields(doc, pages, fields),
                  _annotations(doc, pages, fields), _outlines(doc), _attachments(doc),
                  _open_action(doc), _structure(doc)):
        for slot in named:
            taken.update(taken_by(slot))
            yield slot
    yield from other_strings(doc, taken)


def _text(value: Any) -> str | None:
    from pypdf.generic import ByteStringObject, TextStringObject

    value = _resolve(value)
    if isinstance(value, TextStringObject):
        return str(value)
    if isinstance(value, ByteStringObject):
        return bytes(value).decode("latin-1")
    if isinstance(value, str):
        return value
    return None


def _resolve(value: Any) -> Any:
    try:
        return value.get_object() if value is not None else None
    except Exception:  # a dangling reference in a damaged file
        return None


def _info(doc: Any) -> Any:
    from pypdf import PdfWriter

    if isinstance(doc, PdfWriter):
        return doc._info
    return _resolve(doc.trailer.get("/Info"))


def _metadata(doc: Any) -> Iterator[Slot]:
    info = _info(doc)
    if info is not None:
        for key in sorted(info):
            text = _text(info.get(key))
            if text:
                yield Slot("metadata", f"Info {key}", "string", info, key, text)
    root = doc.root_object
    seen: set[int] = set()
    yield from _xmp(root, "XMP metadata", None, seen)
    for number, page in enumerate(doc.pages, start=1):
        yield from _xmp(page, f"page {number} XMP metadata", number, seen)
    # XMP of an image, a font or any other object: the packet itself is the slot
    count = 0
    for obj in _objects(doc):
        if (id(obj) not in seen and hasattr(obj, "get_data") and hasattr(obj, "get")
                and obj.get("/Type") == "/Metadata"):
            count += 1
            seen.add(id(obj))
            yield Slot("metadata", f"object XMP metadata {count}", "xmp-stream", obj, "",
                       _xml_text(_stream_bytes(obj)))


def _objects(doc: Any) -> Iterator[Any]:
    """Every indirect object of a reader or writer (bounded)."""
    from pypdf import PdfWriter

    if isinstance(doc, PdfWriter):
        objects = [o for o in doc._objects[:_MAX_NODES] if o is not None]
        yield from objects
        return
    numbers = sorted({num for gens in doc.xref.values() for num in gens})
    for num in numbers[:_MAX_NODES]:
        try:
            obj = doc.get_object(num)
        except Exception:  # a broken object: its neighbours are still read
            continue
        if obj is not None:
            yield obj


def _stream_bytes(stream: Any) -> bytes:
    try:
        return bytes(stream.get_data())
    except Exception:  # undecodable: the masker removes it, the reader reads what it can
        return b""


def _xmp(owner: Any, label: str, page: int | None, seen: set[int]) -> Iterator[Slot]:
    stream = _resolve(owner.get("/Metadata"))
    if stream is None or not hasattr(stream, "get_data"):
        return
    seen.add(id(stream))
    yield Slot("metadata", label, "xmp", owner, "/Metadata", _xml_text(_stream_bytes(stream)),
               page)


def _xml_text(raw: bytes) -> str:
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
        annots = _resolve(page.get("/Annots"))
        if not annots:
            continue
        for index, ref in enumerate(annots, start=1):
            annot = _resolve(ref)
            if annot is None or not hasattr(annot, "get"):
                continue
            label = f"page {number} annotation {index}"
            if annot.get("/Subtype") == "/Widget" or "/FT" in annot:
                if id(annot) not in fields:  # a widget no field lists: read all the same
                    fields.add(id(annot))
                    yield from _field_slots(doc, annot, label, number)
                continue
            for key in _ANNOT_KEYS:
                text = _text(annot.get(key))
                if text:
                    yield Slot("annotation", f"{label} {key}", "string", annot, key, text, number)
            yield from _action("annotation", label, annot, number)
            yield from _appearance("annotation", label, annot, page, number)
            fs = _resolve(annot.get("/FS"))
            if fs is not None and hasattr(fs, "get"):
                yield from _file_spec(fs, f"{label} attached file")


def _action(part: str, label: str, owner: Any, page: int | None,
            entry: str = "/A") -> Iterator[Slot]:
    action = _resolve(owner.get(entry))
    if action is None or not hasattr(action, "get"):
        return
    for key in ("/URI", "/F"):
        text = _text(action.get(key))
        if text:
            yield Slot(part, f"{label} link", "uri", action, key, _decoded(text), page)
    text = _text(action.get("/JS"))
    if text:
        yield Slot(part, f"{label} script", "string", action, "/JS", text, page)


def _open_action(doc: Any) -> Iterator[Slot]:
    """The action run when the file opens (a link or a script): ``part`` ``link``."""
    yield from _action("link", "open action", doc.root_object, None, entry="/OpenAction")


# the structure tree (tagged PDF): what a screen reader reads instead of the page
_STRUCT_KEYS = ("/Alt", "/ActualText", "/E", "/T")


def _structure(doc: Any) -> Iterator[Slot]:
    """Alternate descriptions and replacement text of the structure tree (``alt-text``)."""
    root = _resolve(doc.root_object.get("/StructTreeRoot"))
    if root is None or not hasattr(root, "get"):
        return
    seen: set[int] = set()
    stack = [root]
    count = 0
    while stack and count < _MAX_NODES:
        node = stack.pop()
        if node is None or id(node) in seen:
            continue
        seen.add(id(node))
        if hasattr(node, "get"):
            count += 1
            for key in _STRUCT_KEYS:
                text = _text(node.get(key))
                if text:
                    yield Slot("alt-text", f"structure element {count} {key}", "string", node,
                               key, text)
            kids = _resolve(node.get("/K"))
            if kids is not None:
                stack.append(kids)
        elif isinstance(node, list):
            stack.extend(_resolve(k) for k in reversed(node))


def _decoded(uri: str) -> str:
    """A URI as a person reads it: ``%40`` is ``@``; a ``+`` in a query is a space."""
    try:
        return unquote(uri)
    except Exception:
        return uri


def _appearance(part: str, label: str, owner: Any, page: Any, number: int | None) -> Iterator[Slot]:
    ap = _resolve(owner.get("/AP"))
    if ap is None or not hasattr(ap, "get"):
        return
    texts: list[str] = []
    for state in ("/N", "/R", "/D"):
        entry = _resolve(ap.get(state))
        streams = [entry] if hasattr(entry, "get_data") else (
            [_resolve(v) for v in entry.values()] if hasattr(entry, "values") else [])
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


def _form_fields(doc: Any, pages: dict[int, int], seen: set[int]) -> Iterator[Slot]:
    """The AcroForm field tree; ``seen`` gets every field and widget visited (a widget that
    no field lists is read with the page's annotations)."""
    acro = _resolve(doc.root_object.get("/AcroForm"))
    if acro is None or not hasattr(acro, "get"):
        return
    yield from _xfa(acro)
    fields = _resolve(acro.get("/Fields")) or []
    stack = [_resolve(f) for f in reversed(list(fields))]
    count = 0
    while stack and count < _MAX_NODES:
        field = stack.pop()
        if field is None or not hasattr(field, "get") or id(field) in seen:
            continue
        seen.add(id(field))
        count += 1
        number = None
        page_ref = field.get("/P")
        if page_ref is not None and hasattr(page_ref, "idnum"):
            number = pages.get(page_ref.idnum)
        yield from _field_slots(doc, field, f"form field {count}", number)
        for kid in reversed(list(_resolve(field.get("/Kids")) or [])):
            stack.append(_resolve(kid))


def _xfa(acro: Any) -> Iterator[Slot]:
    """An XFA form's XML (its datasets hold the filled-in values): read as XML text; the
    masker removes it (viewers then use the AcroForm fields, which are masked)."""
    xfa = _resolve(acro.get("/XFA"))
    if xfa is None:
        return
    streams = [xfa] if hasattr(xfa, "get_data") else [
        _resolve(item) for item in (xfa if isinstance(xfa, list) else [])]
    texts = [_xml_text(_stream_bytes(st)) for st in streams if hasattr(st, "get_data")]
    yield Slot("form-field", "XFA form data", "xmp", acro, "/XFA", "\n".join(texts))


def _field_slots(doc: Any, field: Any, label: str, number: int | None) -> Iterator[Slot]:
    for key in _FIELD_KEYS:
        value = _resolve(field.get(key))
        text = _text(value)
        if text:
            yield Slot("form-field", f"{label} {key}", "string", field, key, text, number)
        elif value is not None and hasattr(value, "__iter__") and not hasattr(value, "get"):
            items = [t for t in (_text(v) for v in value) if t]
            if items:
                yield Slot("form-field", f"{label} {key}", "options", field, key,
                           "\n".join(items), number)
    opts = _resolve(field.get("/Opt"))
    if opts is not None and hasattr(opts, "__iter__"):
        items = []
        for opt in opts:
            opt = _resolve(opt)
            if hasattr(opt, "__iter__") and not isinstance(opt, str):
                items.extend(t for t in (_text(v) for v in opt) if t)
            else:
                t = _text(opt)
                if t:
                    items.append(t)
        if items:
            yield Slot("form-field", f"{label} /Opt", "options", field, "/Opt",
                       "\n".join(items), number)
    mk = _resolve(field.get("/MK"))
    if mk is not None and hasattr(mk, "get"):
        for key in ("/CA", "/RC", "/AC"):
            text = _text(mk.get(key))
            if text:
                yield Slot("form-field", f"{label} caption {key}", "string", mk, key, text,
                           number)
    page = doc.pages[number - 1] if number else None
    yield from _appearance("form-field", label, field, page, number)
    yield from _action("form-field", label, field, number)


def _outlines(doc: Any) -> Iterator[Slot]:
    outlines = _resolve(doc.root_object.get("/Outlines"))
    if outlines is None or not hasattr(outlines, "get"):
        return
    seen: set[int] = set()
    stack = [outlines.get("/First")]
    count = 0
    while stack and count < _MAX_NODES:
        ref = stack.pop()
        item = _resolve(ref)
        if item is None or not hasattr(item, "get"):
            continue
        ident = getattr(ref, "idnum", None) or id(item)
        if ident in seen:
            continue
        seen.add(ident)
        count += 1
        label = f"bookmark {count}"
        text = _text(item.get("/Title"))
        if text:
            yield Slot("bookmark", f"{label} title", "string", item, "/Title", text)
        yield from _action("bookmark", label, item, None)
        # depth first, in reading order: the next sibling after the children
        stack.append(item.get("/Next"))
        stack.append(item.get("/First"))


def _attachments(doc: Any) -> Iterator[Slot]:
    names = _resolve(doc.root_object.get("/Names"))
    tree = _resolve(names.get("/EmbeddedFiles")) if names is not None and hasattr(
        names, "get") else None
    if tree is None:
        return
    count = 0
    seen: set[int] = set()
    stack = [tree]
    while stack and count < _MAX_NODES:
        node = stack.pop()
        if node is None or not hasattr(node, "get") or id(node) in seen:
            continue
        seen.add(id(node))
        entries = list(_resolve(node.get("/Names")) or [])
        for i in range(1, len(entries), 2):
            spec = _resolve(entries[i])
            if spec is None or not hasattr(spec, "get"):
                continue
            count += 1
            name = _text(entries[i - 1]) or ""
            label = f"attachment {count}"
            if name:
                yield Slot("attachment", f"{label} key", "name-key", node, "/Names", name,
                           index=i - 1)
            yield from _file_spec(spec, label)
        for kid in reversed(list(_resolve(node.get("/Kids")) or [])):
            stack.append(_resolve(kid))


def _file_spec(spec: Any, label: str) -> Iterator[Slot]:
    name = ""
    for key in ("/UF", "/F", "/Desc"):
        text = _text(spec.get(key))
        if text:
            if key != "/Desc":
                name = name or text
            yield Slot("attachment", f"{label} {'description' if key == '/Desc' else 'name'}",
                       "string", spec, key, text)
    ef = _resolve(spec.get("/EF"))
    if ef is None or not hasattr(ef, "get"):
        return
    for key in ("/F", "/UF"):
        stream = _resolve(ef.get(key))
        if stream is None or not hasattr(stream, "get_data"):
            continue
        yield Slot("attachment", label, "file", ef, key, name=name or "attachment.bin",
                   data=_file_bytes(stream, label))
        break  # /UF, when both are present, is the same stream


def _file_bytes(stream: Any, label: str) -> bytes:
    from ..errors import InputError

    params = _resolve(stream.get("/Params"))
    size = _resolve(params.get("/Size")) if params is not None and hasattr(params, "get") else None
    if isinstance(size, int) and size > MAX_ATTACHMENT_BYTES:
        raise InputError(f"{label} is larger than {MAX_ATTACHMENT_BYTES // 2**20} MB; "
                         "genlint does not read it")
    try:
        data = bytes(stream.get_data())
    except Exception as exc:
        raise InputError(f"{label} cannot be decompressed ({type(exc).__name__})") from None
    if len(data) > MAX_ATTACHMENT_BYTES:
        raise InputError(f"{label} is larger than {MAX_ATTACHMENT_BYTES // 2**20} MB; "
                         "genlint does not read it")
    return data
