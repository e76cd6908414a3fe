"""PDF hidden places, one by one: what check reads there, what mask does there, and where mask
refuses a file rather than write a value (fail closed)."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pypdfium2")
pytest.importorskip("reportlab")

from genlint import check_paths
from genlint.errors import GenlintError, InputError
from genlint.mask import Masker
from genlint.mask.pdf import mask_pdf
from genlint.readers.pdf import joined_lines, read_pdf
from support.pdf_build import AUDIT_PLACES, build_audit_pdf


def _check(tmp_path: Path, data: bytes, select: str = "sensitive") -> list[object]:
    path = tmp_path / "x.pdf"
    path.write_bytes(data)
    entry = check_paths([str(path)], select=select).files[0]
    assert entry.error is None, entry.error
    return list(entry.findings)


def test_text_drawn_one_character_per_object_is_found_and_masked(tmp_path: Path) -> None:
    """The issue's worst case: pypdf reads such text one character per line, so check found
    nothing and mask wrote the original bytes with "0 masked"."""
    data, planted = build_audit_pdf(1, ("per-char",))
    [(_, value)] = planted
    findings = _check(tmp_path, data)
    assert [f.text for f in findings] == [value]  # type: ignore[attr-defined]
    result = mask_pdf("x.pdf", data, Masker())
    assert len(result.replacements) == 1 and result.data != data
    assert _check(tmp_path, result.data) == []


def test_a_value_only_pdfium_reads_is_redacted_and_counted(monkeypatch: pytest.MonkeyPatch) -> None:
    """A value in PDFium's text that pypdf's text misses is still a replacement (it was found
    through PDFium and then dropped, leaving the file unchanged)."""
    import genlint.mask.pdf as mod

    data, planted = build_audit_pdf(2, ("page-text",))
    [(_, value)] = planted
    real = mod._pypdf_pages

    def pypdf_misses(path: str, d: bytes) -> tuple[list[str], list[int]]:
        pages, scanned = real(path, d)
        return [t.replace(value, "") for t in pages], scanned

    monkeypatch.setattr(mod, "_pypdf_pages", pypdf_misses)
    result = mask_pdf("x.pdf", data, Masker())
    assert [r.location for r in result.replacements] == [
        {"extractor": "pdfium", "field": "page 1 text (PDFium)"}]
    assert result.data != data


def test_extractors_that_disagree_refuse_the_file_naming_the_page(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import genlint.mask.pdf as mod

    data, planted = build_audit_pdf(3, ("page-text",))
    [(_, _value)] = planted
    monkeypatch.setattr(mod, "_page_text", lambda textpage: "nothing like it")
    with pytest.raises(InputError, match=r"x\.pdf: page 1: .*extractors disagree"):
        mask_pdf("x.pdf", data, Masker())


@pytest.mark.parametrize("place,part", [
    ("info", "metadata"), ("xmp", "metadata"), ("annotation", "annotation"),
    ("link", "annotation"), ("form-field", "form-field"), ("bookmark", "bookmark"),
    ("attachment-txt", "attachment"), ("attachment-json", "attachment"),
])
def test_each_hidden_place_is_read_with_its_part_and_masked(
    tmp_path: Path, place: str, part: str
) -> None:
    data, planted = build_audit_pdf(4, (place,), first_value=400)
    [(_, value)] = planted
    findings = _check(tmp_path, data)
    assert [(f.text, f.location["part"]) for f in findings][:1] == [  # type: ignore[attr-defined]
        (value, part)]
    # no value in the location a report prints
    assert all(value not in str(f.location) for f in findings)  # type: ignore[attr-defined]
    result = mask_pdf("x.pdf", data, Masker("token"))
    assert {r.location["part"] for r in result.replacements} == {part}  # type: ignore[index]
    assert value.encode() not in result.data
    assert _check(tmp_path, result.data) == []


def test_xmp_is_removed_and_links_keep_working(tmp_path: Path) -> None:
    from pypdf import PdfReader

    data, _planted = build_audit_pdf(5, ("xmp", "link"), first_value=500)
    result = mask_pdf("x.pdf", data, Masker())
    reader = PdfReader(io.BytesIO(result.data))
    assert "/Metadata" not in reader.root_object
    [annot] = [a.get_object() for a in reader.pages[1]["/Annots"]]
    uri = str(annot["/A"]["/URI"])
    assert uri.startswith("mailto:") and "*" in uri  # masked, still a mail link


def test_a_form_value_is_masked_and_drawn_again_masked(tmp_path: Path) -> None:
    """The old appearance (which drew the value on the page) is gone; the new one draws the
    masked value."""
    from pypdf import PdfReader

    data, planted = build_audit_pdf(6, ("form-field",), first_value=602)
    [(_, value)] = planted
    result = mask_pdf("x.pdf", data, Masker())
    reader = PdfReader(io.BytesIO(result.data))
    field = reader.root_object["/AcroForm"]["/Fields"][0].get_object()
    masked = str(field["/V"])
    assert value not in masked and "*" in masked
    drawn = field["/AP"]["/N"].get_object().get_data()
    assert masked.encode() in drawn and value.encode() not in drawn
    assert bool(reader.root_object["/AcroForm"]["/NeedAppearances"])


def test_the_placeholder_pack_reads_only_what_a_person_sees(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    data, _ = build_audit_pdf(7, ())
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.add_metadata({"/Subject": "甲方：某公司 ______"})
    buffer = io.BytesIO()
    writer.write(buffer)
    assert _check(tmp_path, buffer.getvalue(), select="placeholder") == []
    doc = read_pdf("x.pdf", buffer.getvalue())
    assert [s.packs for s in doc.segments if "某公司" in s.text] == [frozenset({"sensitive"})]


def _with_attachment(name: str, payload: bytes) -> bytes:
    from pypdf import PdfReader, PdfWriter

    data, _ = build_audit_pdf(8, ())
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.add_attachment(name, payload)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


def test_an_attachment_mask_cannot_rewrite_refuses_the_file() -> None:
    data = _with_attachment("photo.png", b"\x89PNG\r\n\x1a\n" + b"0" * 64)
    with pytest.raises(InputError, match=r"x\.pdf: attachment 1 cannot be masked"):
        mask_pdf("x.pdf", data, Masker())


def test_attachments_nested_too_deep_are_bad_input() -> None:
    data, _ = build_audit_pdf(9, ("page-text",), first_value=900)
    for _ in range(4):
        data = _with_attachment("inner.pdf", data)
    with pytest.raises(InputError, match="deeper than 3 levels"):
        read_pdf("x.pdf", data)
    with pytest.raises(InputError, match="deeper than 3 levels"):
        mask_pdf("x.pdf", data, Masker())


def test_a_huge_attachment_is_bad_input(monkeypatch: pytest.MonkeyPatch) -> None:
    import genlint.readers.pdf_files as files

    monkeypatch.setattr(files, "MAX_ATTACHMENT_BYTES", 1000)
    data = _with_attachment("big.txt", b"a" * 5000)
    with pytest.raises(InputError, match="attachment 1 is larger than"):
        read_pdf("x.pdf", data)


def test_a_compression_bomb_attachment_is_bad_input() -> None:
    """An attachment that inflates far past the bound (its declared size lies) is refused
    by check and mask alike, in bounded memory."""
    import zlib

    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DictionaryObject, NameObject, NumberObject

    data = _with_attachment("bomb.txt", b"x")
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    names = writer.root_object["/Names"]["/EmbeddedFiles"]["/Names"]
    stream = names[1].get_object()["/EF"]["/F"].get_object()
    stream._data = zlib.compress(b"\0" * 100_000_000, 9)
    stream[NameObject("/Filter")] = NameObject("/FlateDecode")
    stream[NameObject("/Params")] = DictionaryObject({NameObject("/Size"): NumberObject(1)})
    if hasattr(stream, "decoded_self"):
        stream.decoded_self = None
    buffer = io.BytesIO()
    writer.write(buffer)
    with pytest.raises(InputError, match=r"attachment 1 (is larger than|cannot be decompressed)"):
        read_pdf("x.pdf", buffer.getvalue())
    with pytest.raises(InputError, match="attachment 1"):
        mask_pdf("x.pdf", buffer.getvalue(), Masker())


def _with_script(js: object) -> bytes:
    """A document-level JavaScript name tree (no named place holds it)."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    data, _ = build_audit_pdf(10, ("page-text",), first_value=1000)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    value = TextStringObject(str(js))
    script = DictionaryObject({
        NameObject("/S"): NameObject("/JavaScript"),
        NameObject("/JS"): value if not isinstance(js, bytes) else writer._add_object(
            TextStringObject(js.decode())),
    })
    tree = DictionaryObject({NameObject("/Names"): ArrayObject(
        [TextStringObject("hello"), writer._add_object(script)])})
    names = writer.root_object.get("/Names")
    if names is None:
        writer.root_object[NameObject("/Names")] = names = DictionaryObject()
    names.get_object()[NameObject("/JavaScript")] = writer._add_object(tree)
    buffer = io.BytesIO()
    writer.write(buffer)
    return buffer.getvalue()


@pytest.mark.parametrize("indirect", [False, True])
def test_a_string_no_named_place_holds_is_read_and_masked(tmp_path: Path, indirect: bool) -> None:
    """The net under the named places: any other string object (here a document-level
    script, direct or an object of its own) is read as ``part: object`` and masked."""
    js = "app.alert('13912345678');"
    data = _with_script(js.encode() if indirect else js)
    findings = [f for f in _check(tmp_path, data)
                if (f.location or {}).get("part") == "object"]  # type: ignore[attr-defined]
    assert [f.text for f in findings] == ["13912345678"]  # type: ignore[attr-defined]
    result = mask_pdf("x.pdf", data, Masker())
    hidden = [r for r in result.replacements if (r.location or {}).get("part") == "object"]
    assert [r.replacement for r in hidden] == ["139****5678"]
    assert _check(tmp_path, result.data) == []


def test_a_script_kept_as_a_stream_is_read_and_removed(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    data, _ = build_audit_pdf(18, ())
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    script = DecodedStreamObject()
    script.set_data(b"app.alert('13912341800');")
    writer.root_object[NameObject("/OpenAction")] = writer._add_object(DictionaryObject({
        NameObject("/S"): NameObject("/JavaScript"),
        NameObject("/JS"): writer._add_object(script),
    }))
    buffer = io.BytesIO()
    writer.write(buffer)
    findings = _check(tmp_path, buffer.getvalue())
    assert [(f.location["part"], f.location["field"]) for f in findings] == [  # type: ignore[attr-defined]
        ("link", "open action script")]
    result = mask_pdf("x.pdf", buffer.getvalue(), Masker())
    assert [r.replacement for r in result.replacements] == ["(removed)"]
    assert "/JS" not in PdfReader(io.BytesIO(result.data)).root_object["/OpenAction"]
    assert _check(tmp_path, result.data) == []


def test_the_last_net_refuses_an_output_that_still_holds_a_value(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """If a place were skipped by the masker, the string walk of the output refuses it."""
    import genlint.mask.pdf_places as masking

    data = _with_script("app.alert('13912345678');")
    real = masking._mask_slot
    monkeypatch.setattr(masking, "_mask_slot", lambda path, writer, slot, masker, depth: (
        [] if slot.part == "object" else real(path, writer, slot, masker, depth)))
    with pytest.raises(GenlintError, match=r"still readable after masking \(object \d+ /JS\)"):
        mask_pdf("x.pdf", data, Masker())


def test_the_structure_tree_is_read_as_alt_text_and_masked(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    data, _ = build_audit_pdf(13, ())
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    element = DictionaryObject({
        NameObject("/S"): NameObject("/Figure"),
        NameObject("/Alt"): TextStringObject("签名 电话 13912345678"),
    })
    writer.root_object[NameObject("/StructTreeRoot")] = writer._add_object(DictionaryObject({
        NameObject("/Type"): NameObject("/StructTreeRoot"),
        NameObject("/K"): ArrayObject([writer._add_object(element)]),
    }))
    buffer = io.BytesIO()
    writer.write(buffer)
    findings = _check(tmp_path, buffer.getvalue())
    assert [(f.location["part"], f.location["field"]) for f in findings] == [  # type: ignore[attr-defined]
        ("alt-text", "structure element 2 /Alt")]
    result = mask_pdf("x.pdf", buffer.getvalue(), Masker())
    assert [r.replacement for r in result.replacements] == ["139****5678"]
    assert _check(tmp_path, result.data) == []


def test_a_widget_no_field_lists_is_read_and_masked(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    data, _ = build_audit_pdf(14, ())
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    widget = DictionaryObject({
        NameObject("/Type"): NameObject("/Annot"),
        NameObject("/Subtype"): NameObject("/Widget"),
        NameObject("/FT"): NameObject("/Tx"),
        NameObject("/T"): TextStringObject("orphan"),
        NameObject("/V"): TextStringObject("13912345678"),
        NameObject("/Rect"): ArrayObject([]),
    })
    writer.pages[0][NameObject("/Annots")] = ArrayObject([writer._add_object(widget)])
    buffer = io.BytesIO()
    writer.write(buffer)
    findings = _check(tmp_path, buffer.getvalue())
    assert [(f.location["part"], f.location["field"]) for f in findings] == [  # type: ignore[attr-defined]
        ("form-field", "page 1 annotation 1 /V")]
    result = mask_pdf("x.pdf", buffer.getvalue(), Masker("stars"))
    assert [r.replacement for r in result.replacements] == ["*" * 11]


def test_a_clean_pdf_with_hidden_places_is_written_unchanged() -> None:
    data, _ = build_audit_pdf(11, ())
    result = mask_pdf("x.pdf", data, Masker())
    assert result.replacements == [] and result.data == data


@given(st.lists(st.text(alphabet="ab1 @.", max_size=4), max_size=12))
def test_joined_lines_only_removes_line_breaks(lines: list[str]) -> None:
    text = "\n".join(lines)
    joined = joined_lines(text)
    assert joined.replace("\n", "") == text.replace("\n", "")
    # no run of three single-character lines is left
    out = joined.split("\n")
    runs = [len(line) <= 1 for line in out]
    assert not any(all(runs[i:i + 3]) and i + 3 <= len(runs) for i in range(len(runs)))


def test_xmp_of_another_object_is_read_and_emptied(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

    data, _ = build_audit_pdf(12, ())
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    packet = DecodedStreamObject()
    packet[NameObject("/Type")] = NameObject("/Metadata")
    packet[NameObject("/Subtype")] = NameObject("/XML")
    packet.set_data(b"<x:xmpmeta xmlns:x='adobe:ns:meta/'><a>13912340000</a></x:xmpmeta>")
    holder = DictionaryObject({NameObject("/Metadata"): writer._add_object(packet)})
    writer.pages[0][NameObject("/PieceInfo")] = writer._add_object(holder)
    buffer = io.BytesIO()
    writer.write(buffer)
    findings = _check(tmp_path, buffer.getvalue())
    assert [(f.text, f.location["field"]) for f in findings] == [  # type: ignore[attr-defined]
        ("13912340000", "object XMP metadata 1")]
    result = mask_pdf("x.pdf", buffer.getvalue(), Masker())
    assert [r.replacement for r in result.replacements] == ["(removed)"]
    assert b"13912340000" not in result.data
    assert _check(tmp_path, result.data) == []


def test_an_xfa_form_is_read_and_removed(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import DecodedStreamObject, NameObject

    data, _ = build_audit_pdf(15, ("form-field",), first_value=1500)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    packet = DecodedStreamObject()
    packet.set_data(b"<xfa:datasets xmlns:xfa='http://www.xfa.org/schema/xfa-data/1.0/'>"
                    b"<xfa:data><form><phone>13912340001</phone></form></xfa:data>"
                    b"</xfa:datasets>")
    writer.root_object["/AcroForm"][NameObject("/XFA")] = writer._add_object(packet)
    buffer = io.BytesIO()
    writer.write(buffer)
    findings = _check(tmp_path, buffer.getvalue())
    assert ("13912340001", "XFA form data") in [
        (f.text, f.location["field"]) for f in findings]  # type: ignore[attr-defined]
    result = mask_pdf("x.pdf", buffer.getvalue(), Masker())
    assert "/XFA" not in PdfReader(io.BytesIO(result.data)).root_object["/AcroForm"]
    assert _check(tmp_path, result.data) == []


def test_cycles_in_outlines_fields_and_the_structure_tree_end(tmp_path: Path) -> None:
    """A crafted file whose outline, field tree and structure tree loop back on themselves is
    read (each node once) and masked, never walked forever."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    data, _ = build_audit_pdf(16, ("bookmark", "form-field"), first_value=1600)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    first = writer.root_object["/Outlines"].raw_get("/First")
    first.get_object()[NameObject("/Next")] = first  # the item is its own next sibling
    field_ref = writer.root_object["/AcroForm"]["/Fields"].get_object()[0]
    assert hasattr(field_ref, "idnum")
    field_ref.get_object()[NameObject("/Kids")] = ArrayObject([field_ref])
    element = DictionaryObject({NameObject("/Alt"): TextStringObject("13912341600")})
    element_ref = writer._add_object(element)
    element[NameObject("/K")] = ArrayObject([element_ref])
    writer.root_object[NameObject("/StructTreeRoot")] = writer._add_object(DictionaryObject({
        NameObject("/K"): element_ref}))
    buffer = io.BytesIO()
    writer.write(buffer)
    findings = _check(tmp_path, buffer.getvalue())
    parts = sorted({f.location["part"] for f in findings})  # type: ignore[attr-defined]
    assert parts == ["alt-text", "bookmark", "form-field"]
    assert sum(1 for f in findings if f.location["part"] == "bookmark") == 1  # type: ignore[attr-defined]
    result = mask_pdf("x.pdf", buffer.getvalue(), Masker())
    assert _check(tmp_path, result.data) == []


@settings(max_examples=6, deadline=None)
@given(st.sets(st.sampled_from([p for p in AUDIT_PLACES if p != "attachment-pdf"]), min_size=1),
       st.integers(0, 5000), st.sampled_from(["keep-ends", "stars", "label", "token"]))
def test_any_mix_of_places_is_found_and_leaves_nothing(
    places: set[str], first: int, style: str,
) -> None:
    import tempfile

    data, planted = build_audit_pdf(first % 97, sorted(places), first_value=first)
    with tempfile.TemporaryDirectory() as folder:
        found = {"".join(f.text.split()) for f in _check(Path(folder), data)}  # type: ignore[attr-defined]
        assert {v for _, v in planted} <= found
        result = mask_pdf("x.pdf", data, Masker(style))
        assert _check(Path(folder), result.data) == []
    raw = result.data
    assert not [v for _, v in planted if v.encode() in raw]


def test_nothing_to_rewrite_is_checked_too(monkeypatch: pytest.MonkeyPatch) -> None:
    """The issue's "0 masked": had the masker missed a place, the file is refused, not passed
    on unchanged as clean."""
    import genlint.mask.pdf_places as masking

    data, _ = build_audit_pdf(17, ("info",), first_value=1700)
    monkeypatch.setattr(masking, "mask_places", lambda path, writer, masker, depth: [])
    with pytest.raises(GenlintError, match=r"still readable after masking \(Info /Author\)"):
        mask_pdf("x.pdf", data, Masker())


def test_an_attachment_of_a_kind_no_reader_reads_is_named(tmp_path: Path) -> None:
    """An .xlsx read as text would be noise: check says it was not read, mask refuses it."""
    data = _with_attachment("sheet.xlsx", b"PK\x03\x04" + b"\0" * 64)
    doc = read_pdf("x.pdf", data)
    assert "attachment 1 not read: genlint does not read .xlsx files" in doc.warnings
    with pytest.raises(InputError, match=r"attachment 1 cannot be masked \(genlint does not "
                                         r"read \.xlsx files\)"):
        mask_pdf("x.pdf", data, Masker())
