"""Builders of real DOCX and PDF files with Chinese text for the reader tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest


def make_docx(
    path: Path,
    body: Sequence[str],
    table: Sequence[Sequence[str]] = (),
    header: str = "",
    footer: str = "",
) -> Path:
    import docx

    document = docx.Document()
    for text in body:
        document.add_paragraph(text)
    if table:
        t = document.add_table(rows=len(table), cols=len(table[0]))
        for r, row in enumerate(table):
            for c, value in enumerate(row):
                t.cell(r, c).text = value
    section = document.sections[0]
    if header:
        section.header.paragraphs[0].text = header
    if footer:
        section.footer.paragraphs[0].text = footer
    document.save(str(path))
    return path


def make_pdf(
    path: Path,
    pages: Sequence[Sequence[str]],
    password: str | None = None,
    owner_password: str | None = None,
) -> Path:
    """A PDF whose pages hold the given lines, in the CID font STSong-Light (no font file)."""
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4)
    for lines in pages:
        c.setFont("STSong-Light", 12)
        y = 800
        for line in lines:
            c.drawString(60, y, line)
            y -= 20
        c.showPage()
    c.save()
    if password is not None or owner_password is not None:
        from pypdf import PdfReader, PdfWriter

        writer = PdfWriter(clone_from=PdfReader(str(path)))
        writer.encrypt(password or "", owner_password, algorithm="RC4-128")
        with path.open("wb") as fh:
            writer.write(fh)
    return path


@pytest.fixture
def docx_file(tmp_path: Path) -> Path:
    return make_docx(
        tmp_path / "合同.docx",
        body=["本合同由华夏金融租赁有限公司签署。", "乙方：某某公司"],
        table=[["联系人", "电话"], ["张某", "13812345678"]],
        header="页眉：XXX有限公司",
        footer="页脚：签署日期    年  月  日",
    )


@pytest.fixture
def pdf_file(tmp_path: Path) -> Path:
    return make_pdf(
        tmp_path / "证据.pdf",
        pages=[["第一页内容完整，没有问题。"], ["第二页：某某公司应于X年X月X日前付款。"]],
    )
