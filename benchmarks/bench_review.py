"""Benchmark of the review outputs (run: .venv/bin/python benchmarks/bench_review.py).

1. The text report on long Chinese paragraphs (a DOCX paragraph is one line): the fitted report
   (windows in display columns, wcwidth) against the obvious alternative, printing each whole
   line with a caret line (what the report did before), in findings per second and in the
   rows a person scrolls through at 80 columns.
2. ``--annotate`` on a DOCX: review-copy time against the check of the same file, and against
   the obvious alternative of one python-docx comment per paragraph (no run splitting, so the
   comment covers the whole paragraph instead of the finding).
3. ``--annotate`` on a PDF: highlights per second against the check of the same file.
4. ``--format html`` for 10,000 findings against ``--format json`` of the same report.
"""

from __future__ import annotations

import io
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

PARAGRAPH = (
    "本合同由甲乙双方于签订，双方同意如下条款。" * 12
    + "甲方：某某公司，联系电话13812345678，签订日期：X年X月X日。"
    + "双方同意如下条款，😀并遵守相关法律法规。" * 12
)


def timed(fn: Callable[[], object], repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - started)
    return best


def whole_lines(report: object) -> str:
    """The alternative: every finding's whole line and a caret line under it."""
    import unicodedata

    def cells(text: str) -> int:
        return sum(2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)

    out = []
    for f in report.findings:  # type: ignore[attr-defined]
        line = f.source_line or ""
        out.append(f"{f.rule} {f.message}")
        out.append("    " + line)
        out.append("    " + " " * cells(line[: f.source_column]) + "^" * cells(f.text))
    return "\n".join(out)


def rows(text: str, width: int) -> int:
    from genlint.check.reporters._cells import cells

    return sum(max(1, -(-cells(line) // width)) for line in text.splitlines())


def main() -> None:
    import docx

    from genlint import check_paths
    from genlint.check.annotate import annotate_report
    from genlint.check.reporters import render
    from genlint.check.reporters import text as text_report
    from support.pdf_build import make_pdf

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        # 1. text report
        source = folder / "long.txt"
        source.write_text("\n".join([PARAGRAPH] * 400) + "\n", "utf-8")
        report = check_paths([source])
        n = len(report.findings)
        # every finding shown (the report folds repeats of one text; the alternative does not)
        text_report._SHOWN_REPEATS = n
        fitted_s = timed(lambda: text_report.render(report, width=80))
        whole_s = timed(lambda: whole_lines(report))
        fitted_rows = rows(text_report.render(report, width=80), 80)
        whole_rows = rows(whole_lines(report), 80)
        print(f"text report, {n} findings in 400 paragraphs of {len(PARAGRAPH)} characters:")
        print(f"  fitted (80 columns):   {n / fitted_s:>10,.0f} findings/s, {fitted_rows:,} rows")
        print(f"  whole lines (before):  {n / whole_s:>10,.0f} findings/s, {whole_rows:,} rows")
        print(
            f"  ratio: {fitted_s / whole_s:.2f}x the time, {whole_rows / fitted_rows:.1f}x fewer rows"
        )

        # 2. DOCX
        document = docx.Document()
        for i in range(300):
            document.add_paragraph(
                f"第{i + 1}条 甲方：某某公司，电话13812345678，日期：X年X月X日。"
            )
        path = folder / "contract.docx"
        document.save(str(path))
        check_s = timed(lambda: check_paths([path]), 1)
        report = check_paths([path])
        n = len(report.findings)
        out = folder / "review"
        annotate_s = timed(lambda: annotate_report(report, str(out), lang="en"), 1)

        def per_paragraph() -> None:
            copy = docx.Document(str(path))
            for paragraph in copy.paragraphs:
                copy.add_comment(paragraph.runs, text="finding", author="genlint")
            copy.save(io.BytesIO())

        naive_s = timed(per_paragraph, 1)
        print(f"DOCX review copy, {n} findings in 300 paragraphs:")
        print(f"  --annotate:            {n / annotate_s:>10,.0f} comments/s ({annotate_s:.2f} s)")
        print(
            f"  check alone:           {check_s:.2f} s (annotate = {annotate_s / check_s:.1f}x the check)"
        )
        print(
            f"  comment per paragraph: {naive_s:.2f} s (exact ranges cost {annotate_s / naive_s:.1f}x)"
        )

        # 3. PDF
        pages = [
            [f"第{p}页第{i}行 甲方：某某公司，电话13812345678。" for i in range(30)]
            for p in range(10)
        ]
        pdf_path = make_pdf(folder / "brief.pdf", pages)
        check_s = timed(lambda: check_paths([pdf_path]), 1)
        report = check_paths([pdf_path])
        n = len(report.findings)
        annotate_s = timed(lambda: annotate_report(report, str(out), lang="en"), 1)
        print(f"PDF review copy, {n} findings on 10 pages:")
        print(
            f"  --annotate:            {n / annotate_s:>10,.0f} highlights/s ({annotate_s:.2f} s)"
        )
        print(
            f"  check alone:           {check_s:.2f} s (annotate = {annotate_s / check_s:.1f}x the check)"
        )

        # 4. HTML
        big = folder / "big.txt"
        big.write_text("".join(f"第{i}条 甲方：某某公司{i}\n" for i in range(10_000)), "utf-8")
        report = check_paths([big])
        html_s = timed(lambda: render("html", report), 1)
        json_s = timed(lambda: render("json", report), 1)
        size = len(render("html", report).encode())
        print(f"HTML report, {len(report.findings):,} findings:")
        print(
            f"  --format html:         {len(report.findings) / html_s:>10,.0f} findings/s, {size / 1e6:.1f} MB"
        )
        print(f"  --format json:         {len(report.findings) / json_s:>10,.0f} findings/s")
        print(f"  ratio: html takes {html_s / json_s:.1f}x json")


if __name__ == "__main__":
    main()
