"""Reading documents: DOCX and PDF MB/s against the obvious alternative, OCR seconds per page,
and peak memory on a 200-page PDF (run: .venv/bin/python benchmarks/bench_documents.py; also
run by bench_check.py).

Throughput is MB of extracted text (UTF-8) per second.

* DOCX: genlint's reader (the whole document: text boxes, revisions, notes, comments, with
  locations) against python-docx's object model reading body paragraphs and table cells only.
* PDF: genlint's reader against pypdf's ``extract_text`` on every page (what it builds on).
* OCR: a full A4 page of Chinese text, rendered at 150 dpi, image-only PDF, read end to end.
"""

from __future__ import annotations

import io
import subprocess
import sys
import tempfile
import time
from pathlib import Path

LINE = "第{n}条 乙方应于合同签订后十日内向甲方支付货款人民币50,000元，联系人张某，电话13812345678。"


def best_of(n: int, fn) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(n):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return min(times)


def make_docx(paragraphs: int) -> bytes:
    import docx

    document = docx.Document()
    for n in range(paragraphs):
        document.add_paragraph(LINE.format(n=n))
    table = document.add_table(rows=paragraphs // 10, cols=3)
    for row in table.rows:
        for cell in row.cells:
            cell.text = "某某公司"
    buffer = io.BytesIO()
    document.save(buffer)
    return buffer.getvalue()


def python_docx_text(data: bytes) -> str:
    import docx

    document = docx.Document(io.BytesIO(data))
    lines = [p.text for p in document.paragraphs]
    for table in document.tables:
        lines.extend(cell.text for row in table.rows for cell in row.cells)
    return "\n".join(lines)


def make_pdf(path: Path, pages: int) -> None:
    from reportlab.lib.pagesizes import A4
    from reportlab.pdfbase import pdfmetrics
    from reportlab.pdfbase.cidfonts import UnicodeCIDFont
    from reportlab.pdfgen import canvas

    pdfmetrics.registerFont(UnicodeCIDFont("STSong-Light"))
    c = canvas.Canvas(str(path), pagesize=A4, invariant=True)
    for page in range(pages):
        c.setFont("STSong-Light", 10)
        for i in range(40):
            c.drawString(40, 800 - 19 * i, LINE.format(n=page * 40 + i)[:48])
        c.showPage()
    c.save()


def docx_throughput() -> None:
    from genlint.readers import docx as reader

    data = make_docx(4000)
    # MB of extracted text (UTF-8): the ZIP is small because contract text compresses well
    mb = len(reader.read("b.docx", data).segments[0].text.encode()) / 1e6
    ours = best_of(3, lambda: reader.read("b.docx", data))
    plain = best_of(3, lambda: python_docx_text(data))
    print(f"DOCX read: {len(data) / 1e6:.2f} MB file, 4,000 paragraphs + a 400-row table, "
          f"{mb:.2f} MB of text")
    print(f"  genlint      {mb / ours:6.2f} MB/s ({ours:.3f} s): whole document with locations")
    print(f"  python-docx  {mb / plain:6.2f} MB/s ({plain:.3f} s): body paragraphs and cells only")
    print(f"  ratio        {plain / ours:6.2f}x")


def pdf_throughput(tmp: Path) -> None:
    from pypdf import PdfReader

    from genlint.readers import pdf as reader

    path = tmp / "b.pdf"
    make_pdf(path, 50)
    data = path.read_bytes()
    mb = len(reader.read("b.pdf", data).segments[0].text.encode()) / 1e6  # MB of text
    ours = best_of(2, lambda: reader.read("b.pdf", data))
    plain = best_of(2, lambda: [p.extract_text() for p in PdfReader(io.BytesIO(data)).pages])
    print(f"PDF read: {len(data) / 1e6:.2f} MB file, 50 pages, {mb:.2f} MB of Chinese text")
    print(f"  genlint  {mb / ours:6.2f} MB/s ({50 / ours:5.1f} pages/s)")
    print(f"  pypdf    {mb / plain:6.2f} MB/s ({50 / plain:5.1f} pages/s): extract_text alone")
    print(f"  ratio    {plain / ours:6.2f}x")


def pdf_peak_memory(tmp: Path) -> None:
    path = tmp / "big.pdf"
    make_pdf(path, 200)
    code = (
        "import resource, sys\n"
        "from genlint import check_paths\n"
        "r = check_paths([sys.argv[1]])\n"
        "print(len(r.findings), resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"
    )
    base = subprocess.run(
        [sys.executable, "-c", "import resource, genlint, pypdf; "
         "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)"],
        capture_output=True, text=True, check=True,
    )
    out = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True, text=True,
                         check=True)
    findings, peak = out.stdout.split()
    print(
        f"PDF peak memory: 200 pages ({path.stat().st_size / 1e6:.1f} MB), {findings} findings: "
        f"{int(peak) / 1024:.0f} MB peak RSS ({int(base.stdout) / 1024:.0f} MB after imports)"
    )


def ocr_seconds_per_page(tmp: Path) -> None:
    from genlint.readers import ocr

    if not ocr.available():
        print("OCR: skipped (pip install 'genlint[ocr]')")
        return
    from PIL import Image, ImageDraw, ImageFont

    font_path = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc"
    if not Path(font_path).exists():
        print("OCR: skipped (no CJK font: make system-deps)")
        return
    font = ImageFont.truetype(font_path, 22, index=2)
    image = Image.new("L", (1240, 1754), 255)  # A4 at 150 dpi
    draw = ImageDraw.Draw(image)
    for i in range(36):
        draw.text((90, 100 + 44 * i), LINE.format(n=i)[:40], font=font, fill=0)
    path = tmp / "scan.pdf"
    image.save(path, resolution=150)
    from genlint.readers import pdf as reader

    t = time.perf_counter()
    reader.read("warm.pdf", path.read_bytes())  # loads the models once
    first = time.perf_counter() - t
    second = best_of(1, lambda: reader.read("scan.pdf", path.read_bytes()))
    print(f"OCR: an A4 page of 36 Chinese lines, rendered at 2x: {second:.2f} s per page "
          f"(first page {first:.2f} s, with model loading)")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        docx_throughput()
        pdf_throughput(Path(tmp))
        pdf_peak_memory(Path(tmp))
        ocr_seconds_per_page(Path(tmp))


if __name__ == "__main__":
    main()
