"""Benchmark: OCR of scanned A4 pages, each engine and setting on the same pages in one process,
and the mask round trip on scans.

Pages: A4 contract pages of tests/support/scans.py (Noto Sans CJK 12 pt, a phone number and a
resident ID among the body text, in 12, 9 or 8 point type), scanned at 150, 200 and 300 dpi,
turned by up to 3 degrees, with speckle noise; saved as an image-only PDF and rendered back by PDFium as ``check`` renders
them. Settings, taken in turn page by page (so a load spike on the shared machine hits all):

- ``onnxruntime s2 cls``: today's engine before issue 26 (RapidOCR onnxruntime, angle
  classifier always on, pages rendered at scale 2): the baseline of every ratio;
- ``openvino s2 cls``: the same models through OpenVINO;
- ``openvino s2 auto`` (the chosen setting): angle classifier only on a poorly read page;
- ``openvino s1.5 auto``: a lower render scale; with ``--full`` also ``openvino s2.5 auto``
  and ``onnxruntime s2 auto``.

Reported per setting: seconds per page (median and total wall time; CPU seconds per page, all
threads, which a loaded machine changes less), the speed-up over the baseline, text
agreement with the baseline (1 - normalised edit distance, difflib), and whether every
``sensitive`` finding of the baseline is found (by text). Then ``genlint mask`` on the scanned
PDF: pages per second, and the values left in the output read again by OCR (must be 0).

With ``--jobs 2`` (and 3 or more pages) the pages are also read in one process and across two,
as ``check --jobs 2`` reads a scan, worker start-up included.

Run: ``PYTHONPATH=src python benchmarks/bench_ocr.py [--pages 4] [--quick] [--full] [--jobs 2]``.
"""

from __future__ import annotations

import argparse
import difflib
import io
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))  # the scan renderer shared with the tests

from genlint.readers import ocr  # noqa: E402
from support.scans import PHONE, RESIDENT_ID, a4_page  # noqa: E402

# (dpi, degrees, noise, type size in points) of each scanned page, in turn
PAGES = [(200, 0.0, 0.0, 12), (300, 1.5, 0.002, 9), (150, -3.0, 0.004, 12), (200, 2.5, 0.0, 8)]
SETTINGS = [
    ("onnxruntime", 2.0, True),
    ("openvino", 2.0, True),
    ("openvino", 2.0, None),
    ("openvino", 1.5, None),
]
FULL = [("openvino", 2.5, None), ("onnxruntime", 2.0, None)]
CHOSEN = ("openvino", 2.0, None)


def _name(setting: tuple[str, float, bool | None]) -> str:
    engine, scale, angle = setting
    return f"{engine} s{scale:g} {'cls' if angle else 'auto'}"


def scanned_pdf(count: int) -> bytes:
    images = [
        a4_page(dpi, angle, noise, seed=i, points=points)
        for i, (dpi, angle, noise, points) in enumerate(PAGES[i % len(PAGES)] for i in range(count))
    ]
    buffer = io.BytesIO()
    # each page saved at its own dpi, so every page is A4 in points
    first, *rest = images
    first.save(buffer, "PDF", save_all=True, append_images=rest, resolution=PAGES[0][0])
    return buffer.getvalue()


def render(data: bytes, index: int, scale: float) -> Any:
    import pypdfium2 as pdfium

    pdf = pdfium.PdfDocument(data)
    try:
        return pdf[index].render(scale=scale).to_pil()
    finally:
        pdf.close()


def findings(text: str) -> set[str]:
    from genlint.mask.core import Masker

    return {f.text for f in _masker(Masker).find(text)}


def _masker(cls: Any, cache: dict[str, Any] = {}) -> Any:  # noqa: B006 - one per run
    return cache.setdefault("m", cls())


def agreement(a: str, b: str) -> float:
    squeeze = lambda s: "".join(s.split())  # noqa: E731 - line breaks are not text
    return difflib.SequenceMatcher(None, squeeze(a), squeeze(b), autojunk=False).ratio()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--pages", type=int, default=2, help="scanned A4 pages (default 2)")
    parser.add_argument("--quick", action="store_true", help="baseline and chosen setting only")
    parser.add_argument("--full", action="store_true", help="also scale 2.5 and onnxruntime auto")
    parser.add_argument(
        "--jobs",
        type=int,
        default=1,
        help="also read the pages across this many processes (3+ pages)",
    )
    args = parser.parse_args()
    if not ocr.available():
        print("needs the ocr extra: pip install 'genlint[ocr]'")
        return 2
    settings = [
        s
        for s in SETTINGS + (FULL if args.full else [])
        if not args.quick or s in (SETTINGS[0], CHOSEN)
    ]
    settings = [s for s in settings if ocr._installed(ocr.ENGINES[s[0]])]
    data = scanned_pdf(args.pages)
    print(
        f"{args.pages} scanned A4 pages (dpi, degrees, noise): "
        f"{[PAGES[i % len(PAGES)] for i in range(args.pages)]}; engine chosen here: "
        f"{ocr.engine_name()}"
    )
    for engine, _, _ in settings:  # model load (0.1-1 s) is not a page's time
        ocr.recognise(render(data, 0, 0.5), engine=engine, angle=False)
    times: dict[tuple[str, float, bool | None], list[float]] = {s: [] for s in settings}
    cpu: dict[tuple[str, float, bool | None], list[float]] = {s: [] for s in settings}
    texts: dict[tuple[str, float, bool | None], list[str]] = {s: [] for s in settings}
    for index in range(args.pages):
        images = {scale: render(data, index, scale) for scale in {s[1] for s in settings}}
        for setting in settings:
            engine, scale, angle = setting
            start, start_cpu = time.perf_counter(), time.process_time()
            text, _ = ocr.recognise(images[scale], scale, engine=engine, angle=angle)
            times[setting].append(time.perf_counter() - start)
            cpu[setting].append(time.process_time() - start_cpu)
            texts[setting].append(text)
    base = settings[0]
    base_total = sum(times[base])
    base_found = [findings(t) for t in texts[base]]
    print(
        f"\n{'setting':<22} {'s/page (median)':>15} {'total s':>8} {'CPU s/page':>10} "
        f"{'speed-up':>8} {'agreement':>9}  findings kept"
    )
    for setting in settings:
        total = sum(times[setting])
        agree = statistics.mean(
            agreement(a, b) for a, b in zip(texts[base], texts[setting], strict=True)
        )
        found = [findings(t) for t in texts[setting]]
        kept = all(b <= f for b, f in zip(base_found, found, strict=True))
        truth = all({PHONE, RESIDENT_ID} <= f for f in found)
        mark = " <- chosen" if setting == CHOSEN else ""
        print(
            f"{_name(setting):<22} {statistics.median(times[setting]):>15.2f} {total:>8.2f} "
            f"{sum(cpu[setting]) / args.pages:>10.2f} {base_total / total:>7.2f}x {agree:>9.4f}  {'yes' if kept else 'NO'}"
            f" (both planted values: {'yes' if truth else 'NO'}){mark}"
        )
    if args.jobs > 1:
        parallel_pages(data, args.pages, args.jobs)
    mask_round_trip(data, args.pages)
    return 0


def parallel_pages(data: bytes, pages: int, jobs: int) -> None:
    """The scanned PDF's pages by OCR in one process and across ``jobs`` (worker start-up
    included, as a user meets it), with the identical-result check."""
    indexes = list(range(pages))
    start = time.perf_counter()
    alone = ocr.ocr_pdf_pages("scan.pdf", data, indexes)
    one = time.perf_counter() - start
    gate = ocr._useful_processes
    ocr._useful_processes = lambda: jobs  # type: ignore[assignment] - measured whatever the load
    start = time.perf_counter()
    try:
        with ocr.page_jobs(jobs):
            shared = ocr.ocr_pdf_pages("scan.pdf", data, indexes)
    finally:
        ocr._useful_processes = gate  # type: ignore[assignment]
    many = time.perf_counter() - start
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(
        f"\npages in parallel: {pages} pages, 1 process {one:.2f} s, {jobs} processes "
        f"{many:.2f} s ({one / many:.2f}x, worker start included; load average {load:.1f} on "
        f"{os.cpu_count()} cores), identical: {shared == alone}"
    )


def mask_round_trip(data: bytes, pages: int) -> None:
    from genlint.mask.core import Masker
    from genlint.mask.files import mask_bytes

    start = time.perf_counter()
    result = mask_bytes("scan.pdf", data, Masker())
    elapsed = time.perf_counter() - start
    out = ocr.ocr_pdf_pages("scan.pdf", result.data, list(range(pages)))
    left = 0
    for text, _ in out.values():
        flat = "".join(text.split())
        left += flat.count(PHONE) + flat.count(RESIDENT_ID[:-1]) + len(findings(text))
    print(
        f"\nmask round trip: {pages} pages in {elapsed:.2f} s ({pages / elapsed:.2f} pages/s, "
        f"OCR of each page before and after its boxes), {len(result.replacements)} values "
        f"covered, values left readable by OCR in the output: {left} (must be 0)"
    )


if __name__ == "__main__":
    sys.exit(main())
