"""An annotated DOCX opens in LibreOffice: converted to PDF headless, every comment is there,
at the end of the text it is anchored on (where LibreOffice puts the note)."""

from __future__ import annotations

from pathlib import Path

import pytest

from genlint import check_paths
from genlint.check.annotate import annotate_report
from support.headless import libreoffice_pdf

from .test_annotate import _contract


@pytest.mark.slow
def test_libreoffice_converts_the_copy_and_shows_every_comment(tmp_path: Path) -> None:
    import pypdfium2 as pdfium
    from pypdf import PdfReader

    source = tmp_path / "合同.docx"
    source.write_bytes(_contract())
    report = check_paths([source])
    done = annotate_report(report, str(tmp_path / "out"), lang="en")
    ((_, copy, count),) = done.written
    pdf = libreoffice_pdf(Path(copy), tmp_path)
    notes = []
    reader = PdfReader(str(pdf))
    document = pdfium.PdfDocument(str(pdf))
    for index, page in enumerate(reader.pages):
        textpage = document[index].get_textpage()
        for ref in page.get("/Annots", []):
            annot = ref.get_object()
            if annot["/Subtype"] != "/Text":
                continue
            x0, y0, _x1, y1 = (float(v) for v in annot["/Rect"])
            before = "".join(textpage.get_text_bounded(0, y0 - 1, x0 + 0.5, y1 + 1).split())
            notes.append((str(annot["/Contents"]), before))
    document.close()
    body = [f for f in report.findings if (f.location or {}).get("part") == "body"]
    hidden = len(report.findings) - len(body)
    assert len(notes) == count - hidden + (1 if hidden else 0)
    for f in body:
        if f.rule.startswith("document/"):
            continue
        # the note stands right after the finding's text on its line
        assert any(
            f"[{f.rule}]" in text and before.endswith("".join(f.text.split()))
            for text, before in notes
        ), (f, notes)
