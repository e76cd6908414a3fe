"""Benchmark of the PDF place list (run: .venv/bin/python benchmarks/bench_pdf_places.py).

1. ``genlint mask`` on PDFs with values in every hidden place (Info, XMP, annotations, links,
   form fields, outlines, attachments: tests/support/pdf_build.py's audit PDFs) against the same
   number of values on the page only: files/s and the ratio (what masking the hidden places
   costs on top of redacting the page).
2. Reading for ``check``: the reader with every place (PDFium's text, the hidden places,
   attachments read as files) against pypdf's page text alone (the reader before the place
   list), on the audit PDFs and on a 20-page document: ms per file and the ratio.
Bounded to well under a minute on a shared 2-core machine.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

FILES = 8
HIDDEN = ("info", "xmp", "annotation", "link", "form-field", "bookmark", "attachment-txt",
          "attachment-json")


def best_of(n: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(n):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def corpora() -> tuple[list[bytes], list[bytes], int]:
    """Audit PDFs with page text + every hidden place, and PDFs with as many values on the
    page only (one page-text line per value)."""
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    from support.pdf_build import audit_value, build_audit_pdf

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    hidden, page_only = [], []
    values = 0
    for i in range(FILES):
        data, planted = build_audit_pdf(i, ("page-text", *HIDDEN), first_value=i * 100)
        hidden.append(data)
        values += len(planted)
        buffer = io.BytesIO()
        c = canvas.Canvas(buffer)
        c.setFont("STSong-Light", 12)
        for n in range(len(planted)):
            c.drawString(72, 780 - 20 * n, f"联系方式：{audit_value(i * 100 + n)}，请核对。")
        c.showPage()
        c.setFont("STSong-Light", 12)
        c.drawString(72, 780, "第二页：附件与说明。")
        c.showPage()
        c.save()
        page_only.append(buffer.getvalue())
    return hidden, page_only, values


def long_document(pages: int = 20) -> bytes:
    import io

    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    buffer = io.BytesIO()
    c = canvas.Canvas(buffer)
    for p in range(pages):
        c.setFont("STSong-Light", 11)
        for n in range(40):
            c.drawString(60, 800 - 19 * n, f"第{p * 40 + n}条 双方应当按照本合同约定履行各自的义务，不得擅自变更。")
        c.showPage()
    c.save()
    return buffer.getvalue()


def mask_rate(files: list[bytes]) -> float:
    from genlint.mask import Masker
    from genlint.mask.pdf import mask_pdf

    def run() -> None:
        for i, data in enumerate(files):
            result = mask_pdf(f"f{i}.pdf", data, Masker())
            assert result.replacements

    return len(files) / best_of(2, run)


def read_ms(files: list[bytes], full: bool) -> float:
    from genlint.readers.pdf import read_pdf, text_pages

    def run() -> None:
        for i, data in enumerate(files):
            if full:
                read_pdf(f"f{i}.pdf", data)
            else:
                text_pages(f"f{i}.pdf", data)

    return best_of(3, run) / len(files) * 1000


def main() -> None:
    hidden, page_only, values = corpora()
    print(f"{FILES} PDFs, {values} values: page text + {len(HIDDEN)} hidden places each, "
          "against the same number of values on the page only")
    with_places = mask_rate(hidden)
    page = mask_rate(page_only)
    print(f"  mask, values in hidden places  {with_places:6.2f} files/s")
    print(f"  mask, values on the page only  {page:6.2f} files/s")
    print(f"  ratio hidden/page-only: {with_places / page:.2f}x")
    for label, files in (("audit PDFs", hidden), ("20-page document", [long_document()])):
        full, text = read_ms(files, True), read_ms(files, False)
        print(f"read for check, {label}: every place {full:7.1f} ms/file, pypdf page text "
              f"only {text:7.1f} ms/file ({full / text:.2f}x)")


if __name__ == "__main__":
    main()
