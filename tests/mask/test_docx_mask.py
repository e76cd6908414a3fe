"""genlint mask on DOCX: values in split runs, tables, headers, footnotes and text boxes are
masked in their runs, formatting kept, nothing left extractable from the package."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest

pytest.importorskip("docx")

from genlint import check_paths
from genlint.mask import Masker, Vault
from genlint.mask.docx import mask_docx, unmask_docx
from support.docx_build import (
    add_footnotes,
    add_xml,
    append_inline,
    deleted,
    new_document,
    text_box,
    to_bytes,
)

PHONE = "13812345678"
ID = "11010519491231002X"
MAIL = "zhangsan@163.com"


def _bold(text: str) -> str:
    return f'<w:r><w:rPr><w:b/></w:rPr><w:t xml:space="preserve">{text}</w:t></w:r>'


def _sample() -> bytes:
    document = new_document()
    p = document.add_paragraph("联系电话：")
    # the number split over three runs, the middle one bold
    append_inline(p, _bold("138"), _bold("1234"), '<w:r><w:t>5678。</w:t></w:r>')
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "身份证"
    table.cell(0, 1).text = ID
    document.sections[0].header.paragraphs[0].text = f"邮箱 {MAIL}"
    box = document.add_paragraph("见文本框")
    add_xml(box, text_box(f"备用电话 {PHONE}"))
    gone = document.add_paragraph("已删：")
    add_xml(gone, deleted(PHONE))
    add_footnotes(document, "注：卡号6222021234567890128")
    return to_bytes(document)


def _all_xml(data: bytes) -> str:
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        return "".join(z.read(n).decode("utf-8", "replace") for n in z.namelist()
                       if n.endswith((".xml", ".rels")))


def test_values_everywhere_are_masked_in_their_runs(tmp_path: Path) -> None:
    data = _sample()
    result = mask_docx("a.docx", data, Masker())
    assert {r.rule for r in result.replacements} == {
        "sensitive/mobile", "sensitive/resident-id", "sensitive/email", "sensitive/bank-card"}
    xml = _all_xml(result.data)
    for value in (PHONE, ID, MAIL, "6222021234567890128", "1234"):
        assert value not in xml  # the split middle run too, and the deleted copy
    assert ">138<" in xml and ">****<" in xml and ">5678。<" in xml  # each run masked alone
    assert "<w:b/>" in xml  # formatting kept
    out = tmp_path / "a.docx"
    out.write_bytes(result.data)
    report = check_paths([str(out)], select="sensitive")
    assert report.files[0].findings == [] and report.files[0].error is None
    assert "110105********002X" in xml and "z*******@163.com" in xml


def test_token_masking_round_trips_through_the_runs() -> None:
    data = _sample()
    vault = Vault()
    masked = mask_docx("a.docx", data, Masker("token", vault=vault))
    assert "&lt;PHONE_1&gt;" in _all_xml(masked.data)
    back = unmask_docx("a.docx", masked.data, vault)
    from genlint.readers.docx import read

    assert read("a.docx", back.data).segments[0].text == read("a.docx", data).segments[0].text


def test_a_clean_docx_is_returned_unchanged() -> None:
    document = new_document()
    document.add_paragraph("脱敏后：138****5678")
    data = to_bytes(document)
    assert mask_docx("a.docx", data, Masker()).data == data


def test_cli_reports_docx_locations_without_values(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import json

    source = tmp_path / "a.docx"
    source.write_bytes(_sample())
    before = source.read_bytes()
    result = run_cli("mask", str(source), "--out", str(tmp_path / "out"), "--format", "json")
    assert result.code == 0, result.err
    masked = json.loads(result.out)["files"][0]["masked"]
    assert {m["part"] for m in masked} >= {"body", "header", "footnote", "textbox"}
    assert any(m.get("table") == 1 for m in masked)
    assert PHONE not in result.out and MAIL not in result.out and ID not in result.out
    assert source.read_bytes() == before  # the input is never touched
    assert (tmp_path / "out" / "a.docx").exists()
