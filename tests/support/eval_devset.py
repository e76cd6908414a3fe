"""Scoring of the eval development set (tests/data/eval_dev/pages.json): per-reason precision
and recall over (page, claim, reason) and page pass/fail, shared by the test and
benchmarks/bench_eval.py so both report the same numbers."""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from genlint.eval import evaluate

DEV = Path(__file__).resolve().parents[1] / "data" / "eval_dev" / "pages.json"
REASONS = ("missing_ref", "invalid_ref", "misaligned", "over_inference", "redundant")

Key = tuple[str, int, str]


@dataclass
class DevScore:
    want: set[Key] = field(default_factory=set)
    got: set[Key] = field(default_factory=set)
    pages: dict[str, tuple[bool, bool]] = field(default_factory=dict)
    details: dict[Key, str] = field(default_factory=dict)

    def per_reason(self) -> dict[str, tuple[float, float, int]]:
        out = {}
        for reason in REASONS:
            w = {k for k in self.want if k[2] == reason}
            g = {k for k in self.got if k[2] == reason}
            tp = len(w & g)
            out[reason] = (tp / len(g) if g else 1.0, tp / len(w) if w else 1.0, len(w))
        return out

    def overall(self) -> tuple[float, float, float]:
        tp = len(self.want & self.got)
        p = tp / len(self.got) if self.got else 1.0
        r = tp / len(self.want) if self.want else 1.0
        return p, r, (2 * p * r / (p + r) if p + r else 0.0)

    def languages(self) -> Counter[str]:
        return Counter(case.split("_")[0] for case in self.pages)


def load_pages() -> list[dict]:
    return json.loads(DEV.read_text("utf-8"))["pages"]


def score() -> DevScore:
    s = DevScore()
    for page in load_pages():
        case = page["case"]
        result = evaluate(page["facts"], page["wiki"])
        for v in result.violations:
            key = (case, v.claim_index, v.reason)
            s.got.add(key)
            s.details[key] = v.detail
        s.want |= {(case, i, reason) for i, reason in page["violations"]}
        s.pages[case] = (page["pass"], result.passed)
    return s
