"""Real DOCX files for the reader tests, written by python-docx; what python-docx cannot write
(tracked changes, text boxes, content controls, footnotes) is added as WordprocessingML the way
Word writes it."""

from __future__ import annotations

import io
from typing import Any

import docx
from docx.opc.constants import RELATIONSHIP_TYPE as RT
from docx.opc.packuri import PackURI
from docx.opc.part import Part
from docx.oxml import parse_xml

W_NS = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
NSDECL = (
    f'xmlns:w="{W_NS}" '
    'xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006" '
    'xmlns:wps="http://schemas.microsoft.com/office/word/2010/wordprocessingShape" '
    'xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing" '
    'xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" '
    'xmlns:v="urn:schemas-microsoft-com:vml"'
)


def new_document() -> Any:
    return docx.Document()


def to_bytes(document: Any) -> bytes:
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def add_xml(paragraph: Any, fragment: str) -> None:
    """Append inline WordprocessingML (runs, w:ins, w:del, w:sdt…) to a paragraph."""
    paragraph._p.append(parse_xml(f"<w:wrap {NSDECL}>{fragment}</w:wrap>")[0])


def append_inline(paragraph: Any, *fragments: str) -> None:
    for fragment in fragments:
        add_xml(paragraph, fragment)


def run(text: str, underline: bool = False) -> str:
    props = '<w:rPr><w:u w:val="single"/></w:rPr>' if underline else ""
    return f'<w:r>{props}<w:t xml:space="preserve">{text}</w:t></w:r>'


def inserted(text: str) -> str:
    return f'<w:ins w:id="1" w:author="A" w:date="2026-01-01T00:00:00Z">{run(text)}</w:ins>'


def deleted(text: str) -> str:
    return (
        '<w:del w:id="2" w:author="A" w:date="2026-01-01T00:00:00Z"><w:r>'
        f'<w:delText xml:space="preserve">{text}</w:delText></w:r></w:del>'
    )


def content_control(text: str) -> str:
    return (
        '<w:sdt><w:sdtPr><w:alias w:val="Name"/></w:sdtPr>'
        f"<w:sdtContent>{run(text)}</w:sdtContent></w:sdt>"
    )


def text_box(*paragraphs: str) -> str:
    """A DrawingML text box with its VML fallback copy, as Word 2010+ writes it."""
    body = "".join(f"<w:p>{run(p)}</w:p>" for p in paragraphs)
    return (
        "<w:r><mc:AlternateContent><mc:Choice Requires=\"wps\"><w:drawing><wp:anchor>"
        "<a:graphic><a:graphicData><wps:wsp><wps:txbx>"
        f"<w:txbxContent>{body}</w:txbxContent>"
        "</wps:txbx></wps:wsp></a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice>"
        "<mc:Fallback><w:pict><v:shape><v:textbox>"
        f"<w:txbxContent>{body}</w:txbxContent>"
        "</v:textbox></v:shape></w:pict></mc:Fallback></mc:AlternateContent></w:r>"
    )


def add_footnotes(document: Any, *notes: str) -> None:
    """A footnotes part with Word's two separator notes and one note per text."""
    items = [
        '<w:footnote w:type="separator" w:id="-1"><w:p><w:r><w:separator/></w:r></w:p></w:footnote>',
        '<w:footnote w:type="continuationSeparator" w:id="0"><w:p><w:r>'
        "<w:continuationSeparator/></w:r></w:p></w:footnote>",
    ]
    items += [
        f'<w:footnote w:id="{i}"><w:p>{run(text)}</w:p></w:footnote>'
        for i, text in enumerate(notes, start=1)
    ]
    blob = f'<w:footnotes {NSDECL}>{"".join(items)}</w:footnotes>'.encode()
    part = Part(
        PackURI("/word/footnotes.xml"),
        "application/vnd.openxmlformats-officedocument.wordprocessingml.footnotes+xml",
        blob,
        document.part.package,
    )
    document.part.relate_to(part, RT.FOOTNOTES)
