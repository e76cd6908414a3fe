"""`genlint check` on a PDF's hidden places, through the command line: what the reports show
(part, field, page; the text reporter's location) and what stays out of the placeholder pack;
`genlint mask` refusing a place it cannot rewrite with one line and no output."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

pytest.importorskip("pypdfium2")
pytest.importorskip("reportlab")

from support.pdf_build import build_audit_pdf


def _file(tmp_path: Path, data: bytes, name: str = "in.pdf") -> Path:
    path = tmp_path / "in" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    return path


def test_json_and_text_reports_name_the_place(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data, planted = build_audit_pdf(20, ("info", "annotation", "bookmark"), first_value=2000)
    path = _file(tmp_path, data)
    result = run_cli("check", str(path), "--select", "sensitive", "--format", "json", "--show-values")
    assert result.code == 1
    findings = json.loads(result.out)["files"][0]["findings"]
    where = {f["text"]: (f.get("part"), f.get("field"), f.get("page")) for f in findings}
    values = dict((place, value) for place, value in planted)
    assert where[values["info"]] == ("metadata", "Info /Author", None)
    assert where[values["annotation"]] == ("annotation", "page 1 annotation 1 /Contents", 1)
    assert where[values["bookmark"]] == ("bookmark", "bookmark 1 title", None)
    text = run_cli("check", str(path), "--select", "sensitive", "--no-color")
    assert f"{path}:Info /Author: error sensitive/" in text.out
    assert f"{path}:page 1 annotation 1 /Contents: error sensitive/" in text.out


def test_hidden_places_stay_out_of_the_other_packs(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader, PdfWriter

    data, _ = build_audit_pdf(21, ())
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.add_metadata({"/Title": "甲方：某某公司，金额XX元"})
    writer.add_outline_item(title="第X条 某某公司", page_number=0)
    buffer = io.BytesIO()
    writer.write(buffer)
    path = _file(tmp_path, buffer.getvalue())
    result = run_cli("check", str(path), "--format", "json")
    findings = json.loads(result.out)["files"][0]["findings"]
    assert [f for f in findings if f.get("part")] == []


def test_a_check_without_the_sensitive_pack_reads_no_hidden_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from genlint.check import check_paths
    from genlint.readers import images_inside, pdf_segments

    data, planted = build_audit_pdf(22, ("info", "attachment-txt"))
    path = _file(tmp_path, data)
    read: list[str] = []
    hidden, images = pdf_segments.hidden_segments, images_inside.pdf_images
    monkeypatch.setattr(pdf_segments, "hidden_segments",
                        lambda *a, **k: read.append("hidden") or hidden(*a, **k))
    monkeypatch.setattr(images_inside, "pdf_images",
                        lambda *a, **k: read.append("images") or images(*a, **k))
    (file,) = check_paths([path], select="placeholder").files
    assert file.error is None and read == []
    (file,) = check_paths([path], select="placeholder,sensitive").files
    assert read == ["hidden", "images"]
    assert {f.text for f in file.findings} >= {value for _, value in planted}


def test_mask_refuses_a_place_it_cannot_rewrite_with_one_line(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from pypdf import PdfReader, PdfWriter

    data, _ = build_audit_pdf(22, ("page-text",), first_value=2200)
    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    writer.add_attachment("scan.png", b"\x89PNG\r\n\x1a\n" + b"\0" * 32)
    buffer = io.BytesIO()
    writer.write(buffer)
    path = _file(tmp_path, buffer.getvalue())
    result = run_cli("mask", str(path), "--out", str(tmp_path / "out"))
    assert result.code == 2
    lines = [line for line in result.err.splitlines() if line.startswith("genlint: error:")]
    assert len(lines) == 1 and "attachment 1 cannot be masked" in lines[0]
    assert "scan.png" not in result.err  # the attachment's own name may be personal data
    assert not (tmp_path / "out" / "in.pdf").exists()


def test_mask_reports_hidden_places_in_json(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    data, planted = build_audit_pdf(23, ("xmp", "form-field"), first_value=2300)
    path = _file(tmp_path, data)
    result = run_cli("mask", str(path), "--out", str(tmp_path / "out"), "--format", "json")
    assert result.code == 0, result.err
    masked = json.loads(result.out)["files"][0]["masked"]
    places = {(m["part"], m["field"], m["replacement"] == "(removed)") for m in masked}
    assert ("metadata", "XMP metadata", True) in places
    assert ("form-field", "form field 1 /V", False) in places
    assert not any(value in result.out for _, value in planted)
    again = run_cli("check", str(tmp_path / "out" / "in.pdf"), "--select", "sensitive")
    assert again.code == 0


_DAMAGED_SOURCE: list[bytes] = []


@settings(max_examples=12, deadline=None)
@given(st.lists(st.tuples(st.floats(0, 1), st.integers(0, 255)), min_size=1, max_size=20),
       st.one_of(st.none(), st.floats(0.05, 1)))
def test_a_damaged_pdf_with_hidden_places_is_one_line_of_bad_input(
    edits: list[tuple[float, int]], cut: float | None,
) -> None:
    """Bytes changed anywhere (in an attachment, the object tree, a stream) or the file cut
    short: check and mask end with a result or one ``genlint: error:`` line, never an
    internal error."""
    import contextlib
    import tempfile

    from genlint.cli.main import main

    if not _DAMAGED_SOURCE:
        _DAMAGED_SOURCE.append(build_audit_pdf(3)[0])
    data = bytearray(_DAMAGED_SOURCE[0])
    for where, byte in edits:
        data[int(where * (len(data) - 1))] = byte
    if cut is not None:
        data = data[: int(cut * len(data))]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "damaged.pdf"
        path.write_bytes(bytes(data))
        for args in (["check", str(path), "--select", "sensitive"],
                     ["mask", str(path), "--out", str(Path(folder) / "out")]):
            err, out = io.StringIO(), io.StringIO()
            with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
                code = main(args)
            assert code in (0, 1, 2), (args[0], code)
            assert "internal error" not in err.getvalue(), err.getvalue()
            assert "Traceback" not in err.getvalue()


def test_a_value_only_pdfium_reads_is_a_finding(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where pypdf's text misses a line PDFium's text holds, the sensitive pack reads PDFium's
    line (and only that line: no duplicate of what pypdf reads too)."""
    import genlint.readers.pdf as reader
    from genlint.check import Checker

    data, planted = build_audit_pdf(24, ("page-text", "per-char"), first_value=2400)
    values = dict(planted)
    real = reader._pages_of

    def pypdf_misses(path: str, pdf: object) -> tuple[list[str], list[int]]:
        pages, scanned = real(path, pdf)
        return [p.replace(values["page-text"], "") for p in pages], scanned

    monkeypatch.setattr(reader, "_pages_of", pypdf_misses)
    doc = reader.read_pdf("x.pdf", data)
    findings = Checker("sensitive").check_document(doc)
    where = sorted((f.text, (f.location or {}).get("field"), f.page) for f in findings)
    assert where == sorted([(values["page-text"], "page 1 text (PDFium)", 1),
                            (values["per-char"], None, 1)])


def test_a_walk_past_its_bound_refuses_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    """More bookmarks than the bound: the file is refused, never read in part."""
    from pypdf import PdfReader, PdfWriter

    import genlint.readers.pdf_places as pdf_places
    from genlint.errors import InputError

    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    for n in range(3):
        writer.add_outline_item(title=f"bookmark {n}", page_number=0)
    out = io.BytesIO()
    writer.write(out)
    reader = PdfReader(io.BytesIO(out.getvalue()))
    monkeypatch.setattr(pdf_places, "MAX_NODES", 3)
    titles = [s.text for s in pdf_places.places(reader) if s.part == "bookmark"]
    assert titles == ["bookmark 0", "bookmark 1", "bookmark 2"]
    monkeypatch.setattr(pdf_places, "MAX_NODES", 2)
    with pytest.raises(InputError, match="more than 2 bookmarks"):
        list(pdf_places.places(reader))


def _wide_pdf(width: int, value: str) -> bytes:
    """One private object: an array of ``width`` arrays, the value in the one walked last (no
    named place reads it)."""
    from pypdf import PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, NameObject, TextStringObject

    writer = PdfWriter()
    writer.add_blank_page(200, 200)
    items = [ArrayObject([TextStringObject(value if i == 0 else "-")]) for i in range(width)]
    private = DictionaryObject({NameObject("/Payload"): ArrayObject(items)})
    writer._root_object[NameObject("/PrivateData")] = writer._add_object(private)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def test_a_string_anywhere_in_a_large_object_is_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """The object walk once stopped silently after 10,000 nodes of one object: a value walked
    later passed as clean. Now the whole file's walk has one bound, and past it the file is
    refused."""
    from pypdf import PdfReader

    import genlint.readers.pdf_objects as pdf_objects
    from genlint.errors import InputError
    from genlint.readers import pdf_places

    data = _wide_pdf(12_000, "电话 13812345678")
    texts = [s.text for s in pdf_places.places(PdfReader(io.BytesIO(data)))]
    assert "电话 13812345678" in texts
    monkeypatch.setattr(pdf_objects, "MAX_WALKED", 5_000)
    with pytest.raises(InputError, match="more than 5,000 dictionaries and arrays"):
        list(pdf_places.places(PdfReader(io.BytesIO(data))))
    monkeypatch.setattr(pdf_objects, "MAX_OBJECTS", 2)
    with pytest.raises(InputError, match="more than 2 objects"):
        list(pdf_places.places(PdfReader(io.BytesIO(_wide_pdf(1, "x")))))
