"""DOCX with python-docx: body paragraphs and tables in document order, then headers and
footers of every section. Each paragraph and each table cell is one line of the text."""

from __future__ import annotations

import io
import zipfile
from collections.abc import Iterator
from typing import Any

from ..errors import InputError, require
from . import Document, Segment


def _block_lines(container: Any) -> Iterator[str]:
    """Paragraph texts and table-cell texts of a body, header or footer, in order."""
    from docx.table import Table
    from docx.text.paragraph import Paragraph

    for block in container.iter_inner_content():
        if isinstance(block, Paragraph):
            yield block.text
        elif isinstance(block, Table):
            yield from _table_lines(block)


def _table_lines(table: Any) -> Iterator[str]:
    for row in table.rows:
        seen: set[int] = set()
        for cell in row.cells:
            # a merged cell appears once per grid column it spans; read it once
            if id(cell._tc) in seen:
                continue
            seen.add(id(cell._tc))
            yield from _block_lines(cell)


def read(path: str, data: bytes) -> Document:
    require("docx", "docs")
    import docx
    from docx.opc.exceptions import PackageNotFoundError

    if not zipfile.is_zipfile(io.BytesIO(data)):
        raise InputError(f"{path}: not a DOCX file (corrupt or not a ZIP package)")
    try:
        document = docx.Document(io.BytesIO(data))
    except (PackageNotFoundError, KeyError, ValueError, zipfile.BadZipFile) as exc:
        raise InputError(f"{path}: cannot read DOCX ({type(exc).__name__}: {exc})") from None
    except Exception as exc:  # lxml and zip errors of a damaged package have many types
        raise InputError(f"{path}: cannot read DOCX ({type(exc).__name__})") from None
    lines = list(_block_lines(document))
    seen_parts: set[int] = set()
    for section in document.sections:
        for part in (
            section.header,
            section.first_page_header,
            section.even_page_header,
            section.footer,
            section.first_page_footer,
            section.even_page_footer,
        ):
            # sections linked to the previous one share its header part; read each part once
            if part.is_linked_to_previous:
                continue
            key = id(part.part) if hasattr(part, "part") else id(part)
            if key in seen_parts:
                continue
            seen_parts.add(key)
            lines.extend(_block_lines(part))
    return Document(path=path, kind="docx", segments=[Segment("\n".join(lines))])
