"""Benchmark of `genlint mask` (run: .venv/bin/python benchmarks/bench_mask.py).

1. Throughput of ``mask_text`` (keep-ends and token) on the check benchmark's text
   (``bench_check.corpus``: Chinese legal prose, a share of sentences carrying one planted
   problem), against ``check_text`` on the same text with the default packs and with the
   ``sensitive`` pack alone (issue 14's target: mask at least half the speed of check).
2. Seconds per DOCX (4,000 paragraphs, values in the body and a table) and per PDF page
   (40 lines a page, a value on every fifth line) for ``genlint mask`` end to end.
3. Presidio's analyzer + anonymizer on the same text, run by ``presidio_runner.py`` in the
   environment named by ``PRESIDIO_PYTHON`` (Presidio and spaCy are no genlint dependencies;
   offline, pattern recognizers with a blank spaCy pipeline): throughput and what each found.
   Without ``PRESIDIO_PYTHON`` it says it was skipped.
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_check import best_of, corpus  # noqa: E402

SIZE = 3_000_000  # bytes of text: large enough to be stable, small enough for a shared machine
LINE = "第{n}条 联系人手机号13812345{m:03d}，邮箱user{n}@example.com，其余条款照常履行。"


def text_throughput(text: str) -> None:
    from genlint.check import Checker
    from genlint.mask import Masker

    mb = len(text.encode("utf-8")) / 1e6
    default = Checker()
    sensitive = Checker("sensitive")
    keep = Masker()
    print(f"text: {mb:.1f} MB, {len(sensitive.check(text))} sensitive findings, "
          f"{len(default.check(text))} findings of the default packs")
    rows = [
        ("check_text (default packs)", lambda: default.check(text)),
        ("check_text (sensitive)", lambda: sensitive.check(text)),
        ("mask_text keep-ends", lambda: keep.mask(text)),
        ("mask_text token", lambda: Masker("token").mask(text)),
    ]
    speeds = {}
    for label, fn in rows:
        seconds = best_of(3, fn)
        speeds[label] = mb / seconds
        print(f"  {label:<28} {mb / seconds:7.2f} MB/s")
    ratio = speeds["mask_text keep-ends"] / speeds["check_text (default packs)"]
    ratio_s = speeds["mask_text keep-ends"] / speeds["check_text (sensitive)"]
    print(f"  mask/check: {ratio:.2f}x of check with the default packs, {ratio_s:.2f}x of the "
          "sensitive pack alone (target >= 0.5x)")


def documents() -> None:
    import docx

    from genlint.mask import Masker
    from genlint.mask.files import mask_bytes

    document = docx.Document()
    for n in range(4000):
        document.add_paragraph(LINE.format(n=n, m=n % 1000) if n % 5 == 0 else f"第{n}条 其余条款照常履行。")
    table = document.add_table(rows=40, cols=2)
    for i, row in enumerate(table.rows):
        row.cells[0].text = "身份证"
        row.cells[1].text = "11010519491231002X" if i % 2 else "普通文本"
    buffer = io.BytesIO()
    document.save(buffer)
    data = buffer.getvalue()
    masker = Masker()
    t = time.perf_counter()
    result = mask_bytes("bench.docx", data, masker)
    docx_s = time.perf_counter() - t
    print(f"DOCX: 4,000 paragraphs + 40-row table, {len(result.replacements)} values masked: "
          f"{docx_s:.2f} s per document")

    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    pages = 10
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench.pdf"
        c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
        for page in range(pages):
            c.setFont("STSong-Light", 10)
            for i in range(40):
                n = page * 40 + i
                line = LINE.format(n=n, m=n % 1000) if i % 5 == 0 else f"第{n}条 其余条款照常履行，双方确认无异议。"
                c.drawString(40, 800 - 19 * i, line)
            c.showPage()
        c.save()
        pdf = path.read_bytes()
    t = time.perf_counter()
    result = mask_bytes("bench.pdf", pdf, masker)
    pdf_s = time.perf_counter() - t
    print(f"PDF: {pages} pages, {len(result.replacements)} values redacted: "
          f"{pdf_s / pages:.3f} s per page")


def presidio(text: str) -> None:
    """Presidio in its own environment (``PRESIDIO_PYTHON``: a Python with presidio-analyzer,
    presidio-anonymizer and spaCy), on the first 300 KB of the same text."""
    import json
    import os
    import subprocess

    python = os.environ.get("PRESIDIO_PYTHON")
    if not python:
        print("Presidio: skipped (set PRESIDIO_PYTHON to a Python that has presidio-analyzer, "
              "presidio-anonymizer and spaCy; they are not genlint dependencies)")
        return
    sample = text[:100_000]
    mb = len(sample.encode()) / 1e6
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "sample.txt"
        path.write_text(sample, encoding="utf-8")
        run = subprocess.run([python, str(ROOT / "benchmarks" / "presidio_runner.py"), str(path)],
                             capture_output=True, text=True, timeout=600)
    if run.returncode != 0:
        print(f"Presidio: failed offline ({run.stderr.strip().splitlines()[-1:]})")
        return
    theirs = json.loads(run.stdout.strip().splitlines()[-1])
    from genlint.mask import Masker

    masker = Masker()
    seconds = best_of(3, lambda: masker.mask(sample))
    ours = masker.mask(sample)
    print(f"on {mb:.2f} MB of the same text:")
    print(f"  Presidio (pattern recognizers, blank zh pipeline) {mb / theirs['seconds']:7.2f} MB/s, "
          f"found {theirs['found']}")
    print(f"  genlint mask_text                                 {mb / seconds:7.2f} MB/s, "
          f"found {ours.counts}")


def main() -> None:
    text = corpus(SIZE, 0.055)
    text_throughput(text)
    documents()
    presidio(text)


if __name__ == "__main__":
    main()
