"""Score ``genlint.parse_json`` and json-repair alone on any generator of broken replies.

A generator is a directory (or the path of its ``gen.py``) with the interface of
/work/shared/corpora/parse-replies: ``gen.py SEED OUT.jsonl [HUGE_PER_DEFECT]`` writes one case a
line (``id``, ``cat``, ``sub``, ``text``, ``truth``, ``held``) and ``score.py`` defines
``score(case, held_counter, ok, value)`` and ``tup(path)``. Both parsers run in this one process on
the same cases; per kind (``cat``) the table gives exact, silent (a value returned with no lossy
flag although a held leaf is lost or changed), flagged (lossy), false alarms (lossy although
nothing held was lost) and no value, plus p99 milliseconds per reply.

Run: ``.venv/bin/python benchmarks/bench_parse.py generator PATH [SEED]``.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any


def _load_scorer(directory: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("_generator_score", directory / "score.py")
    if spec is None or spec.loader is None:
        raise SystemExit(f"no score.py in {directory}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _cases(gen: Path, seed: int, huge: int) -> list[dict[str, Any]]:
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "cases.jsonl"
        subprocess.run(
            [sys.executable, str(gen), str(seed), str(out), str(huge)],
            check=True,
            capture_output=True,
        )
        with out.open(encoding="utf-8") as handle:
            return [json.loads(line) for line in handle]


class _Tally:
    def __init__(self) -> None:
        self.n = self.exact = self.silent = self.flagged = self.false_alarm = self.novalue = 0
        self.times: list[float] = []

    def add(self, verdict: dict[str, Any], ok: bool, lossy: bool, seconds: float) -> None:
        self.n += 1
        self.exact += bool(verdict["exact"])
        self.novalue += not ok
        self.times.append(seconds)
        if (
            ok
            and not lossy
            and (verdict["lost"] > 0 or (not verdict["trunc"] and verdict["extra"]))
        ):
            self.silent += 1
        if ok and lossy:
            self.flagged += 1
            self.false_alarm += verdict["lost"] == 0

    def row(self) -> str:
        def pct(k: int) -> str:
            return f"{100 * k / self.n:6.2f}%" if self.n else "     -"

        times = sorted(self.times)
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))] * 1e3 if times else 0.0
        return (
            f"{self.n:6d} {pct(self.exact)} {pct(self.silent)} {pct(self.flagged)} "
            f"{pct(self.false_alarm)} {pct(self.novalue)} {p99:8.2f}"
        )


def _genlint(text: str) -> tuple[bool, Any, bool]:
    from genlint import parse_json

    result = parse_json(text)
    return result.ok, result.value, result.lossy


def _json_repair_alone(text: str) -> tuple[bool, Any, bool]:
    import json_repair

    value = json_repair.loads(text)
    return value != "" or text.strip() in ('""', "''"), value, False


def score_generator(path: str, seed: int = 1, huge: int = 2) -> None:
    where = Path(path)
    directory = where if where.is_dir() else where.parent
    gen = directory / "gen.py" if where.is_dir() else where
    scorer = _load_scorer(directory)
    cases = [c for c in _cases(gen, seed, huge) if c["cat"] != "multi_json"]
    print(
        f"generator {gen} seed {seed}: {len(cases)} cases (multi_json left out, as score.py does)"
    )
    header = "        n   exact  silent flagged  falsealarm novalue  p99 ms"
    parsers: tuple[tuple[str, Callable[[str], tuple[bool, Any, bool]]], ...] = (
        ("genlint.parse_json", _genlint),
        ("json_repair.loads alone", _json_repair_alone),
    )
    for name, parse in parsers:
        tallies: dict[str, _Tally] = defaultdict(_Tally)
        total = _Tally()
        silent_subs: Counter[str] = Counter()
        for case in cases:
            held = Counter((scorer.tup(g), tuple(c)) for g, c in case["held"])
            start = time.perf_counter()
            try:
                ok, value, lossy = parse(case["text"])
            except Exception:  # json-repair alone may raise on odd input (an assert)
                ok, value, lossy = False, None, False
            seconds = time.perf_counter() - start
            verdict = scorer.score(case, held, ok, value)
            before = total.silent
            for tally in (tallies[case["cat"]], total):
                tally.add(verdict, ok, lossy, seconds)
            if total.silent > before:
                silent_subs[f"{case['cat']}/{case['sub']}"] += 1
        print(f"   {name}\n   {header}")
        for category, tally in sorted(tallies.items()):
            print(f"   {tally.row()}  {category}")
        print(f"   {total.row()}  ALL")
        print(f"   most silent: {silent_subs.most_common(8)}")
