"""An independent labelled set for the placeholder and sensitive packs (SPEC §1 labelling rules),
scored like the hidden set: per pack, span-exact matches of (pack, flagged text)."""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import pytest

from genlint import check_text

CASES: list[dict] = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "check" / "audit_cases.json").read_text("utf-8")
)
PACKS = ("placeholder", "sensitive")
TARGET = 0.97


def _found(case: dict) -> Counter[tuple[str, str]]:
    findings = check_text(case["text"], select=list(PACKS), markdown=case.get("markdown", False))
    return Counter((f.rule.split("/", 1)[0], f.text) for f in findings)


def _score(pack: str) -> tuple[float, float, list[str]]:
    tp = fp = fn = 0
    failures: list[str] = []
    for case in CASES:
        expected = Counter((p, t) for p, t in case["expect"] if p == pack)
        found = Counter({k: n for k, n in _found(case).items() if k[0] == pack})
        tp += sum((expected & found).values())
        extra, missed = found - expected, expected - found
        fp += sum(extra.values())
        fn += sum(missed.values())
        if extra or missed:
            failures.append(
                f"{case['text']!r}: extra {sorted(t for _, t in extra.elements())}"
                f" missed {sorted(t for _, t in missed.elements())}"
            )
    precision = tp / (tp + fp) if tp + fp else 1.0
    recall = tp / (tp + fn) if tp + fn else 1.0
    return precision, recall, failures


def test_audit_set_is_well_formed() -> None:
    assert len(CASES) >= 250
    for case in CASES:
        for pack, text in case["expect"]:
            assert pack in PACKS and text in case["text"], case
    # both packs have positives and traps, so precision and recall both mean something
    for pack in PACKS:
        assert sum(p == pack for c in CASES for p, _ in c["expect"]) >= 40
    assert sum(not c["expect"] for c in CASES) >= 80


@pytest.mark.parametrize("pack", PACKS)
def test_precision_and_recall_meet_target(pack: str) -> None:
    precision, recall, failures = _score(pack)
    assert precision >= TARGET and recall >= TARGET, (
        f"{pack}: precision {precision:.3f} recall {recall:.3f}\n" + "\n".join(failures)
    )
