"""A leak-audit corpus: real DOCX files with distinct personal data planted in every place a
package keeps text (issue 22, item 7), and an independent extractor that reads them back.

Each file is written by python-docx; what python-docx has no API for (app and custom
properties, tracked deletions and moves, field codes split over runs, glossary, customXml,
people.xml, smart tags, altChunk HTML) is added as parts and XML the way Word writes them.
Every value is generated (valid check digits, never a real person's) and distinct across the
corpus, so a value found in an output names the place that leaked it.

The extractor shares no code with genlint: it unzips every entry, walks every XML and HTML
tree (text, tails, attributes; the text of a part also joined, so a value split over runs is
found), URL-decodes each string, and searches for each planted value in any grouping.
"""

from __future__ import annotations

import io
import random
import re
import struct
import unicodedata
import zipfile
import zlib
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml
from lxml import etree, html

from support.docx_build import NSDECL, add_xml, append_inline, new_document, run, to_bytes

W15 = "http://schemas.microsoft.com/office/word/2012/wordml"
_WEIGHTS = (7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2)
_CHECK = "10X98765432"


@dataclass
class Planted:
    value: str
    place: str  # the finding part check must report for it


@dataclass
class LeakFile:
    name: str
    data: bytes
    planted: list[Planted] = field(default_factory=list)


class Values:
    """Distinct personal values: mobiles, resident IDs, e-mail addresses, bank cards."""

    def __init__(self, seed: int) -> None:
        self.n = seed * 1000

    def _next(self) -> int:
        self.n += 1
        return self.n

    def mobile(self) -> str:
        return f"13{random.Random(self.n).choice('56789')}{self._next():08d}"

    def resident_id(self) -> str:
        n = self._next()
        # year from the seed, sequence number from the count: distinct for 50 seeds
        body = f"110105{1950 + n // 1000 % 50}{1 + n % 12:02d}{1 + n % 28:02d}{n % 1000:03d}"
        return body + _CHECK[sum(int(d) * w for d, w in zip(body, _WEIGHTS, strict=True)) % 11]

    def email(self) -> str:
        return f"zhao{self._next()}q@163.com"

    def card(self) -> str:
        body = f"622202{self._next():09d}"
        digits = [int(d) for d in body]
        total = 0
        for i, d in enumerate(reversed(digits)):
            if i % 2 == 0:
                d *= 2
                d -= 9 if d > 9 else 0
            total += d
        return body + str((10 - total % 10) % 10)

    def any(self, rng: random.Random) -> str:
        return rng.choice((self.mobile, self.resident_id, self.email, self.card))()


def grouped(mobile: str) -> str:
    return f"{mobile[:3]}-{mobile[3:7]}-{mobile[7:]}"


def _png() -> bytes:
    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(
            ">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    raw = b"\x00\xff\xff\xff" * 1
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw)) + chunk(b"IEND", b""))


def _part(document: Any, name: str, ctype: str, blob: bytes, reltype: str) -> str:
    part = Part(PackURI(name), ctype, blob, document.part.package)
    return str(document.part.relate_to(part, reltype))


def _set_app(document: Any, company: str, manager: str) -> None:
    for part in document.part.package.iter_parts():
        if part.partname == "/docProps/app.xml":
            root = etree.fromstring(part.blob)
            ns = root.nsmap[None]
            for tag, value in (("Company", company), ("Manager", manager)):
                el = root.find(f"{{{ns}}}{tag}")
                if el is None:
                    el = etree.SubElement(root, f"{{{ns}}}{tag}")
                el.text = value
            part._blob = etree.tostring(root, xml_declaration=True, encoding="UTF-8",
                                        standalone=True)
            return
    raise AssertionError("python-docx's template has no app.xml")


def _custom_properties(document: Any, values: list[str]) -> None:
    props = "".join(
        f'<property fmtid="{{D5CDD505-2E9C-101B-9397-08002B2CF9AE}}" pid="{i + 2}" name="联系{i}">'
        f"<vt:lpwstr>{v}</vt:lpwstr></property>" for i, v in enumerate(values))
    blob = ('<Properties xmlns="http://schemas.openxmlformats.org/officeDocument/2006/'
            'custom-properties" xmlns:vt="http://schemas.openxmlformats.org/officeDocument/'
            f'2006/docPropsVTypes">{props}</Properties>').encode()
    part = Part(PackURI("/docProps/custom.xml"),
                "application/vnd.openxmlformats-officedocument.custom-properties+xml", blob,
                document.part.package)
    document.part.package.relate_to(
        part, "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
        "custom-properties")


class _Planter:
    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.values = Values(seed)
        self.doc = new_document()
        self.planted: list[Planted] = []

    def plant(self, place: str, value: str | None = None) -> str:
        value = value or self.values.any(self.rng)
        self.planted.append(Planted(value, place))
        return value

    def visible_split(self) -> None:
        v = self.plant("body", self.values.mobile())
        p = self.doc.add_paragraph("联系电话：")
        append_inline(p, f'<w:r><w:rPr><w:b/></w:rPr><w:t>{v[:3]}</w:t></w:r>',
                      f'<w:r><w:rPr><w:i/></w:rPr><w:t>{v[3:7]}</w:t></w:r>',
                      f"<w:r><w:t>{v[7:]}。</w:t></w:r>")

    def copy_in_deletion(self) -> None:
        # shown grouped, deleted bare: one value, two spellings
        v = self.plant("body", self.values.mobile())
        p = self.doc.add_paragraph(f"备用 {grouped(v)}")
        add_xml(p, '<w:del w:id="11" w:author="Ann" w:date="2026-01-01T00:00:00Z"><w:r>'
                   f'<w:delText xml:space="preserve">{v}</w:delText></w:r></w:del>')

    def properties(self) -> None:
        cp = self.doc.core_properties
        cp.author = self.plant("properties")
        cp.title = f"合同 {self.plant('properties')}"
        cp.subject = self.plant("properties")
        cp.keywords = self.plant("properties")
        cp.last_modified_by = self.plant("properties")
        cp.comments = f"联系 {self.plant('properties')}"
        cp.category = self.plant("properties")
        _set_app(self.doc, self.plant("properties"), self.plant("properties"))
        _custom_properties(self.doc, [self.plant("properties"), self.plant("properties")])

    def deletions(self) -> None:
        v = self.plant("deleted")
        p = self.doc.add_paragraph("修订：")
        add_xml(p, '<w:del w:id="21" w:author="Bo" w:date="2026-01-01T00:00:00Z">'
                   f'<w:r><w:delText>{v[:5]}</w:delText></w:r>'
                   f'<w:r><w:rPr><w:b/></w:rPr><w:delText>{v[5:]}</w:delText></w:r></w:del>')
        m = self.plant("deleted")
        q = self.doc.add_paragraph("移动：")
        add_xml(q, f'<w:moveFrom w:id="22" w:author="Bo" w:date="2026-01-01T00:00:00Z">'
                   f"{run(m)}</w:moveFrom>")

    def field_codes(self) -> None:
        e = self.plant("field-code", self.values.email())
        local, domain = e.split("@")
        p = self.doc.add_paragraph()
        append_inline(
            p, '<w:r><w:fldChar w:fldCharType="begin"/></w:r>',
            f'<w:r><w:instrText xml:space="preserve"> HYPERLINK "mailto:{local}</w:instrText></w:r>',
            f'<w:r><w:instrText xml:space="preserve">@{domain}" </w:instrText></w:r>',
            '<w:r><w:fldChar w:fldCharType="separate"/></w:r>', run("写信"),
            '<w:r><w:fldChar w:fldCharType="end"/></w:r>')
        t = self.plant("field-code", self.values.mobile())
        q = self.doc.add_paragraph()
        add_xml(q, f'<w:fldSimple w:instr=" HYPERLINK &quot;tel:+86{t}&quot; ">{run("致电")}'
                   "</w:fldSimple>")

    def links(self) -> None:
        e = self.plant("link", self.values.email())
        mobile, ident = self.plant("link", self.values.mobile()), self.plant(
            "link", self.values.resident_id())
        for url in (f"mailto:{e.replace('@', '%40')}",
                    f"https://forms.example.org/a?phone={mobile}&id={ident}"):
            rid = self.doc.part.relate_to(url, RT.HYPERLINK, is_external=True)
            p = self.doc.add_paragraph()
            add_xml(p, f'<w:hyperlink xmlns:r="http://schemas.openxmlformats.org/'
                       f'officeDocument/2006/relationships" r:id="{rid}">{run("链接")}</w:hyperlink>')

    def alt_text(self) -> None:
        self.doc.add_picture(io.BytesIO(_png()))
        inline = self.doc.inline_shapes[-1]._inline
        inline.docPr.set("descr", f"身份证照片 {self.plant('alt-text')}")
        inline.docPr.set("title", self.plant("alt-text"))

    def settings(self) -> None:
        v = self.plant("settings")
        settings = self.doc.settings.element
        settings.append(parse_xml(f'<w:docVars {NSDECL}><w:docVar w:name="client" '
                                  f'w:val="{v}"/></w:docVars>'))

    def glossary(self) -> None:
        v = self.plant("glossary")
        blob = (f'<w:glossaryDocument {NSDECL}><w:docParts><w:docPart><w:docPartBody><w:p>'
                f"{run('默认 ' + v)}</w:p></w:docPartBody></w:docPart></w:docParts>"
                "</w:glossaryDocument>").encode()
        _part(self.doc, "/word/glossary/document.xml",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document."
              "glossary+xml", blob,
              "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
              "glossaryDocument")

    def custom_xml(self) -> None:
        v, w, t = self.plant("custom-xml"), self.plant("custom-xml"), self.plant("custom-xml")
        blob = (f'<client xmlns="urn:x-crm"><phone>{v}</phone><ref code="{w}"/>'
                f"<note>备用<br/>{t}</note></client>").encode()
        part = Part(PackURI("/customXml/item9.xml"), "application/xml", blob,
                    self.doc.part.package)
        self.doc.part.relate_to(part, "http://schemas.openxmlformats.org/officeDocument/2006/"
                                      "relationships/customXml")
        s = self.plant("custom-xml")
        p = self.doc.add_paragraph("标记：")
        add_xml(p, '<w:smartTag w:uri="urn:x" w:element="person"><w:smartTagPr>'
                   f'<w:attr w:name="phone" w:val="{s}"/></w:smartTagPr>{run("客户")}</w:smartTag>')

    def authors(self) -> None:
        a = self.plant("author", self.values.email())
        p = self.doc.add_paragraph("插入：")
        add_xml(p, f'<w:ins w:id="31" w:author="{a}" w:date="2026-01-01T00:00:00Z">'
                   f"{run('补充')}</w:ins>")
        b = self.plant("author", self.values.email())
        blob = (f'<w15:people xmlns:w15="{W15}"><w15:person w15:author="{b}">'
                f'<w15:presenceInfo w15:providerId="None" w15:userId="{b}"/></w15:person>'
                "</w15:people>").encode()
        _part(self.doc, "/word/people.xml",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.people+xml", blob,
              "http://schemas.microsoft.com/office/2011/relationships/people")

    def alt_chunk(self) -> None:
        v, e = self.plant("embedded-html", self.values.mobile()), self.plant(
            "embedded-html", self.values.email())
        page = (f"<html><body><p>客户电话 <b>{v[:3]}</b>{v[3:]}，"
                f'<a href="mailto:{e}">邮件</a></p></body></html>').encode()
        rid = _part(self.doc, "/word/afchunk1.htm", "text/html", page,
                    "http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk")
        body = self.doc.element.body
        body.insert(len(body) - 1, parse_xml(
            f'<w:altChunk {NSDECL} xmlns:r="http://schemas.openxmlformats.org/officeDocument/'
            f'2006/relationships" r:id="{rid}"/>'))

    def full_width_copy(self) -> None:
        v = self.plant("body", self.values.mobile())
        wide = "".join(chr(0xFF10 + int(d)) for d in v)
        self.doc.add_paragraph(f"手机 {v}")
        p = self.doc.add_paragraph("旧：")
        add_xml(p, '<w:del w:id="41" w:author="Bo" w:date="2026-01-01T00:00:00Z"><w:r>'
                   f"<w:delText>{wide}</w:delText></w:r></w:del>")


_PLACES = ("visible_split", "copy_in_deletion", "properties", "deletions", "field_codes",
           "links", "alt_text", "settings", "glossary", "custom_xml", "authors", "alt_chunk",
           "full_width_copy")


def corpus(files: int = 26) -> list[LeakFile]:
    """``files`` DOCX files; the first holds every place, each other a seeded random subset
    (at least half of the places, always with visible text)."""
    out: list[LeakFile] = []
    for i in range(files):
        planter = _Planter(seed=i + 1)
        chosen = list(_PLACES) if i == 0 else ["visible_split", *planter.rng.sample(
            _PLACES[1:], k=planter.rng.randint(len(_PLACES) // 2, len(_PLACES) - 1))]
        for name in _PLACES:
            if name in chosen:
                getattr(planter, name)()
        out.append(LeakFile(f"leak{i + 1:02d}.docx", to_bytes(planter.doc), planter.planted))
    return out


# -- the independent extractor ---------------------------------------------------------------

_SEP = re.compile(r"[\s\-.\u3000()（）]")


def normal(text: str) -> str:
    return _SEP.sub("", unicodedata.normalize("NFKC", unquote(text))).lower()


def extract(data: bytes) -> list[str]:
    """Every string an auditor can get out of the package: each text node, tail and attribute
    of every XML and HTML entry, the joined text of each entry, and any other entry as text."""
    found: list[str] = []
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        for name in archive.namelist():
            raw = archive.read(name)
            if name.endswith((".png", ".jpeg", ".jpg", ".emf", ".wmf", ".gif")):
                continue  # pixels are another audit's
            root = None
            if name.endswith((".htm", ".html")):
                root = html.document_fromstring(raw)
            else:
                try:
                    root = etree.fromstring(raw, etree.XMLParser(recover=True))
                except etree.XMLSyntaxError:
                    root = None
            if root is None:
                found.append(raw.decode("utf-8", "replace"))
                continue
            joined: list[str] = []
            for el in root.iter():
                if el.text:
                    found.append(el.text)
                    joined.append(el.text)
                if el.tail:
                    found.append(el.tail)
                    joined.append(el.tail)
                found.extend(str(v) for v in el.attrib.values())
            found.append("".join(joined))
    return found


def leaked(data: bytes, values: list[str]) -> list[str]:
    """The planted values the extractor recovers from ``data``, in any grouping or spelling."""
    # one text of every normalised string, NUL-separated: a value is found within a string only
    everything = "\0".join(normal(s) for s in extract(data))
    return [v for v in values if normal(v) in everything]
