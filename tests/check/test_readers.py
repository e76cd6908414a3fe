"""Readers: encodings, JSON pointers, Markdown code, real DOCX and PDF, broken files."""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from genlint.check import check_paths
from genlint.errors import InputError
from genlint.readers import expand_paths, read_document

from .conftest import make_pdf

TEXT = "甲方：某某公司，电话13812345678。"


@pytest.mark.parametrize(
    "encode",
    [
        lambda s: s.encode("utf-8"),
        lambda s: codecs.BOM_UTF8 + s.encode("utf-8"),
        lambda s: s.encode("gbk"),
        lambda s: s.encode("gb18030"),
        lambda s: s.encode("utf-16"),
    ],
    ids=["utf8", "utf8-bom", "gbk", "gb18030", "utf16-bom"],
)
def test_text_encodings(tmp_path: Path, encode) -> None:  # type: ignore[no-untyped-def]
    path = tmp_path / "a.txt"
    path.write_bytes(encode(TEXT))
    assert read_document(str(path)).segments[0].text == TEXT


@pytest.mark.parametrize("text", ["某某", "张某某公司", "签字：", "甲方乙方", "X年X月"])
def test_short_gbk_is_not_misdetected(tmp_path: Path, text: str) -> None:
    # statistical detectors often call a few GBK bytes Big5 or Latin-1
    path = tmp_path / "short.txt"
    path.write_bytes(text.encode("gbk"))
    assert read_document(str(path)).segments[0].text == text


def test_utf8_with_a_damaged_byte_stays_utf8(tmp_path: Path) -> None:
    path = tmp_path / "cut.txt"
    body = ("正常的中文内容，" * 300 + TEXT).encode("utf-8")
    path.write_bytes(body + "某".encode()[:2])  # the last character cut in half
    text = read_document(str(path)).segments[0].text
    assert text.startswith("正常的中文内容") and text.endswith("\ufffd")
    assert [f.text for f in check_paths([str(path)]).findings] == ["某某公司", "13812345678"]


def test_binary_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "blob.txt"
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    with pytest.raises(InputError, match="binary"):
        read_document(str(path))


def test_json_strings_with_pointers_and_file_positions(tmp_path: Path) -> None:
    path = tmp_path / "reply.json"
    data = {
        "title": "报告",
        "parties": [{"name": "某某公司"}, {"tel": "电话13812345678"}],
        "a/b": "转义\\n后：张某",
    }
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2), "utf-8")
    report = check_paths([str(path)])
    found = [(f.pointer, f.text, f.start) for f in report.findings]
    assert found == [
        ("/parties/0/name", "某某公司", 0),
        ("/parties/1/tel", "13812345678", 2),
        ("/a~1b", "张某", 6),
    ]
    raw_lines = path.read_text("utf-8").splitlines()
    for f in report.findings:
        # line/column point at the text in the file itself
        assert raw_lines[f.line - 1][f.column - 1 :].startswith(f.text)


def test_json_must_be_valid(tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text('{"a": "某某公司",}', "utf-8")
    with pytest.raises(InputError, match="invalid JSON"):
        read_document(str(path))


def test_markdown_code_is_not_prose(tmp_path: Path) -> None:
    path = tmp_path / "a.md"
    path.write_text(
        "# 说明\n\n尊敬的{name}：\n\n```python\nprint(f'{name}')  # 13812345678\n```\n\n"
        "行内 `{user}` 代码。\n",
        "utf-8",
    )
    found = [(f.rule, f.text) for f in check_paths([str(path)]).findings]
    # the {name} in prose is a slot; code is skipped for placeholders but not for personal data
    assert found == [("placeholder/template-var", "{name}"), ("sensitive/mobile", "13812345678")]


def test_docx_paragraphs_tables_headers_footers(docx_file: Path) -> None:
    found = [(f.rule, f.text) for f in check_paths([str(docx_file)]).findings]
    assert found == [
        ("placeholder/mou-entity", "某某公司"),
        ("placeholder/mou-name", "张某"),
        ("sensitive/mobile", "13812345678"),
        ("placeholder/x-value", "XXX有限公司"),
        ("placeholder/blank-date", "    年  月  日"),
    ]


def test_pdf_findings_carry_pages(pdf_file: Path) -> None:
    found = [(f.text, f.page) for f in check_paths([str(pdf_file)]).findings]
    assert found == [("某某公司", 2), ("X年X月X日", 2)]


def test_encrypted_and_corrupt_files_are_reported_and_others_checked(tmp_path: Path) -> None:
    locked = make_pdf(tmp_path / "locked.pdf", [["某某公司"]], password="secret")
    corrupt = tmp_path / "corrupt.pdf"
    corrupt.write_bytes(b"%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\ntrailer\n")
    bad_docx = tmp_path / "bad.docx"
    bad_docx.write_bytes(b"PK\x03\x04 not really a zip")
    good = tmp_path / "good.txt"
    good.write_text("某某公司", "utf-8")
    report = check_paths([str(tmp_path)])
    by_name = {Path(f.path).name: f for f in report.files}
    assert "encrypted" in (by_name["locked.pdf"].error or "")
    assert by_name["corrupt.pdf"].error
    assert by_name["bad.docx"].error
    assert [f.text for f in by_name["good.txt"].findings] == ["某某公司"]
    assert report.exit_code == 2
    assert locked.read_bytes()[:4] == b"%PDF"  # nothing modified


def test_pdf_with_only_an_owner_password_is_read(tmp_path: Path) -> None:
    path = make_pdf(tmp_path / "limited.pdf", [["某某公司"]], owner_password="owner")
    assert [f.text for f in check_paths([str(path)]).findings] == ["某某公司"]


def test_folders_are_walked_skipping_hidden_and_unsupported(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / ".git").mkdir()
    for name in ("a.txt", "sub/b.md", "sub/c.json", ".git/d.txt", ".hidden.txt", "e.png", "f.bin"):
        (tmp_path / name).write_text("{}" if name.endswith("json") else "x", "utf-8")
    found = [Path(p).relative_to(tmp_path).as_posix() for p in expand_paths([str(tmp_path)])]
    # images are read (by OCR); unknown suffixes are not
    assert found == ["a.txt", "e.png", "sub/b.md", "sub/c.json"]


@pytest.mark.parametrize(
    ("setup", "needle"),
    [("empty", "holds no file"), ("none", "no path")],
)
def test_bad_paths(tmp_path: Path, setup: str, needle: str) -> None:
    paths = {"empty": [str(tmp_path)], "none": []}[setup]
    with pytest.raises(InputError, match=needle):
        expand_paths(paths)


def test_a_missing_or_special_path_costs_no_other_file_its_findings(tmp_path: Path) -> None:
    import os

    from genlint.check import check_paths

    dirty = tmp_path / "dirty.txt"
    dirty.write_text("甲方：某某公司\n", "utf-8")
    os.mkfifo(tmp_path / "pipe.txt")  # in the folder: must be skipped, never opened (it blocks)
    report = check_paths([str(tmp_path / "nope.txt"), str(tmp_path), "/dev/zero"])
    by_path = {Path(f.path).name: f for f in report.files}
    assert "no such file" in (by_path["nope.txt"].error or "")
    # found by walking the folder: skipped with a note, never opened (docs/commands/check.md)
    assert "pipe.txt" not in by_path
    assert any("pipe.txt" in note for note in report.skipped), report.skipped
    assert "not a regular file" in (by_path["zero"].error or "")
    assert by_path["dirty.txt"].findings, "the readable file is still checked"
    assert report.exit_code == 2


def test_gbk_and_big5_files_of_the_same_text_give_the_same_findings(tmp_path: Path) -> None:
    from genlint.check import check_paths

    text = "甲方：某某公司\n乙方：王某\n日期：X年X月X日\n於本合同簽訂後支付。\n"
    (tmp_path / "gbk.txt").write_bytes(text.encode("gb18030"))
    (tmp_path / "big5.txt").write_bytes(text.encode("big5"))
    report = check_paths([str(tmp_path / "gbk.txt"), str(tmp_path / "big5.txt")])
    gbk, big5 = report.files
    assert (gbk.encoding, big5.encoding) == ("gb18030", "big5hkscs")
    assert [(f.rule, f.text, f.start) for f in gbk.findings] == [
        (f.rule, f.text, f.start) for f in big5.findings
    ]
    assert {f.text for f in gbk.findings} >= {"某某公司", "王某", "X年X月X日"}
