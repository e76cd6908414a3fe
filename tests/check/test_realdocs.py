"""The real-document corpus of our own (benchmarks/corpora/realdocs-own) and the scoring of
benchmarks/bench_realdocs.py. Neither needs realdocs-dev or the corpus files to be present."""

from __future__ import annotations

import csv
import importlib.util
import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OWN = ROOT / "benchmarks" / "corpora" / "realdocs-own"


def _bench():  # type: ignore[no-untyped-def]
    spec = importlib.util.spec_from_file_location(
        "bench_realdocs", ROOT / "benchmarks" / "bench_realdocs.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("bench_realdocs", module)  # its dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _cases() -> list[dict]:
    return [
        json.loads(line)
        for line in (OWN / "expect.jsonl").read_text("utf-8").splitlines()
        if line.strip()
    ]


def test_every_label_is_well_formed_and_every_file_has_its_origin() -> None:
    cases = _cases()
    with (OWN / "sources.tsv").open(encoding="utf-8") as fh:
        sources = {row["file"]: row for row in csv.DictReader(fh, delimiter="\t")}
    assert {c["file"] for c in cases} == set(sources)
    for case in cases:
        assert case["verdict"] in ("dirty", "clean")
        assert case["verdict"] == "clean" or case["must_find"], case["file"]
        for item in case["must_find"]:
            re.compile(item["text_re"])
            assert item["min"] >= 1 and item["why"] and item["class"]
        for item in case.get("must_not_find", []):
            re.compile(item["text_re"])
            assert item["why"]
    for row in sources.values():
        assert re.fullmatch(r"[0-9a-f]{40}", row["commit"]) and row["repo"].count("/") == 1
        assert row["licence"] and row["vendored"] in ("yes", "no")


def test_scoring_counts_misses_false_alarms_and_verdicts() -> None:
    bench = _bench()
    case = {
        "file": "a.txt",
        "verdict": "dirty",
        "must_find": [
            {
                "rule": "placeholder/",
                "text_re": "^姓名[：:]",
                "min": 2,
                "why": "x",
                "class": "empty-field",
            },
            {"rule": "placeholder/blank-date", "text_re": "年", "min": 1, "why": "x"},
        ],
        "must_not_find": [{"text_re": "^说明", "why": "a heading above its lines"}],
    }
    findings = [
        {"rule": "placeholder/empty-field", "text": "姓名："},
        {"rule": "placeholder/blank-date", "text": "  年 月 日"},
        {"rule": "placeholder/empty-field", "text": "说明："},
    ]
    result = {"case": case, "findings": findings, "error": None, "rc": 1, "seconds": 0.5}
    score = bench.score([result, {"case": {**case, "file": "b.txt"}, "skipped": True}])
    assert score.found == {"blank-date": 1}  # one 姓名： of the two wanted
    assert score.total == {"empty-field": 1, "blank-date": 1}
    assert score.alarms == {"heading": 1}
    assert (score.verdicts, score.files, score.skipped) == (1, 1, 1)
    clean = bench.score([{**result, "case": {**case, "verdict": "clean"}}])
    assert clean.verdicts == 0  # a clean file with findings is a wrong verdict
    table = bench.table({"own": score})
    assert "empty-field" in table and "0/1" in table and "verdicts right" in table


def test_item_class_reads_rule_and_pattern() -> None:
    bench = _bench()
    assert bench.item_class({"rule": "sensitive/resident-id", "text_re": "x"}) == "resident-id"
    assert bench.item_class({"rule": "placeholder/mou-name", "text_re": "x"}) == "mou"
    assert bench.item_class({"rule": "placeholder/", "text_re": "^名称[：:]"}) == "empty-field"
    assert bench.item_class({"rule": "placeholder/", "text_re": "年\\s*月"}) == "blank-date"
    assert bench.item_class({"rule": "placeholder/", "text_re": "x", "class": "role"}) == "role"
