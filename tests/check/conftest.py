"""Builders of real DOCX and PDF files with Chinese text for the reader tests."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest

from support.pdf_build import make_pdf

__all__ = ["make_docx", "make_pdf"]


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
