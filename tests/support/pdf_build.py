"""Real PDFs with Chinese text for the tests (reportlab's built-in STSong-Light CID font, no
font file), optionally encrypted with pypdf."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path


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
