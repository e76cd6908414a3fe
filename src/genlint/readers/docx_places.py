"""Every place a DOCX keeps text that a person does not see: one list for check and mask.

Personal data is a leak wherever the package holds it, so the ``sensitive`` pack reads these
places too (docs/commands/check.md "Every place a file keeps text"), and ``genlint mask`` rewrites
and verifies exactly the same list. Each :class:`Place` is one piece of hidden text (a property,
the deleted text of a paragraph, the field codes of a paragraph, a link target…) and the XML
strings it is made of, so a span found in its text can be written back where it came from:

========================  ===================================================================
``part``                  where
========================  ===================================================================
``properties``            docProps/core.xml, app.xml (every element), custom.xml (name, value)
``deleted``               ``w:delText`` and text under ``w:del``/``w:moveFrom``/deleted rows
``field-code``            ``w:instrText`` (joined per paragraph, so a code split over runs is
                          one text), ``w:fldSimple/@w:instr``, legacy form-field defaults
``link``                  external targets in every ``*.rels`` (URL-decoded), tooltips
``alt-text``              ``@descr``/``@title`` of drawings and pictures, VML ``@alt``
``settings``              document variables (``w:docVar``)
``glossary``              the text of the glossary part (building blocks)
``custom-xml``            customXml data parts, smart-tag and custom-markup attributes
``author``                ``@w:author``/``@w:initials`` of revisions and comments, people.xml
``embedded-html``         ``altChunk`` parts (HTML text and attributes, plain text, RTF)
========================  ===================================================================
"""

from __future__ import annotations

import posixpath
import re
import unicodedata
from typing import Any

from .docx_package import Blob, Package
from .docx_place import Piece, Place, decoded
from .docx_walk import MC, W

__all__ = ["collect_places"]

_R = "{http://schemas.openxmlformats.org/officeDocument/2006/relationships}"
_O = "{urn:schemas-microsoft-com:office:office}"
_W15 = "{http://schemas.microsoft.com/office/word/2012/wordml}"
_DELETED = frozenset((W + "del", W + "moveFrom"))
_TEXT_TAGS = frozenset((W + "t", W + "delText"))
_INSTR = frozenset((W + "instrText", W + "delInstrText"))
_ALT_ATTRS = ("descr", "title")
_DRAWING_PROPS = frozenset(("docPr", "cNvPr"))
_FORM_FIELD = frozenset((W + "default", W + "statusText", W + "helpText"))
_SMART_ATTRS = frozenset((W + "attr",))
_AUTHOR_ATTRS = (W + "author", W + "initials")
_HTML = ("text/html", "application/xhtml+xml")
_TEXT = ("text/plain",)
_RTF = ("application/rtf", "text/rtf")


def _local(tag: Any) -> str:
    return tag.rpartition("}")[2] if isinstance(tag, str) else ""


class _Collector:
    def __init__(self, package: Package) -> None:
        self.pkg = package
        self.places: list[Place] = []
        self._authors: dict[str, Place] = {}

    def add(self, part: str, item: str, entry: str, pieces: list[Piece], *,
            decode: bool = False, writable: bool = True, encode: bool = False) -> None:
        # strings emptied by masking stay in the place: unmask puts a split value back in them
        if not pieces:
            return
        raw = "".join(p.get() for p in pieces)
        if not raw.strip():
            return
        text, at = decoded(raw) if decode else (raw, None)
        writable = writable and entry not in self.pkg.malformed
        self.places.append(Place(part, item, entry, text, pieces, at, writable, decode=decode,
                                 encode=encode))

    def attr(self, part: str, item: str, entry: str, el: Any, name: str, *,
             url: bool = False) -> None:
        value = el.get(name)
        if value:
            self.add(part, item, entry, [Piece(el, name, len(value))], decode=url, encode=url)

    def author(self, entry: str, el: Any, name: str) -> None:
        value = el.get(name)
        if not value or not value.strip():
            return
        piece = Piece(el, name, len(value))
        known = self._authors.get(value)
        if known is not None and known.entry == entry:
            known.mirrors.append(piece)
            return
        place = Place("author", f"{entry} @{_local(name)}", entry, value, [piece],
                      writable=entry not in self.pkg.malformed)
        self._authors[value] = place
        self.places.append(place)


def _text_piece(el: Any) -> Piece:
    return Piece(el, None, len(el.text or ""))


def collect_places(package: Package, text_parts: list[tuple[str, str]]) -> list[Place]:
    """Every hidden place of the package, in a fixed order. ``text_parts``: (kind, entry) of the
    parts the visible walk read (it never reads deleted text or field codes, so no string is
    read twice)."""
    c = _Collector(package)
    _properties(c)
    glossary = [n for n in package.names if package.content_type(n).endswith("glossary+xml")]
    for kind, entry in [*text_parts, *(("glossary", g) for g in glossary)]:
        root = package.root(entry)
        if root is not None:
            _story(c, kind, entry, root)
    for rels in package.rels_entries():
        for rel, target in package.relationships(rels):
            # a target that is no part of the package points outside it, whatever TargetMode says
            if target and (rel.get("TargetMode") == "External" or target not in package.names):
                c.attr("link", f"{rels} {rel.get('Id', '')}", rels, rel, "Target", url=True)
    _settings(c)
    for name in package.names:
        if posixpath.basename(name) == "people.xml" and package.root(name) is not None:
            for el in package.root(name).iter(_W15 + "person", _W15 + "presenceInfo"):
                for attr in (_W15 + "author", _W15 + "userId"):
                    c.author(name, el, attr)
    for name in package.names:
        if name.startswith("customXml/") and posixpath.basename(name).startswith("item") \
                and not posixpath.basename(name).startswith("itemProps") and name.endswith(".xml"):
            _all_strings(c, "custom-xml", name)
    _chunks(c, [entry for kind, entry in text_parts if kind == "body"])
    for name in package.unreadable:
        # fail closed: a part no parser reads is still searched, as text, and never rewritten
        text = package.raw(name).decode("utf-8", "replace")
        c.add(_part_of(name), f"{name} (unparsable)", name,
              [Piece(Blob(text, "utf-8"), None, len(text))], writable=False)
    return c.places


def _part_of(name: str) -> str:
    if name.endswith(".rels"):
        return "link"
    if name.startswith("docProps/"):
        return "properties"
    if name.endswith("people.xml"):
        return "author"
    if name.endswith("settings.xml"):
        return "settings"
    if "glossary" in name:
        return "glossary"
    return "custom-xml"


def _properties(c: _Collector) -> None:
    for name in ("docProps/core.xml", "docProps/app.xml", "docProps/custom.xml"):
        if name in c.pkg.names:
            _all_strings(c, "properties", name)


def _all_strings(c: _Collector, part: str, entry: str) -> None:
    """Each element text and attribute value of a data part is a place of its own."""
    root = c.pkg.root(entry)
    if root is None:
        return
    short = posixpath.basename(entry)
    custom = 0  # custom properties are named by number: a property's name can be personal data
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        label = _local(el.tag)
        if short == "custom.xml" and label == "property":
            custom += 1
        if short == "custom.xml" and el.getparent() is not None \
                and _local(el.getparent().tag) == "property":
            label = f"property {custom}"
        if el.text:
            c.add(part, f"{short} {label}", entry, [_text_piece(el)])
        if el.tail and el.getparent() is not None:  # mixed content: text after a child
            c.add(part, f"{short} {_local(el.getparent().tag)}", entry,
                  [Piece(el, "#tail", len(el.tail))])
        for key in el.attrib:
            if not key.startswith("{http://www.w3.org/2001/XMLSchema-instance}"):
                c.attr(part, f"{short} {_local(el.tag)}@{_local(key)}", entry, el, key)


def _story(c: _Collector, kind: str, entry: str, root: Any) -> None:
    """Hidden text of a text part (body, header, note, comment, glossary): per paragraph, its
    deleted text and its field codes; then attributes: alt text, authors, smart tags."""
    short = posixpath.basename(entry)
    # what sits in a fallback copy is compared with what is shown below, never read twice
    copy = {id(el) for fb in root.iter(MC + "Fallback") for el in fb.iter()}
    paragraphs = 0
    for p in root.iter(W + "p"):
        if id(p) in copy:
            continue
        paragraphs += 1
        where = f"{short} paragraph {paragraphs}"
        texts, gone, codes = [], [], []
        for el in p.iter(*_TEXT_TAGS, *_INSTR):
            if _owner(el) is not p:
                continue
            if el.tag in _INSTR:
                codes.append(_text_piece(el))
            elif kind == "glossary":
                texts.append(_text_piece(el))
            elif el.tag == W + "delText" or _deleted(el):
                gone.append(_text_piece(el))
        c.add("glossary", where, entry, texts)
        c.add("deleted", where, entry, gone)
        c.add("field-code", where, entry, codes, decode=True)
    copies = 0
    for alternate in root.iter(MC + "AlternateContent"):
        # Word shows the Choice and keeps a fallback copy; a copy that says something else is
        # a place of its own (an identical one is swept by mask with the shown text)
        choice, fallback = alternate.find(MC + "Choice"), alternate.find(MC + "Fallback")
        if fallback is None:
            continue
        shown = "".join(t.text or "" for t in choice.iter(W + "t")) if choice is not None else ""
        kept = [_text_piece(t) for t in fallback.iter(W + "t")]
        if _same_text("".join(p.get() for p in kept)) != _same_text(shown):
            copies += 1
            c.add("textbox", f"{short} fallback copy {copies}", entry, kept)
    for el in root.iter():
        tag = el.tag
        if not isinstance(tag, str) or id(el) in copy:
            continue
        name = _local(tag)
        if tag == W + "fldSimple":
            c.add("field-code", f"{short} fldSimple", entry,
                  [Piece(el, W + "instr", len(el.get(W + "instr") or ""))], decode=True)
        elif tag in _FORM_FIELD or (tag == W + "name" and el.getparent() is not None
                                    and el.getparent().tag == W + "ffData"):
            c.attr("field-code", f"{short} form field {name}", entry, el, W + "val")
        elif tag == W + "hyperlink":
            c.attr("link", f"{short} hyperlink tooltip", entry, el, W + "tooltip")
        elif name in _DRAWING_PROPS:
            for attr in _ALT_ATTRS:
                c.attr("alt-text", f"{short} {name}@{attr}", entry, el, attr)
        elif tag.startswith("{urn:schemas-microsoft-com:vml}"):
            for attr in ("alt", "title", _O + "title"):
                c.attr("alt-text", f"{short} {name}@{_local(attr)}", entry, el, attr)
        elif tag in (W + "alias", W + "tag") and el.getparent() is not None \
                and el.getparent().tag == W + "sdtPr":
            c.attr("custom-xml", f"{short} content control {name}", entry, el, W + "val")
        elif tag in _SMART_ATTRS:
            owner = el.getparent()
            owner = owner.getparent() if owner is not None else None
            markup = _local(owner.tag) if owner is not None else "custom markup"
            for attr in (W + "val", W + "name"):
                c.attr("custom-xml", f"{short} {markup} attribute", entry, el, attr)
        elif tag in (W + "smartTag", W + "customXml"):
            c.attr("custom-xml", f"{short} {name}@element", entry, el, W + "element")
        for attr in _AUTHOR_ATTRS:
            if attr in el.attrib:
                c.author(entry, el, attr)


_GROUPING = re.compile(r"[\s\-.\u3000()\uff08\uff09\uff0d]")


def _same_text(text: str) -> str:
    """Text compared without its grouping (a fallback copy may break or space it otherwise)."""
    return _GROUPING.sub("", unicodedata.normalize("NFKC", text))


def _owner(el: Any) -> Any:
    """The paragraph a text element belongs to (a text box's paragraph, not its anchor's)."""
    node = el.getparent()
    while node is not None and node.tag != W + "p":
        node = node.getparent()
    return node


def _deleted(el: Any) -> bool:
    node = el.getparent()
    while node is not None:
        if node.tag in _DELETED:
            return True
        if node.tag == W + "tr":
            return node.find(W + "trPr/" + W + "del") is not None
        node = node.getparent()
    return False


def _settings(c: _Collector) -> None:
    for name in c.pkg.names:
        if posixpath.basename(name) != "settings.xml" or not name.startswith("word/"):
            continue
        root = c.pkg.root(name)
        if root is None:
            continue
        # named by number: a variable's name can be personal data
        for n, var in enumerate(root.iter(W + "docVar"), start=1):
            c.attr("settings", f"{posixpath.basename(name)} docVar {n}", name, var, W + "val")
            c.attr("settings", f"{posixpath.basename(name)} docVar {n} name", name, var, W + "name")


def _chunks(c: _Collector, bodies: list[str]) -> None:
    """``w:altChunk`` parts: Word shows them as body text, so their text is read whole."""
    for body in bodies:
        root = c.pkg.root(body)
        if root is None:
            continue
        for chunk in root.iter(W + "altChunk"):
            target = c.pkg.target_of(body, chunk.get(_R + "id") or "")
            if target is None or target not in c.pkg.names:
                continue
            _chunk(c, target)


def _chunk(c: _Collector, name: str) -> None:
    ctype = c.pkg.content_type(name).split(";")[0].strip().lower()
    ext = posixpath.splitext(name)[1].lower()
    raw = c.pkg.raw(name)
    if ctype in _HTML or ext in (".htm", ".html", ".xhtml"):
        _html_chunk(c, name, raw)
    elif ctype in _TEXT or ext == ".txt":
        blob = c.pkg.blob(name, _encoding_of(raw))
        c.add("embedded-html", name, name, [Piece(blob, None, len(blob.text))])
    else:
        # RTF, MHTML, a nested document: read as text so a value in it is found, but not
        # rewritten (mask refuses the file rather than guess at the format)
        text = _rtf_text(raw) if ctype in _RTF or ext == ".rtf" else raw.decode("utf-8", "replace")
        blob = Blob(text, "utf-8")
        c.add("embedded-html", f"{name} ({ctype or ext or 'unknown type'})", name,
              [Piece(blob, None, len(text))], writable=False)


def _encoding_of(raw: bytes) -> str:
    if raw.startswith(b"\xef\xbb\xbf"):
        return "utf-8-sig"
    if raw.startswith((b"\xff\xfe", b"\xfe\xff")):
        return "utf-16"
    return "utf-8"


_RTF_CONTROL = re.compile(rb"\\'([0-9a-fA-F]{2})|\\u(-?\d+) ?\??|\\[a-zA-Z]+-?\d* ?|\\(.)|[{}\r\n]")


def _rtf_text(raw: bytes) -> str:
    """Text of an RTF chunk (control words dropped, escapes decoded): enough to find a value."""
    out: list[str] = []
    pos = 0
    for m in _RTF_CONTROL.finditer(raw):
        out.append(raw[pos : m.start()].decode("latin-1"))
        if m.group(1):
            out.append(bytes.fromhex(m.group(1).decode()).decode("cp1252", "replace"))
        elif m.group(2):
            out.append(chr(int(m.group(2)) % 65536))
        elif m.group(3):
            out.append(m.group(3).decode("latin-1"))
        pos = m.end()
    out.append(raw[pos:].decode("latin-1"))
    return "".join(out)


def _html_chunk(c: _Collector, name: str, raw: bytes) -> None:
    """An HTML chunk: its text in document order is one place (a value split by tags is one
    text), each attribute value (a ``mailto:`` link) another. Parsed with lxml's HTML parser;
    written back by :mod:`genlint.mask.docx_places` through the same tree."""
    root = c.pkg.html_root(name)
    if root is None:
        return
    pieces: list[Piece] = []
    for el in root.iter():
        if not isinstance(el.tag, str):
            continue
        if el.tag.lower() not in ("script", "style") and el.text:
            pieces.append(_text_piece(el))
        if el.tail:
            pieces.append(Piece(el, "#tail", len(el.tail)))
        for key in el.attrib:
            c.attr("embedded-html", f"{name} {el.tag}@{key}", name, el, key,
                   url=key.lower() in ("href", "src", "action"))
    c.add("embedded-html", name, name, pieces)
