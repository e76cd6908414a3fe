"""``genlint check --annotate DIR`` (docs/commands/check.md "Review in Word and PDF"): review
copies with a note on the exact text of every finding; inputs untouched."""

from __future__ import annotations

import hashlib
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from genlint import check_paths
from genlint.check.annotate import annotate_report
from support.docx_build import append_inline, deleted, inserted, new_document, run, to_bytes
from support.pdf_build import make_pdf
from support.review_copies import (
    docx_comments,
    docx_text_and_format,
    pdf_highlights,
    pdf_notes,
)


def _contract() -> bytes:
    document = new_document()
    document.add_paragraph("第一条 甲方：某某公司，电话13812345678。")
    p = document.add_paragraph()
    # 某某 and 公司 in two runs, the second bold: the comment must span both, formatting kept
    append_inline(
        p,
        run("乙方：某某"),
        "<w:r><w:rPr><w:b/></w:rPr><w:t>银行</w:t></w:r>",
        inserted("（盖章）"),
        deleted("旧文字"),
    )
    table = document.add_table(rows=1, cols=2)
    table.cell(0, 0).text = "联系人：张某"
    document.sections[0].header.paragraphs[0].text = "某某律师事务所"
    return to_bytes(document)


def test_docx_gets_one_comment_per_finding_on_its_exact_text(tmp_path: Path) -> None:
    source = tmp_path / "in" / "合同.docx"
    source.parent.mkdir()
    source.write_bytes(_contract())
    before = hashlib.sha256(source.read_bytes()).hexdigest()
    report = check_paths([source])
    done = annotate_report(report, str(tmp_path / "out"), lang="en")
    assert done.skipped == []
    assert hashlib.sha256(source.read_bytes()).hexdigest() == before  # input untouched
    copy = tmp_path / "out" / "合同.docx"
    assert done.written == [(str(source), str(copy), len(report.findings))]
    comments = docx_comments(copy.read_bytes())
    assert all(author == "genlint" for author, _, _ in comments)
    body = [f for f in report.findings if f.location and f.location.get("part") == "body"]
    anchored = {(text.splitlines()[0], on) for _, text, on in comments}
    for f in body:
        if f.rule.startswith("document/"):
            continue
        assert any(on == f.text and f"[{f.rule}]" in head for head, on in anchored), f
    # the personal value is masked in the note, never copied into it
    mobile = next(text for _, text, on in comments if on == "13812345678")
    assert "13812345678" not in mobile and "sensitive/mobile" in mobile
    assert "Fix: " in mobile
    # the tracked change's note sits on the changed paragraph; the header's in the start note
    assert any(on.startswith("乙方：某某银行") for _, t, on in comments if "tracked" in t)
    start = next(t for _, t, _ in comments if "places a comment cannot" in t)
    assert "header paragraph 1" in start and "某某律师事务所" in start
    # the text and every character's formatting are what they were
    assert docx_text_and_format(copy.read_bytes()) == docx_text_and_format(source.read_bytes())


def test_chinese_notes_for_a_chinese_document(tmp_path: Path) -> None:
    source = tmp_path / "合同.docx"
    source.write_bytes(_contract())
    annotate_report(check_paths([source]), str(tmp_path / "out"))
    notes = [text for _, text, _ in docx_comments((tmp_path / "out" / "合同.docx").read_bytes())]
    assert any(
        n.startswith("错误：未填写的占位符「某某公司」 [placeholder/mou-entity]") for n in notes
    )
    assert any("修改建议：" in n for n in notes)


@settings(
    max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(st.data())
def test_runs_split_anywhere_still_anchor_exactly(tmp_path: Path, data: st.DataObject) -> None:
    """A paragraph cut into runs at random places, some bold: every comment covers exactly its
    finding's text and the copy draws the same characters with the same formatting."""
    text = "甲方：某某公司，电话13812345678，乙方：某某银行，日期：X年X月X日。"
    cuts = sorted(data.draw(st.sets(st.integers(1, len(text) - 1), max_size=12)))
    bold = data.draw(st.lists(st.booleans(), min_size=len(cuts) + 1, max_size=len(cuts) + 1))
    edges = [0, *cuts, len(text)]
    document = new_document()
    p = document.add_paragraph()
    for (a, b), is_bold in zip(pairwise(edges), bold, strict=True):
        props = "<w:rPr><w:b/></w:rPr>" if is_bold else ""
        append_inline(p, f'<w:r>{props}<w:t xml:space="preserve">{text[a:b]}</w:t></w:r>')
    source = tmp_path / "split.docx"
    source.write_bytes(to_bytes(document))
    report = check_paths([source])
    out = tmp_path / "out"
    annotate_report(report, str(out), lang="en")
    copy = (out / "split.docx").read_bytes()
    anchored = sorted(on for _, _, on in docx_comments(copy))
    assert anchored == sorted(f.text for f in report.findings)
    assert docx_text_and_format(copy) == docx_text_and_format(source.read_bytes())


def test_overlapping_and_repeated_findings(tmp_path: Path) -> None:
    document = new_document()
    document.add_paragraph("某某公司与某某公司签订，某某公司盖章")
    source = tmp_path / "r.docx"
    source.write_bytes(to_bytes(document))
    report = check_paths([source])
    annotate_report(report, str(tmp_path / "out"), lang="en")
    comments = docx_comments((tmp_path / "out" / "r.docx").read_bytes())
    assert [on for _, _, on in comments] == [f.text for f in report.findings]


def test_pdf_gets_a_highlight_and_popup_per_finding_and_keeps_its_pages(tmp_path: Path) -> None:
    from pypdf import PdfReader

    source = make_pdf(
        tmp_path / "起诉状.pdf",
        [["第一条 甲方：某某公司，电话13812345678。", "乙方：某某公司"], ["[Company Name] TBD"]],
    )
    report = check_paths([source])
    done = annotate_report(report, str(tmp_path / "out"), lang="en")
    copy = (tmp_path / "out" / "起诉状.pdf").read_bytes()
    assert done.written[0][2] == len(report.findings)
    marks = pdf_highlights(copy)
    assert [(page, "".join(under.split())) for page, under, _, _ in marks] == [
        (f.page, "".join(f.text.split())) for f in report.findings
    ]
    assert all(popup is not None and "[" in note for *_, note, popup in marks)
    assert not any("13812345678" in note for *_, note, _ in marks)
    before, after = PdfReader(str(source)), PdfReader(__import__("io").BytesIO(copy))
    for a, b in zip(before.pages, after.pages, strict=True):
        assert a.get_contents().get_data() == b.get_contents().get_data()


def test_pdf_hidden_places_go_into_one_note(tmp_path: Path) -> None:
    from pypdf import PdfReader, PdfWriter

    plain = make_pdf(tmp_path / "p.pdf", [["正文没有问题。"]])
    writer = PdfWriter(clone_from=PdfReader(str(plain)))
    writer.add_metadata({"/Author": "张三 13812345678"})
    source = tmp_path / "meta.pdf"
    with source.open("wb") as fh:
        writer.write(fh)
    report = check_paths([source])
    assert report.findings
    annotate_report(report, str(tmp_path / "out"), lang="en")
    (note,) = pdf_notes((tmp_path / "out" / "meta.pdf").read_bytes())
    assert "sensitive/mobile" in note and "13812345678" not in note


def test_text_copies_highlight_every_finding(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# 合同\n\n甲方：某某公司，电话13812345678。\n", "utf-8")
    (tmp_path / "b.json").write_text('{"x": "乙方：某某银行\\n TBD"}\n', "utf-8")
    report = check_paths([tmp_path / "a.md", tmp_path / "b.json"])
    annotate_report(report, str(tmp_path / "out"), lang="en")
    for name, file in zip(("a.md.html", "b.json.html"), report.files, strict=True):
        page = (tmp_path / "out" / name).read_text("utf-8")
        for n, f in enumerate(file.findings, 1):
            assert f'data-notes="f{n}">{f.text}</mark>' in page
            assert f'id="note-{n}"' in page
        assert "<script" not in page and "http" not in page


def test_cli_annotate_exit_codes_and_refusals(run_cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    Path("c.docx").write_bytes(_contract())
    result = run_cli("check", "c.docx", "--annotate", "review")
    assert result.code == 1 and Path("review/c.docx").is_file()
    assert "genlint: annotated c.docx" in result.err
    # the copy cannot replace its input: said, exit 2
    result = run_cli("check", "c.docx", "--annotate", ".")
    assert result.code == 2 and "not annotated" in result.err and "Traceback" not in result.err
    Path("file").write_text("x")
    result = run_cli("check", "c.docx", "--annotate", "file")
    assert result.code == 2 and result.err.startswith("genlint: error:")
    assert run_cli("check", "c.docx", "--lang", "fr").code == 2


def test_cli_lang_translates_the_text_report(run_cli, tmp_path: Path, monkeypatch) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.chdir(tmp_path)
    Path("a.txt").write_text("甲方：某某公司\n", "utf-8")
    zh = run_cli("check", "a.txt", "--lang", "zh").out
    assert "placeholder/mou-entity 未填写的占位符「某某公司」" in zh and "修改建议：" in zh
    en = run_cli("check", "a.txt", "--lang", "en").out
    assert "unfilled placeholder '某某公司'" in en and "fix: " in en
    # JSON is the same whatever the language
    assert (
        run_cli("check", "a.txt", "--format", "json", "--lang", "zh").out
        == run_cli("check", "a.txt", "--format", "json").out
    )
    Path("genlint.toml").write_text('[check]\nlang = "zh"\n', "utf-8")
    assert "未填写的占位符" in run_cli("check", "a.txt").out
    Path("genlint.toml").write_text('[check]\nlang = "fr"\n', "utf-8")
    bad = run_cli("check", "a.txt")
    assert bad.code == 2 and "must be zh or en" in bad.err


@pytest.mark.parametrize("name", ["x.docx", "x.pdf"])
def test_a_damaged_file_is_skipped_with_a_reason(tmp_path: Path, name: str) -> None:
    from genlint.check.report import CheckReport, FileResult
    from genlint.findings import Finding

    bad = tmp_path / name
    bad.write_bytes(b"not really " + name.encode())
    finding = Finding("placeholder/filler", "filler text 'TBD'", "TBD", 0, 3, page=1)
    report = CheckReport(files=[FileResult(str(bad), [finding])])
    done = annotate_report(report, str(tmp_path / "out"))
    assert done.written == [] and done.skipped[0][0] == str(bad)
    assert "cannot open" in done.skipped[0][1]


def test_a_scanned_page_is_highlighted_at_the_ocr_box(tmp_path: Path) -> None:
    """OCR ``bbox`` (PDF points from the top left) becomes the highlight's rectangle; a finding
    whose text the page does not hold is listed in the sticky note, not dropped."""
    from pypdf import PdfReader

    from genlint.check.report import CheckReport, FileResult
    from genlint.findings import Finding

    source = make_pdf(tmp_path / "scan.pdf", [["正文"]])
    height = float(PdfReader(str(source)).pages[0].mediabox.top)
    ocr = Finding(
        "placeholder/mou-entity", "unfilled placeholder '某某公司'", "某某公司", 0, 4,
        page=1, location={"bbox": [100.0, 200.0, 180.0, 215.0], "confidence": 0.99},
    )  # fmt: skip
    missing = Finding("placeholder/filler", "filler text 'TBD'", "TBD", 5, 8, page=1)
    report = CheckReport(files=[FileResult(str(source), [ocr, missing])])
    done = annotate_report(report, str(tmp_path / "out"), lang="en")
    copy = (tmp_path / "out" / "scan.pdf").read_bytes()
    assert done.written[0][2] == 2
    annots = [a.get_object() for a in PdfReader(__import__("io").BytesIO(copy)).pages[0]["/Annots"]]
    (highlight,) = [a for a in annots if a["/Subtype"] == "/Highlight"]
    assert [round(float(v), 1) for v in highlight["/Rect"]] == [
        100.0,
        round(height - 215.0, 1),
        180.0,
        round(height - 200.0, 1),
    ]
    (note,) = pdf_notes(copy)
    assert "[placeholder/filler]" in note


def test_a_pdf_viewer_draws_the_highlights(tmp_path: Path) -> None:
    """PDFium (Chrome's PDF engine) draws each highlight yellow over its text; the picture is
    docs/img/review-pdf.png (GENLINT_DOCS_SCREENSHOTS=docs/img)."""
    import os

    import pypdfium2 as pdfium

    source = make_pdf(
        tmp_path / "起诉状.pdf",
        [["原告：某某公司，住所地：[地址]，联系电话13812345678。", "被告：张某，日期：X年X月X日"]],
    )
    report = check_paths([source])
    annotate_report(report, str(tmp_path / "out"), lang="zh")
    copy = tmp_path / "out" / "起诉状.pdf"
    pdf = pdfium.PdfDocument(str(copy))
    try:
        page = pdf[0]
        scale = 2
        image = page.render(scale=scale, draw_annots=True).to_pil().convert("RGB")
        plain = page.render(scale=scale, draw_annots=False).to_pil().convert("RGB")
        _left, _bottom, _right, top = page.get_cropbox()
        for under_page, _under, _note, _popup in pdf_highlights(copy.read_bytes()):
            assert under_page == 1
        from pypdf import PdfReader

        for ref in PdfReader(str(copy)).pages[0]["/Annots"]:
            annot = ref.get_object()
            if annot["/Subtype"] != "/Highlight":
                continue
            x0, y0, x1, y1 = (float(v) for v in annot["/Rect"])
            box = (
                int(x0 * scale),
                int((top - y1) * scale),
                int(x1 * scale),
                int((top - y0) * scale),
            )
            drawn = image.crop(box).getcolors(1 << 16) or []
            yellow = sum(n for n, (r, g, b) in drawn if r > 200 and g > 180 and b < 150)
            assert yellow > 0.2 * (box[2] - box[0]) * (box[3] - box[1])
            assert plain.crop(box).getcolors(1 << 16) != drawn  # the annotation, not the page
    finally:
        pdf.close()
    keep = os.environ.get("GENLINT_DOCS_SCREENSHOTS")
    if keep:
        width, height = image.size
        image.crop((0, 0, width, height // 5)).save(Path(keep) / "review-pdf.png")


def test_a_scanned_image_gets_an_html_copy_with_its_boxes(tmp_path: Path) -> None:
    from PIL import Image

    from genlint.check.report import CheckReport, FileResult
    from genlint.findings import Finding

    picture = tmp_path / "receipt.png"
    Image.new("RGB", (400, 200), "white").save(picture)
    finding = Finding(
        "sensitive/mobile", "unmasked mobile number", "13812345678", 3, 14,
        location={"bbox": [100.0, 50.0, 300.0, 80.0], "confidence": 0.97},
    )  # fmt: skip
    report = CheckReport(files=[FileResult(str(picture), [finding]), FileResult("-", [])])
    done = annotate_report(report, str(tmp_path / "out"), lang="en")
    assert done.skipped == [("-", "standard input has no file to copy; check a file")]
    page = (tmp_path / "out" / "receipt.png.html").read_text("utf-8")
    assert 'style="left:25.000%;top:25.000%;width:50.000%;height:15.000%"' in page
    assert "data:image/png;base64," in page and "13812345678" not in page


def test_the_span_takes_its_share_of_the_ocr_line_box() -> None:
    from genlint.check.annotate.crops import span_box
    from genlint.findings import Finding

    line = "今收到某某公司支付的货款AB"  # 12 CJK characters (24 cells) and 2 Latin (2 cells)
    f = Finding(
        "placeholder/mou-entity", "m", "某某公司", 3, 7, page=1,
        location={"bbox": [100.0, 50.0, 360.0, 70.0]}, source_line=line, source_column=3,
    )  # fmt: skip
    assert span_box(f) == [100.0 + 260 * 6 / 26, 50.0, 100.0 + 260 * 14 / 26, 70.0]
    no_line = Finding(
        "placeholder/mou-entity", "m", "某某公司", 3, 7, location={"bbox": [1, 2, 3, 4]}
    )
    assert span_box(no_line) == [1.0, 2.0, 3.0, 4.0]
    assert span_box(Finding("placeholder/mou-entity", "m", "x", 0, 1)) is None


@pytest.mark.slow
def test_ten_thousand_comments_in_one_docx(tmp_path: Path) -> None:
    """Comments are added in linear time (python-docx's ``add_comment`` reads every existing id
    for each new one: 10,200 comments took 229 s on the shared machine)."""
    import time

    document = new_document()
    for i in range(3400):
        document.add_paragraph(f"第{i + 1}条 甲方：某某公司，电话13812345678，日期：X年X月X日。")
    source = tmp_path / "big.docx"
    source.write_bytes(to_bytes(document))
    report = check_paths([source])
    assert len(report.findings) == 10_200
    started = time.perf_counter()
    done = annotate_report(report, str(tmp_path / "out"), lang="en")
    assert time.perf_counter() - started < 30
    comments = docx_comments((tmp_path / "out" / "big.docx").read_bytes())
    assert [on for _, _, on in comments] == [f.text for f in report.findings]
    assert len(comments) == done.written[0][2]
    import docx

    ids = [c.comment_id for c in docx.Document(str(tmp_path / "out" / "big.docx")).comments]
    assert len(set(ids)) == len(ids)
