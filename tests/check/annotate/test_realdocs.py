"""Every finding of a corpus appears as a note at its place in its review copy: the generated
corpus of the scale tests (txt, md, json, docx, pdf), DOCX files with the shapes Word writes
(hyperlinks, fields and content controls inside a span, headers, footers, footnotes, tracked
changes) and the repository's example documents (a DOCX with a review comment, a scanned PDF
read by OCR)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from genlint import check_paths
from genlint.check.annotate import annotate_report
from support.corpus import make_corpus
from support.docx_build import (
    add_footnotes,
    append_inline,
    content_control,
    deleted,
    inserted,
    new_document,
    run,
    to_bytes,
)
from support.review_copies import assert_every_finding_noted


def _word_shapes(folder: Path) -> None:
    document = new_document()
    p = document.add_paragraph()
    append_inline(
        p,
        run("甲方：某"),
        '<w:hyperlink w:anchor="x"><w:r><w:t>某公</w:t></w:r></w:hyperlink>',
        run("司，乙方："),
        content_control("某某银行"),
        run("，电话"),
        '<w:fldSimple w:instr="MERGEFIELD phone"><w:r><w:t>13812345678</w:t></w:r></w:fldSimple>',
    )
    q = document.add_paragraph()
    append_inline(q, run("日期："), inserted("X年X月X日"), deleted("2020年"))
    document.add_paragraph("姓名：")
    document.add_paragraph("第三条 [Company Name] 与 {{name}} TBD 签订")
    document.sections[0].footer.paragraphs[0].text = "联系人 13912345678"
    (folder / "word-shapes.docx").write_bytes(to_bytes(document))
    plain = new_document()
    plain.add_paragraph("注：某某公司")
    add_footnotes(plain, "脚注：李某某")
    (folder / "notes.docx").write_bytes(to_bytes(plain))


@pytest.mark.slow
def test_every_finding_of_the_corpus_is_noted_at_its_place(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    make_corpus(corpus, 24, docx=4, pdf=4, lines=30)
    _word_shapes(corpus)
    # the repository's example documents: a GBK text, a DOCX with revisions and a comment, a
    # judgment PDF, a scanned receipt read by OCR
    examples = Path(__file__).parents[3] / "examples" / "check"
    for example in sorted(examples.glob("*/*")):
        shutil.copy(example, corpus / example.name)
    report = check_paths(sorted(corpus.iterdir()))
    assert not report.errors
    done = annotate_report(report, str(tmp_path / "review"))
    assert done.skipped == []
    assert len(done.written) == len(report.files)
    checked = assert_every_finding_noted(report, tmp_path / "review")
    assert checked == len(report.findings) > 80
