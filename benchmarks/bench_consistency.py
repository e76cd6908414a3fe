"""Precision and recall of each consistency rule on its labelled corpus, and the pack's added
time on ``check``: ``python benchmarks/bench_consistency.py``."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path

from genlint import check_text

CORPUS = Path(__file__).parent / "corpora" / "consistency"


def main() -> int:
    labels = json.loads((CORPUS / "labels.json").read_text(encoding="utf-8"))["labels"]
    tp: Counter[str] = Counter()
    fp: Counter[str] = Counter()
    fn: Counter[str] = Counter()
    texts = []
    false_alarms = 0
    for name, expected in sorted(labels.items()):
        text = (CORPUS / name).read_text(encoding="utf-8")
        texts.append(text)
        found = Counter((f.rule, f.text) for f in check_text(text, select="consistency"))
        want = Counter((rule, t) for rule, t in expected)
        for key in found | want:
            hit = min(found[key], want[key])
            tp[key[0]] += hit
            fp[key[0]] += found[key] - hit
            fn[key[0]] += want[key] - hit
            if found[key] > hit:
                false_alarms += found[key] - hit
                print(f"  false alarm {name}: {key}", file=sys.stderr)
            if want[key] > hit:
                print(f"  missed {name}: {key}", file=sys.stderr)
    print(f"{'rule':32} {'P':>6} {'R':>6}  tp fp fn")
    for rule in sorted(set(tp) | set(fp) | set(fn)):
        p = tp[rule] / (tp[rule] + fp[rule]) if tp[rule] + fp[rule] else 1.0
        r = tp[rule] / (tp[rule] + fn[rule]) if tp[rule] + fn[rule] else 1.0
        print(f"{rule:32} {p:6.3f} {r:6.3f}  {tp[rule]} {fp[rule]} {fn[rule]}")
    print(f"files {len(labels)}, false alarms {false_alarms}")
    big = "\n\n".join(texts * 200)
    check_text(big)
    check_text(big, select="placeholder,sensitive,citation,document,consistency")
    started = time.perf_counter()
    check_text(big)
    base = time.perf_counter() - started
    started = time.perf_counter()
    check_text(big, select="placeholder,sensitive,citation,document,consistency")
    both = time.perf_counter() - started
    print(
        f"check on {len(big):,} chars: default {base:.3f} s, with consistency {both:.3f} s "
        f"(+{(both - base) / base:.0%})"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
