"""The ZIP entries of a DOCX package, parsed once and written back once.

The reader and the masker both go through :class:`Package`: the text parts the visible walk
parsed are shared (so a deletion and a visible run of one paragraph are edited in one tree), every
other XML entry is parsed on first use with the same safe parser, and :meth:`Package.rezip` writes
the changed entries back in place (same order, same compression), leaving the rest byte for byte.
"""

from __future__ import annotations

import contextlib
import io
import posixpath
import re
import zipfile
from collections.abc import Iterator
from typing import Any

__all__ = ["Blob", "Package", "parse_xml"]

_CHARSET = re.compile(rb"""charset\s*=\s*["']?([A-Za-z0-9_\-:.]+)""", re.I)
CT = "{http://schemas.openxmlformats.org/package/2006/content-types}"
PR = "{http://schemas.openxmlformats.org/package/2006/relationships}"


class Blob:
    """A part that is not XML (an HTML, RTF or text chunk): its decoded text, editable."""

    def __init__(self, text: str, encoding: str) -> None:
        self.text = text
        self.encoding = encoding

    def encode(self) -> bytes:
        return self.text.encode(self.encoding)


def parse_xml(blob: bytes, *, recover: bool = False) -> Any:
    """An lxml tree of ``blob``: no entities, no network, so a part cannot make the reader fetch
    or expand anything."""
    from lxml import etree

    options = {"resolve_entities": False, "no_network": True, "remove_comments": False}
    return etree.fromstring(blob, etree.XMLParser(recover=recover, huge_tree=False, **options))


class Package:
    """A DOCX's entries: raw bytes, parsed trees, content types and relationships."""

    def __init__(self, data: bytes, roots: dict[str, Any] | None = None,
                 blobs: dict[str, bytes] | None = None) -> None:
        self.data = data
        # entries are decompressed when first read (a package's images are never needed)
        self._zip = zipfile.ZipFile(io.BytesIO(data))
        self.names = [info.filename for info in self._zip.infolist() if not info.is_dir()]
        self._raw: dict[str, bytes] = {n: b for n, b in (blobs or {}).items()}
        self._roots: dict[str, Any] = dict(roots or {})
        self._blobs: dict[str, Blob] = {}
        self._html: dict[str, str] = {}  # HTML entries -> their encoding
        self.malformed: set[str] = set()  # parts read with the recovering parser
        self.unreadable: list[str] = []  # parts not even the recovering parser could read
        self.changed: set[str] = set()
        self.warnings: list[str] = []
        self.types = self._content_types()

    def raw(self, name: str) -> bytes:
        blob = self._raw.get(name)
        if blob is None:
            blob = self._raw[name] = self._zip.read(name)
        return blob

    def root(self, name: str) -> Any:
        """The parsed tree of an XML entry (None when it cannot be parsed at all)."""
        if name in self._roots:
            return self._roots[name]
        from lxml import etree

        root = None
        try:
            root = parse_xml(self.raw(name))
        except etree.XMLSyntaxError as exc:
            # nested past the parser's depth limit, the recovering parser silently drops
            # everything inside: such a part is read as text instead
            if "depth" not in str(exc).lower():
                with contextlib.suppress(etree.XMLSyntaxError):
                    root = parse_xml(self.raw(name), recover=True)
            self.malformed.add(name)
            if root is None:
                self.unreadable.append(name)
                self.warnings.append(f"{name}: cannot be parsed ({exc}); its bytes are read as "
                                     "text for personal data, and mask refuses it if any is there")
            else:
                self.warnings.append(f"{name}: malformed XML ({exc}); read with a recovering "
                                     "parser")
        self._roots[name] = root
        return root

    def html_root(self, name: str) -> Any:
        """The parsed tree of an HTML entry (lxml's HTML parser, which repairs as browsers do;
        the encoding is the one the page declares)."""
        if name not in self._roots:
            from lxml import etree, html

            raw = self.raw(name)
            # a page that declares no charset is UTF-8 here (lxml would guess Latin-1)
            declared = _CHARSET.search(raw[:4096])
            encoding = declared.group(1).decode("ascii", "replace") if declared else "utf-8"
            if raw.startswith(b"\xef\xbb\xbf"):
                encoding = "utf-8"
            try:
                parser = html.HTMLParser(encoding=encoding)
                tree = html.document_fromstring(raw, parser=parser).getroottree()
            except (etree.ParserError, ValueError, LookupError):
                self._roots[name] = None
                return None
            self._html[name] = encoding
            self._roots[name] = tree.getroot()
        return self._roots[name]

    def blob(self, name: str, encoding: str) -> Blob:
        if name not in self._blobs:
            raw = self.raw(name)
            try:
                text = raw.decode(encoding)
            except (UnicodeDecodeError, LookupError):
                text, encoding = raw.decode("latin-1"), "latin-1"  # every byte kept, 1:1
            self._blobs[name] = Blob(text, encoding)
        return self._blobs[name]

    def content_type(self, name: str) -> str:
        return self.types.get(name, "")

    def _content_types(self) -> dict[str, str]:
        out: dict[str, str] = {}
        if "[Content_Types].xml" not in self.names:
            return out
        raw = self.raw("[Content_Types].xml")
        try:
            root = parse_xml(raw)
        except Exception:  # the visible reader already judged the package readable
            return out
        defaults = {el.get("Extension", "").lower(): el.get("ContentType", "")
                    for el in root.iter(CT + "Default")}
        for name in self.names:
            out[name] = defaults.get(posixpath.splitext(name)[1].lstrip(".").lower(), "")
        for el in root.iter(CT + "Override"):
            out[(el.get("PartName") or "").lstrip("/")] = el.get("ContentType", "")
        return out

    def rels_entries(self) -> list[str]:
        return sorted(n for n in self.names if n.endswith(".rels"))

    def relationships(self, rels: str) -> Iterator[tuple[Any, str]]:
        """(Relationship element, resolved part name or the external target) of a .rels."""
        root = self.root(rels)
        if root is None:
            return
        folder = posixpath.dirname(posixpath.dirname(rels))  # word/_rels/x.rels -> word
        for rel in root.iter(PR + "Relationship"):
            target = rel.get("Target") or ""
            if rel.get("TargetMode") == "External":
                yield rel, target
            elif target.startswith("/"):
                yield rel, target.lstrip("/")
            else:
                yield rel, posixpath.normpath(posixpath.join(folder, target))

    def target_of(self, source: str, rid: str) -> str | None:
        """The part a relationship id of ``source`` points to (internal targets only)."""
        rels = posixpath.join(posixpath.dirname(source), "_rels", posixpath.basename(source) + ".rels")
        if rels not in self.names:
            return None
        for rel, target in self.relationships(rels):
            if rel.get("Id") == rid and rel.get("TargetMode") != "External":
                return target
        return None

    def mark(self, name: str) -> None:
        self.changed.add(name)

    def rezip(self) -> bytes:
        """The package with every changed entry serialised again, the rest as it was."""
        from lxml import etree

        if not self.changed:
            return self.data
        new: dict[str, bytes] = {}
        for name in self.changed:
            if name in self._blobs:
                new[name] = self._blobs[name].encode()
            elif name in self._html:
                new[name] = etree.tostring(self._roots[name].getroottree(), method="html",
                                           encoding=self._html[name])
            else:
                new[name] = etree.tostring(self._roots[name], xml_declaration=True,
                                           encoding="UTF-8", standalone=True)
        out = io.BytesIO()
        with zipfile.ZipFile(io.BytesIO(self.data)) as zin, zipfile.ZipFile(out, "w") as zout:
            for info in zin.infolist():
                blob = new.get(info.filename)
                zout.writestr(info, blob if blob is not None else zin.read(info))
        return out.getvalue()
