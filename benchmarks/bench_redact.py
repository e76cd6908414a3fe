"""Benchmark of masking personal values in reports (run: .venv/bin/python benchmarks/bench_redact.py).

What "reports never copy personal data" costs a ``genlint check`` run, on a dense file: the
check benchmark's prose (``bench_check.corpus``) with a phone number, an ID number and an
e-mail address on every line, so most lines hold several values and every shown line must be
masked for each of them.

1. ``mask_report`` (genlint.check.redact) on the whole report, against the obvious alternative
   of masking each finding on its own (``mask_finding``: text, message and its own value in
   its line; it leaves the line's other values showing, which is why reports do not use it).
2. The text and SARIF reporters end to end, masked against ``--show-values`` (no masking):
   the ratio is the price of the default; SARIF includes the HMAC fingerprints.
3. The check itself, for scale: masking should be a small share of a run.
"""

from __future__ import annotations

import os
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_check import best_of, corpus  # noqa: E402

SIZE = 1_000_000  # bytes of prose; the values add about half as much again


def dense_text(seed: int = 5) -> str:
    from genlint.check.rules.sensitive.checks import id_check_char

    rng = random.Random(seed)
    lines = []
    for i, line in enumerate(corpus(SIZE, 0.0).splitlines()):
        first = f"110105{rng.randint(1950, 2005)}{rng.randint(1, 12):02d}{rng.randint(1, 28):02d}{i % 1000:03d}"
        phone = f"13{rng.randint(0, 9)}{rng.randint(0, 99_999_999):08d}"
        lines.append(
            f"{line[:40]}电话{phone}，身份证{first}{id_check_char(first)}，邮箱u{i}@example.com。{line[40:]}"
        )
    return "\n".join(lines)


def main() -> None:
    from dataclasses import replace

    from genlint.check import Checker
    from genlint.check.redact import mask_finding, mask_report
    from genlint.check.report import CheckReport, FileResult
    from genlint.check.reporters import render

    os.environ.setdefault("GENLINT_FINGERPRINT_KEY", "benchmark")
    text = dense_text()
    checker = Checker()
    check_s = best_of(1, lambda: checker.check(text))
    findings = checker.check(text)
    personal = sum(f.rule.startswith("sensitive/") for f in findings)
    report = CheckReport(files=[FileResult("dense.txt", findings=findings)], rules=checker.rules)
    print(
        f"dense text: {len(text.encode()) / 1e6:.1f} MB, {len(findings):,} findings "
        f"({personal:,} personal); check {check_s:.2f} s"
    )

    whole = best_of(3, lambda: mask_report(report))
    alone = best_of(3, lambda: [mask_finding(f) for f in findings])
    print(
        f"  mask_report (every value in every shown line) {len(findings) / whole:10,.0f} findings/s"
        f"  ({whole * 1000:.0f} ms)"
    )
    print(
        f"  mask_finding per finding (own value only)     {len(findings) / alone:10,.0f} findings/s"
        f"  ({alone * 1000:.0f} ms); ratio {whole / alone:.2f}x the time"
    )
    as_found = replace(report, show_values=True)
    for fmt in ("text", "sarif"):
        masked = best_of(3, lambda fmt=fmt: render(fmt, report))  # each reporter masks
        shown = best_of(3, lambda fmt=fmt: render(fmt, as_found))
        print(
            f"  {fmt:<5} report: masked {masked:.2f} s, --show-values {shown:.2f} s "
            f"({masked / shown:.2f}x); masking is {whole / check_s:.1%} of the check's time"
        )


if __name__ == "__main__":
    main()
