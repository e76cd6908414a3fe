"""Benchmark of silencing findings (run: .venv/bin/python benchmarks/bench_silencing.py).

What the ways to silence a finding (docs/configuration.md "Silencing findings") cost a
``genlint check`` run, on 200 text files of the check benchmark's prose with one problem in
twenty sentences, a third of them carrying inline ``genlint: ignore[…]`` directives:

1. ``check_paths`` with the allowlist, ``[check.per-file-ignores]`` and the inline
   directives, against the same run without them (the ratio is their price; ``exclude`` only
   saves work).
2. ``--baseline``: matching every finding against a baseline of all of them (keyed HMAC
   fingerprints), against the obvious alternative of ``--ignore``-style filtering by rule id
   (which cannot tell an accepted finding from a new one of the same rule).
3. ``--format github`` against ``--format sarif`` on the same report.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "benchmarks"))

from bench_check import best_of, corpus  # noqa: E402

FILES = 200
FILE_BYTES = 20_000


def make_tree(root: Path, directives: bool) -> int:
    text = corpus(FILES * FILE_BYTES, 0.05)
    size = 0
    for i in range(FILES):
        part = text[i * FILE_BYTES // 3 : (i + 1) * FILE_BYTES // 3]
        if directives and i % 3 == 0:
            lines = part.splitlines()
            part = "\n".join(
                f"{line} genlint: ignore[placeholder, sensitive]" if j % 2 else line
                for j, line in enumerate(lines)
            )
        folder = root / ("drafts" if i % 10 == 0 else "docs")
        folder.mkdir(exist_ok=True)
        (folder / f"f{i:03d}.txt").write_text(part, "utf-8")
        size += len(part.encode())
    return size


def main() -> None:
    from genlint.check import CheckConfig, check_paths
    from genlint.check.baseline import apply_baseline, baseline_json, load_baseline
    from genlint.check.reporters import render

    os.environ.setdefault("GENLINT_FINGERPRINT_KEY", "benchmark")
    with tempfile.TemporaryDirectory() as tmp:
        bare, root = Path(tmp) / "bare", Path(tmp) / "silenced"
        bare.mkdir()
        root.mkdir()
        bare_size = make_tree(bare, directives=False)
        size = make_tree(root, directives=True)
        plain = CheckConfig()
        silenced = CheckConfig.from_section(
            {
                "allowlist": ["某某大学", "甲方（盖章）："],
                # no exclude here: a file not read would make the run look faster
                "per-file-ignores": {"docs/f1*.txt": ["citation"]},
            }
        )
        silenced = CheckConfig(**{**silenced.__dict__, "root": str(root)})
        paths = [str(root)]
        plain_s = best_of(3, lambda: check_paths([str(bare)], config=plain))
        silenced_s = best_of(3, lambda: check_paths(paths, config=silenced))
        report = check_paths([str(bare)], config=plain)
        n = len(report.findings)
        kept = len(check_paths(paths, config=silenced).findings)
        print(f"{FILES} files, {size / 1e6:.1f} MB, {n} findings; {kept} left after silencing")
        print(
            f"check: plain {bare_size / plain_s / 1e6:.2f} MB/s, with allowlist + "
            f"per-file-ignores + inline {size / silenced_s / 1e6:.2f} MB/s "
            f"(ratio {silenced_s / plain_s:.2f}x the time)"
        )

        base_file = root / "baseline.json"
        base_file.write_text(baseline_json(report), "utf-8")
        baseline = load_baseline(str(base_file))
        base_s = best_of(3, lambda: apply_baseline(report, baseline))
        rules = {f.rule for f in report.findings}
        by_rule_s = best_of(3, lambda: [f for f in report.findings if f.rule not in rules])
        print(
            f"baseline: {n / base_s:,.0f} findings/s matched by fingerprint; filtering by rule "
            f"id {n / max(by_rule_s, 1e-9):,.0f}/s (ratio {base_s / max(by_rule_s, 1e-9):.0f}x; "
            f"{base_s / plain_s:.1%} of the check)"
        )
        github_s = best_of(3, lambda: render("github", report))
        sarif_s = best_of(3, lambda: render("sarif", report))
        print(
            f"report: github {n / github_s:,.0f} findings/s, sarif {n / sarif_s:,.0f}/s "
            f"(github takes {github_s / sarif_s:.2f}x the time of sarif)"
        )


if __name__ == "__main__":
    main()
