"""Benchmark of the PDF layout step (:mod:`genlint.readers.pdf_layout`): reading invoice-like
PDFs whose labels the text layer prints apart from their values, with the layout measured
(labels with a value elsewhere are not empty fields) against the obvious alternative, the same
read deciding from the text alone. Prints pages per second for both, their ratio, and the
empty-field findings each leaves (the false alarms the layout step removes).

Run: .venv/bin/python benchmarks/bench_pdf_layout.py [PAGES]
The PDFs are generated here with reportlab (STSong-Light, no font file); nothing is fetched.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

LABELS = [
    "购买方名称：",
    "纳税人识别号：",
    "地址、电话：",
    "开户行及账号：",
    "Invoice No.:",
    "Due Date:",
]
VALUES = [
    "华创科技有限公司",
    "91310000MA1FL1234X",
    "上海市张江路1号",
    "工商银行张江支行",
    "INV-0001",
    "2026-03-01",
]


def make_invoices(path: Path, pages: int) -> Path:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4)
    for _ in range(pages):
        c.setFont("STSong-Light", 10)
        for block in range(4):  # four blocks a page, labels drawn first, values after
            top = 780 - block * 190
            for i, label in enumerate(LABELS):
                c.drawString(40, top - 18 * i, label)
            for i, value in enumerate(VALUES):
                c.drawString(150, top - 18 * i, value)
            c.drawString(40, top - 18 * len(LABELS), "本发票由系统开具，金额以大写为准。" * 2)
        c.showPage()
    c.save()
    return path


def run(path: Path, measure: bool) -> tuple[float, int]:
    from genlint.check import check_paths
    from genlint.readers import pdf_layout

    original = pdf_layout.labels_with_values
    if not measure:
        pdf_layout.labels_with_values = lambda *a, **k: frozenset()  # type: ignore[assignment]
    try:
        start = time.perf_counter()
        report = check_paths([str(path)], select=["placeholder/empty-field"])
        seconds = time.perf_counter() - start
    finally:
        pdf_layout.labels_with_values = original
    return seconds, len(report.findings)


def main() -> None:
    pages = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    with tempfile.TemporaryDirectory() as tmp:
        path = make_invoices(Path(tmp) / "invoices.pdf", pages)
        run(path, True)  # warm up imports and PDFium
        text_s, text_found = min(run(path, False) for _ in range(3))
        layout_s, layout_found = min(run(path, True) for _ in range(3))
    print(f"{pages} invoice pages, {len(LABELS) * 4} labels a page, values drawn apart")
    print(
        f"text only (the alternative): {pages / text_s:8.1f} pages/s, {text_found} empty-field findings"
    )
    print(
        f"with the layout step:        {pages / layout_s:8.1f} pages/s, {layout_found} empty-field findings"
    )
    print(f"time ratio layout/text: {layout_s / text_s:.2f}x")


if __name__ == "__main__":
    main()
