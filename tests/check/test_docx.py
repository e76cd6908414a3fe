"""The DOCX reader reads what a person sees in Word (docs/commands/check.md "What the readers
see"), with locations they can find; files are written by python-docx (tests/support)."""

from __future__ import annotations

import io
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import check_paths
from genlint.errors import InputError
from genlint.readers import docx as docx_reader
from support.docx_build import (
    add_footnotes,
    append_inline,
    content_control,
    deleted,
    inserted,
    new_document,
    run,
    text_box,
    to_bytes,
)


def _read(data: bytes, name: str = "t.docx"):  # type: ignore[no-untyped-def]
    return docx_reader.read(name, data)


def _check(tmp_path: Path, data: bytes, select: str | None = None):  # type: ignore[no-untyped-def]
    path = tmp_path / "t.docx"
    path.write_bytes(data)
    report = check_paths([path], select=select)
    (file,) = report.files
    assert file.error is None, file.error
    return file


def test_underlined_spaces_are_a_blank_and_plain_spaces_are_not(tmp_path: Path) -> None:
    document = new_document()
    p = document.add_paragraph()
    append_inline(p, run("合同金额为人民币"), run("     ", underline=True), run("元"))
    q = document.add_paragraph()
    append_inline(q, run("合同金额为人民币"), run("     "), run("元，签字"), run("张三", underline=True))
    text = _read(to_bytes(document)).segments[0].text
    assert text.splitlines() == ["合同金额为人民币_____元", "合同金额为人民币     元，签字张三"]
    # (plain spaces before 元 are a gap in a sentence, SPEC §1: placeholder/gap-blank's case)
    file = _check(tmp_path, to_bytes(document), "placeholder/underscore-blank")
    assert [(f.rule, f.text, f.location) for f in file.findings] == [
        ("placeholder/underscore-blank", "_____", {"part": "body", "paragraph": 1})
    ]


def test_tracked_insertions_are_read_deletions_are_not_and_both_are_counted(
    tmp_path: Path,
) -> None:
    document = new_document()
    document.add_paragraph("第一条 总则")
    p = document.add_paragraph()
    append_inline(p, run("甲方："), inserted("某某公司"), deleted("某银行"), run("。"))
    text = _read(to_bytes(document)).segments[0].text
    assert text.splitlines() == ["第一条 总则", "甲方：某某公司。"]
    file = _check(tmp_path, to_bytes(document))
    by_rule = {f.rule: f for f in file.findings}
    assert "某银行" not in [f.text for f in file.findings]
    assert by_rule["placeholder/mou-entity"].text == "某某公司"
    changes = by_rule["document/tracked-changes"]
    assert changes.severity == "warning" and changes.extra["count"] == 2
    assert changes.message.startswith("2 tracked changes")
    # placed at the paragraph holding the first change, so a person can find it
    assert changes.location == {"part": "body", "paragraph": 2} and changes.line == 2


def test_text_boxes_are_read_once_and_content_controls_through(tmp_path: Path) -> None:
    document = new_document()
    p = document.add_paragraph()
    append_inline(p, run("见右侧"), text_box("乙方：某某公司", "电话：13812345678"))
    q = document.add_paragraph()
    append_inline(q, run("签订日期："), content_control("【】"))
    doc = _read(to_bytes(document))
    lines = doc.segments[0].text.splitlines()
    assert lines == ["见右侧", "乙方：某某公司", "电话：13812345678", "签订日期：【】"]
    file = _check(tmp_path, to_bytes(document))
    found = {(f.text, tuple(sorted(f.location.items()))) for f in file.findings if f.location}
    assert ("某某公司", (("paragraph", 1), ("part", "textbox"))) in found
    assert ("13812345678", (("paragraph", 2), ("part", "textbox"))) in found
    assert ("【】", (("paragraph", 2), ("part", "body"))) in found
    assert sum(f.text == "某某公司" for f in file.findings) == 1  # not the VML copy too


def test_tables_nested_tables_headers_footnotes_and_comments_have_locations(
    tmp_path: Path,
) -> None:
    document = new_document()
    document.add_paragraph("正文")
    table = document.add_table(rows=2, cols=2)
    table.cell(0, 0).text = "姓名"
    table.cell(1, 1).text = "王某某"
    inner = table.cell(1, 0).add_table(rows=1, cols=1)
    inner.cell(0, 0).text = "X年X月X日"
    document.sections[0].header.paragraphs[0].text = "某律师事务所"
    add_footnotes(document, "参见某法院判决")
    commented = document.add_paragraph("金额：100元")
    document.add_comment(commented.runs, text="请核实 13912345678", author="审核")
    file = _check(tmp_path, to_bytes(document))
    where = {f.text: f.location for f in file.findings}
    assert where["王某某"] == {"part": "body", "table": 1, "row": 2, "cell": 2}
    assert where["X年X月X日"] == {"part": "body", "table": 1, "row": 2, "cell": 1}
    assert where["某律师事务所"] == {"part": "header", "paragraph": 1}
    assert where["某法院"] == {"part": "footnote", "paragraph": 1}
    assert where["13912345678"] == {"part": "comment", "paragraph": 1}
    comments = next(f for f in file.findings if f.rule == "document/comments")
    assert comments.extra["count"] == 1
    # placed at the commented paragraph
    assert comments.location["part"] == "body"
    text = _read(to_bytes(document)).segments[0].text
    assert text.splitlines()[comments.line - 1] == "金额：100元"


def test_text_reporter_and_json_print_locations(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    document = new_document()
    table = document.add_table(rows=3, cols=2)
    table.cell(2, 0).text = "某某公司"
    path = tmp_path / "contract.docx"
    path.write_bytes(to_bytes(document))
    result = run_cli("check", str(path))
    assert result.code == 1
    assert "contract.docx:table 1 row 3 cell 1: error placeholder/mou-entity" in result.out
    result = run_cli("check", str(path), "--format", "json")
    import json

    finding = json.loads(result.out)["files"][0]["findings"][0]
    assert {k: finding[k] for k in ("part", "table", "row", "cell")} == {
        "part": "body", "table": 1, "row": 3, "cell": 1
    }
    result = run_cli("check", str(path), "--format", "sarif")
    location = json.loads(result.out)["runs"][0]["results"][0]["locations"][0]
    assert location["logicalLocations"][0]["name"] == "table 1 row 3 cell 1"


def _rezip(data: bytes, name: str, edit) -> bytes:  # type: ignore[no-untyped-def]
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(data)) as src, zipfile.ZipFile(out, "w") as dst:
        for info in src.infolist():
            blob = src.read(info)
            dst.writestr(info, edit(blob) if info.filename == name else blob)
    return out.getvalue()


def test_malformed_xml_is_recovered_with_a_warning_naming_the_part(tmp_path: Path) -> None:
    document = new_document()
    document.add_paragraph("甲方：某某公司")
    document.add_paragraph("乙方：张三")
    # an unescaped ampersand and a dangling tag: what broken generators write
    broken = _rezip(
        to_bytes(document),
        "word/document.xml",
        lambda b: b.replace("乙方".encode(), "乙方 & ".encode()).replace(b"</w:body>", b"<w:p>"),
    )
    doc = _read(broken)
    assert "某某公司" in doc.segments[0].text
    assert doc.warnings and doc.warnings[0].startswith("word/document.xml: malformed XML")
    file = _check(tmp_path, broken)
    assert any(f.text == "某某公司" for f in file.findings)
    assert file.warnings == doc.warnings


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"PK\x03\x04 not really a zip", "not a DOCX file"),
        (b"plain text", "not a DOCX file"),
    ],
)
def test_not_a_docx_is_bad_input(data: bytes, message: str) -> None:
    with pytest.raises(InputError, match=message):
        _read(data)


def test_a_zip_bomb_is_refused_before_it_is_expanded(monkeypatch: pytest.MonkeyPatch) -> None:
    document = new_document()
    document.add_paragraph("x")
    bomb = _rezip(to_bytes(document), "word/document.xml", lambda b: b + b" " * (12 * 2**20))
    assert len(bomb) < 2**20  # compresses to almost nothing
    monkeypatch.setenv("GENLINT_MAX_DOCX_MB", "8")
    with pytest.raises(InputError, match="expands to 12 MB, over the 8 MB limit"):
        _read(bomb)


def test_a_bad_docx_in_a_batch_costs_only_itself(tmp_path: Path) -> None:
    (tmp_path / "bad.docx").write_bytes(b"not a zip")
    document = new_document()
    document.add_paragraph("某某公司")
    (tmp_path / "good.docx").write_bytes(to_bytes(document))
    report = check_paths([tmp_path])
    assert report.exit_code == 2
    bad, good = report.files
    assert bad.error and "not a DOCX" in bad.error
    assert [f.text for f in good.findings] == ["某某公司"]


_WORDS = st.sampled_from(["某某公司", "张某", "【】", "正文内容", "条款", "X年X月X日", "甲方"])
_CELL = st.lists(_WORDS, min_size=1, max_size=3).map("".join)


@settings(max_examples=25, deadline=None)
@given(
    blocks=st.lists(
        st.one_of(
            _CELL.map(lambda t: ("p", t)),
            st.lists(st.lists(_CELL, min_size=1, max_size=3), min_size=1, max_size=3).map(
                lambda rows: ("t", rows)
            ),
        ),
        min_size=1,
        max_size=6,
    )
)
def test_locations_always_agree_with_the_extracted_text(blocks) -> None:  # type: ignore[no-untyped-def]
    document = new_document()
    expected: dict[tuple[tuple[str, object], ...], str] = {}
    paragraph = table = 0
    for kind, content in blocks:
        if kind == "p":
            document.add_paragraph(content)
            paragraph += 1
            expected[(("paragraph", paragraph), ("part", "body"))] = content
        else:
            table += 1
            width = max(len(row) for row in content)
            t = document.add_table(rows=len(content), cols=width)
            for r, row in enumerate(content):
                for c in range(width):
                    text = row[c] if c < len(row) else "正文"
                    t.cell(r, c).text = text
                    paragraph += 1  # Word counts a cell's paragraphs too
                    key = (("cell", c + 1), ("part", "body"), ("row", r + 1), ("table", table))
                    expected[key] = text
    doc = _read(to_bytes(document))
    segment = doc.segments[0]
    from genlint.check.engine import Checker

    for finding in Checker().check(segment.text, places=segment.places):
        place = tuple(sorted(finding.location.items()))
        assert finding.text in expected[place], (finding, expected[place])
        # and the offsets point at the text itself
        assert segment.text[finding.start : finding.end] == finding.text


def test_a_check_without_the_sensitive_pack_reads_no_hidden_place(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """With ``--select placeholder`` the hidden places and pictures of a DOCX (read for the
    sensitive pack only) are not read at all; the visible text gives the same findings."""
    from genlint.readers import docx as reader
    from genlint.readers import images_inside
    from support.docx_leaks import corpus

    leak = corpus(1)[0]  # every hidden place, a picture among them
    path = tmp_path / leak.name
    path.write_bytes(leak.data)
    read: list[str] = []
    places, images = reader.collect_places, images_inside.docx_images
    monkeypatch.setattr(reader, "collect_places", lambda *a: read.append("places") or places(*a))
    monkeypatch.setattr(images_inside, "docx_images",
                        lambda *a: read.append("images") or images(*a))  # fmt: skip
    (alone,) = check_paths([str(path)], select="placeholder").files
    assert alone.error is None and read == []
    (both,) = check_paths([str(path)], select="placeholder,sensitive").files
    assert read == ["places", "images"]
    assert [f for f in both.findings if f.pack == "placeholder"] == alone.findings
    assert any(f.pack == "sensitive" and (f.location or {}).get("part") for f in both.findings)
