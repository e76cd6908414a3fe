"""DOCX hidden places: what check reports for each, what mask does there, and where mask
refuses (fail closed) rather than write a file that still holds a value."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
import zipfile
from pathlib import Path
from urllib.parse import quote

import pytest
from hypothesis import given
from hypothesis import strategies as st

pytest.importorskip("docx")

from docx.opc.constants import RELATIONSHIP_TYPE as RT

from genlint.check import Checker
from genlint.errors import GenlintError, InputError
from genlint.mask import Masker, Vault
from genlint.mask.docx import mask_docx, unmask_docx
from genlint.readers.docx import read
from genlint.readers.docx_place import decoded
from support.docx_build import NSDECL, add_xml, new_document, run, to_bytes
from support.docx_leaks import _part, leaked

PHONE = "13912345670"
MAIL = "wang.wu@163.com"


def _entries(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return {n: z.read(n) for n in z.namelist()}


def _findings(data: bytes, select: str = "sensitive") -> list:
    return Checker(select).check_document(read("t.docx", data))


def test_placeholder_pack_sees_only_what_a_person_sees() -> None:
    document = new_document()
    document.core_properties.title = "甲方：某公司"
    document.add_paragraph("乙方：某公司")
    p = document.add_paragraph("旧文：")
    add_xml(p, f'<w:del w:id="1" w:author="A"><w:r><w:delText>{PHONE} 某公司</w:delText></w:r></w:del>')
    data = to_bytes(document)
    placeholders = _findings(data, "placeholder")
    assert placeholders and {f.location["part"] for f in placeholders} == {"body"}
    sensitive = _findings(data)
    assert [(f.text, f.location["part"]) for f in sensitive] == [(PHONE, "deleted")]
    assert sensitive[0].location["field"] == "deleted document.xml paragraph 2"


def test_one_author_on_many_revisions_is_one_finding_and_every_copy_is_masked() -> None:
    document = new_document()
    p = document.add_paragraph("正文")
    for i in range(3):
        add_xml(p, f'<w:ins w:id="{i + 5}" w:author="{MAIL}" w:initials="WW">{run("加")}</w:ins>')
    data = to_bytes(document)
    found = _findings(data)
    assert [(f.text, f.location["part"]) for f in found] == [(MAIL, "author")]
    out = mask_docx("t.docx", data, Masker("keep-ends")).data
    xml = _entries(out)["word/document.xml"].decode()
    assert MAIL not in xml
    assert xml.count('w:author="w***.**@163.com"') == 3


def test_link_targets_are_masked_and_keep_working_and_unmask_restores_them() -> None:
    document = new_document()
    rid = document.part.relate_to("mailto:" + MAIL.replace("@", "%40"), RT.HYPERLINK,
                                  is_external=True)
    p = document.add_paragraph()
    add_xml(p, f'<w:hyperlink xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
               f'relationships" r:id="{rid}">{run("写信")}</w:hyperlink>')
    data = to_bytes(document)
    assert [f.location["part"] for f in _findings(data)] == ["link"]
    rels = _entries(mask_docx("t.docx", data, Masker("keep-ends")).data)[
        "word/_rels/document.xml.rels"].decode()
    assert 'Target="mailto:w***.**@163.com"' in rels
    vault = Vault()
    masked = mask_docx("t.docx", data, Masker("token", vault=vault)).data
    rels = _entries(masked)["word/_rels/document.xml.rels"].decode()
    assert 'Target="mailto:%3CEMAIL_1%3E"' in rels  # a valid URI still
    restored = unmask_docx("t.docx", masked, vault)
    assert restored.restored == 1 and restored.unplaced == []
    rels = _entries(restored.data)["word/_rels/document.xml.rels"].decode()
    assert f'Target="mailto:{MAIL}"' in rels


def _with_chunk(page: bytes, name: str, ctype: str) -> bytes:
    document = new_document()
    document.add_paragraph("正文")
    rid = _part(document, name, ctype, page,
                "http://schemas.openxmlformats.org/officeDocument/2006/relationships/aFChunk")
    body = document.element.body
    from docx.oxml import parse_xml

    body.insert(len(body) - 1, parse_xml(
        f'<w:altChunk {NSDECL} xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/'
        f'relationships" r:id="{rid}"/>'))
    return to_bytes(document)


def test_an_rtf_chunk_with_a_value_is_read_and_mask_refuses_the_file(tmp_path: Path) -> None:
    data = _with_chunk(b"{\\rtf1\\ansi \\b " + PHONE.encode() + b"\\b0 }", "/word/chunk.rtf",
                       "application/rtf")
    found = _findings(data)
    assert [(f.text, f.location["part"]) for f in found] == [(PHONE, "embedded-html")]
    with pytest.raises(InputError, match=re.escape("embedded-html place word/chunk.rtf")):
        mask_docx("t.docx", data, Masker("keep-ends"))
    src = tmp_path / "in.docx"
    src.write_bytes(data)
    proc = subprocess.run([sys.executable, "-m", "genlint", "mask", str(src), "--out",
                           str(tmp_path / "out")], capture_output=True, text=True)
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("genlint: error:") and PHONE not in lines[0]
    assert not (tmp_path / "out" / "in.docx").exists()


def test_an_html_chunk_split_by_tags_is_one_text_and_is_masked() -> None:
    page = f"<html><body><p>电话 <b>{PHONE[:3]}</b>{PHONE[3:]}</p></body></html>".encode()
    data = _with_chunk(page, "/word/afchunk.htm", "text/html")
    assert [f.location["part"] for f in _findings(data)] == ["embedded-html"]
    out = mask_docx("t.docx", data, Masker("stars")).data
    assert leaked(out, [PHONE]) == []
    assert b"<b>***</b>********" in _entries(out)["word/afchunk.htm"]


def test_a_malformed_part_holding_a_value_is_refused() -> None:
    document = new_document()
    document.add_paragraph("正文")
    _part(document, "/customXml/item7.xml", "application/xml",
          f"<a><b>{PHONE}</b><c></a>".encode(),
          "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml")
    data = to_bytes(document)
    assert [f.location["part"] for f in _findings(data)] == ["custom-xml"]
    with pytest.raises(InputError, match="malformed XML"):
        mask_docx("t.docx", data, Masker("keep-ends"))


def _fallback_copy() -> bytes:
    """A text box whose VML fallback holds the number in another grouping than the drawing
    Word shows: no place reads the fallback, the copy sweep must."""
    document = new_document()
    p = document.add_paragraph("见框")
    shown = f"{PHONE[:3]}-{PHONE[3:7]}-{PHONE[7:]}"
    add_xml(p, '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor>'
               "<a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent>"
               f"<w:p>{run('电话 ' + shown)}</w:p></w:txbxContent></wps:txbx></wps:wsp>"
               "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback>"
               f"<w:pict><v:shape><v:textbox><w:txbxContent><w:p>{run('电话 ' + PHONE)}</w:p>"
               "</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
               "</mc:AlternateContent></w:r>")
    return to_bytes(document)


def test_a_copy_in_another_grouping_is_masked_too() -> None:
    masked = mask_docx("t.docx", _fallback_copy(), Masker("keep-ends"))
    assert leaked(masked.data, [PHONE]) == []
    assert any("cop" in w for w in masked.warnings)


def test_mask_refuses_to_keep_output_that_still_holds_a_value(monkeypatch: pytest.MonkeyPatch) -> None:
    import genlint.mask.docx_copies as copies

    monkeypatch.setattr(copies, "sweep", lambda *args, **kwargs: 0)  # a sweep that misses
    with pytest.raises(GenlintError, match=r"fallback copy 1.*nothing written"):
        mask_docx("t.docx", _fallback_copy(), Masker("keep-ends"))
    # a copy where no place reads (a bookmark name): only the search of every string sees it
    document = new_document()
    p = document.add_paragraph(f"电话 {PHONE}")
    add_xml(p, f'<w:bookmarkStart w:id="0" w:name="_{PHONE}"/>')
    with pytest.raises(GenlintError, match=re.escape("still in part word/document.xml")):
        mask_docx("t.docx", to_bytes(document), Masker("keep-ends"))
    monkeypatch.undo()
    assert leaked(mask_docx("t.docx", to_bytes(document), Masker("keep-ends")).data, [PHONE]) == []


def test_unmask_names_tokens_it_cannot_place() -> None:
    # the CLI's exit 1 and warning line for them are tested with the vault (tests/mask)
    vault = Vault({"<PHONE_1>": PHONE})
    data = _with_chunk(b"{\\rtf1 <PHONE_1>}", "/word/chunk.rtf", "application/rtf")
    result = unmask_docx("t.docx", data, vault)
    assert result.unplaced == ["<PHONE_1>"] and result.restored == 0


def test_the_vault_keeps_run_layouts_and_refuses_bad_ones(tmp_path: Path) -> None:
    vault = Vault({"<PHONE_1>": PHONE})
    vault.note_runs("<PHONE_1>", [3, 4, 4])
    vault.note_runs("<PHONE_1>", [3, 4, 4])
    path = tmp_path / "v.json"
    vault.save(path)
    assert Vault.load(path).runs == {"<PHONE_1>": [[3, 4, 4]]}
    raw = json.loads(path.read_text())
    raw["runs"] = {"<PHONE_1>": "3,4,4"}
    path.write_text(json.dumps(raw))
    with pytest.raises(InputError, match="runs"):
        Vault.load(path)


@given(st.text(max_size=30))
def test_decoding_a_url_maps_every_character_back_to_its_escape(text: str) -> None:
    raw = quote(text, safe="/:@")
    text_read, at = decoded(raw)
    assert text_read == text.encode("utf-8", "surrogatepass").decode("utf-8", "replace") or \
        "\ufffd" in text_read
    if at is not None:
        assert len(at) == len(text_read) + 1 and at[-1] == len(raw)
        for i, ch in enumerate(text_read):
            piece = raw[at[i] : at[i + 1]]
            assert piece == ch or piece.upper() == quote(ch, safe="").upper()


def test_a_part_no_parser_can_read_is_still_searched_and_refused() -> None:
    document = new_document()
    document.add_paragraph("正文")
    _part(document, "/customXml/item8.xml", "application/xml",
          b"\xff\xfe<" + PHONE.encode() + b"\x00\x00<<<",
          "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml")
    data = to_bytes(document)
    found = _findings(data)
    assert [(f.text, f.location["part"]) for f in found] == [(PHONE, "custom-xml")]
    assert any("cannot be parsed" in w for w in read("t.docx", data).warnings)
    with pytest.raises(InputError, match=re.escape("customXml/item8.xml")):
        mask_docx("t.docx", data, Masker("keep-ends"))


def test_a_fallback_copy_that_differs_from_the_shown_text_is_a_place() -> None:
    document = new_document()
    p = document.add_paragraph("见框")
    add_xml(p, '<w:r><mc:AlternateContent><mc:Choice Requires="wps"><w:drawing><wp:anchor>'
               "<a:graphic><a:graphicData><wps:wsp><wps:txbx><w:txbxContent>"
               f"<w:p>{run('电话待补')}</w:p></w:txbxContent></wps:txbx></wps:wsp>"
               "</a:graphicData></a:graphic></wp:anchor></w:drawing></mc:Choice><mc:Fallback>"
               f"<w:pict><v:shape><v:textbox><w:txbxContent><w:p>{run('电话 ' + PHONE)}</w:p>"
               "</w:txbxContent></v:textbox></v:shape></w:pict></mc:Fallback>"
               "</mc:AlternateContent></w:r>")
    data = to_bytes(document)
    assert [(f.text, f.location["part"]) for f in _findings(data)] == [(PHONE, "textbox")]
    assert leaked(mask_docx("t.docx", data, Masker("token", vault=Vault())).data, [PHONE]) == []
    # the usual case, an identical copy, is not reported twice
    assert [f.location["part"] for f in _findings(_fallback_copy())] == ["textbox"]


def test_copies_are_matched_by_normalised_value() -> None:
    from genlint.mask.docx_copies import Copies

    copies = Copies({"139-1234-5670": "139-****-5670", "+8613800001111": "+86138****1111",
                     "Wang.Wu@163.com": "W***.**@163.com"})
    for text in ("13912345670", "１３９ １２３４ ５６７０", "tel:139.1234.5670", "x13912345670y",
                 "13800001111", "wang.wu%40163.com", "WANG.WU@163.COM"):
        assert copies.find(text), text
    for text in ("013912345670", "1391234567", "139123456701", "wang.wu@163.co"):
        assert not copies.find(text), text
    assert copies.replace("id=13912345670&x=1")[0] == "id=139-****-5670&x=1"


def test_comment_authors_and_content_control_tags_are_places() -> None:
    from docx.opc.constants import RELATIONSHIP_TYPE as RT2
    from docx.opc.packuri import PackURI
    from docx.opc.part import Part

    document = new_document()
    p = document.add_paragraph("正文")
    add_xml(p, '<w:sdt><w:sdtPr><w:alias w:val="客户"/>'
               f'<w:tag w:val="{PHONE}"/></w:sdtPr><w:sdtContent>{run("甲")}</w:sdtContent></w:sdt>')
    blob = (f'<w:comments {NSDECL}><w:comment w:id="0" w:author="{MAIL}" w:initials="WW">'
            f"<w:p>{run('请核对')}</w:p></w:comment></w:comments>").encode()
    part = Part(PackURI("/word/comments.xml"),
                "application/vnd.openxmlformats-officedocument.wordprocessingml.comments+xml",
                blob, document.part.package)
    document.part.relate_to(part, RT2.COMMENTS)
    data = to_bytes(document)
    assert sorted((f.text, f.location["part"]) for f in _findings(data)) == [
        (PHONE, "custom-xml"), (MAIL, "author")]
    out = mask_docx("t.docx", data, Masker("keep-ends")).data
    assert leaked(out, [PHONE, MAIL]) == []


class _El:
    """A stand-in for an lxml element: only the text is used by a text piece."""

    tag = "x"

    def __init__(self, text: str) -> None:
        self.text = text


@given(st.lists(st.text(alphabet="ab1", min_size=1, max_size=4), min_size=1, max_size=5),
       st.data(), st.text(alphabet="<>XY", max_size=6))
def test_a_place_writes_a_span_back_into_its_strings(strings: list[str], data: st.DataObject,
                                                     new: str) -> None:
    from genlint.readers.docx_place import Piece, Place

    text = "".join(strings)
    a = data.draw(st.integers(0, len(text) - 1))
    b = data.draw(st.integers(a + 1, len(text)))
    pieces = [Piece(_El(s), None, len(s)) for s in strings]
    place = Place("deleted", "t", "e", text, pieces)
    layout = place.write(a, b, new)
    assert place.text == text[:a] + new + text[b:]
    assert sum(layout) == b - a
    if len(new) == b - a:  # each string keeps its length: a run keeps its characters' formatting
        assert [len(p.target.text) for p in pieces] == [len(s) for s in strings]
    else:
        # what restoring with the recorded layout gives back: the original strings exactly
        if len(layout) > 1 and new:
            value = text[a:b]
            parts, pos = [], 0
            for n in layout:
                parts.append(value[pos : pos + n])
                pos += n
            assert place.write_split(a, a + len(new), parts)
            assert [p.target.text for p in pieces] == strings


def test_a_part_nested_past_the_parser_limit_is_read_as_text_not_dropped() -> None:
    document = new_document()
    document.add_paragraph("正文")
    deep = "<a>" * 300 + PHONE + "</a>" * 300
    _part(document, "/customXml/item6.xml", "application/xml", deep.encode(),
          "http://schemas.openxmlformats.org/officeDocument/2006/relationships/customXml")
    data = to_bytes(document)
    assert [(f.text, f.location["part"]) for f in _findings(data)] == [(PHONE, "custom-xml")]
    with pytest.raises(InputError, match=re.escape("customXml/item6.xml")):
        mask_docx("t.docx", data, Masker("keep-ends"))
