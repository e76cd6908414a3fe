"""`genlint check` on real documents: recall per class, false alarms per trap class, file
verdicts and seconds per file, over the labelled real-document corpora, as one table.

Run: .venv/bin/python benchmarks/bench_realdocs.py [--dev DIR] [--own DIR] [--only SUBSTR]

Every corpus under ``../shared/corpora/`` is scored by default: realdocs-dev and realdocs-own in
this table, realdocs-2 and realdocs-3 (labels in the format of their READMEs) by the corpora's own
``score_labelled.py``, whose summary lines follow the table. Without ``../shared`` (a user's
clone) the shared corpora are skipped with a note and only what the repository holds is scored.

Corpora (each a folder with ``expect.jsonl`` and ``files/``; labels as in realdocs-dev's
``score.py``: ``verdict``, ``must_find``, ``must_not_find``, ``anonymised_names``):

* realdocs-dev: ``--dev DIR``, else ``$GENLINT_REALDOCS_DEV``, else ``../shared/corpora/realdocs-dev``
  beside the repository; skipped with a message when absent (it is not part of the repository).
* realdocs-own: ``--own DIR``, else ``benchmarks/corpora/realdocs-own``; its files from
  ``--own-files DIR``, else ``$GENLINT_REALDOCS_OWN_FILES``, else ``../shared/corpora/realdocs-own/files``;
  a labelled file that is not present is counted as skipped, not scored.

Files labelled ``anonymised_names`` (published judgments) are checked with ``--profile judgment``.
An item's class is its ``class`` key, else read from its rule and pattern (see ``item_class``).
The comparison is against the obvious alternative, the code before a change: ``--baseline SRC``
(a checkout's ``src`` folder) scores the same corpora with it in a subprocess, and the table gets
a column for each. Seconds per file are wall time in this process (reading included; scans are
read by OCR).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
# ../shared beside the repository; a git worktree (…/wt/NAME) finds it beside the main one
SHARED_CORPORA = next(
    (
        p / "shared" / "corpora"
        for p in (ROOT.parent, ROOT.parent.parent)
        if (p / "shared" / "corpora").is_dir()
    ),
    ROOT.parent / "shared" / "corpora",
)
DEV_DEFAULT = SHARED_CORPORA / "realdocs-dev"
OWN_DEFAULT = ROOT / "benchmarks" / "corpora" / "realdocs-own"
OWN_FILES_DEFAULT = SHARED_CORPORA / "realdocs-own" / "files"
# the corpora labelled in score_labelled.py's format, scored by that script
LABELLED = ("realdocs-2", "realdocs-3")
_SUMMARY = re.compile(
    r"^(?P<name>\S+): recall macro (?P<macro>[\d.]+) micro (?P<micro>[\d.]+) "
    r"per-file (?P<per_file>[\d.]+); false alarms (?P<alarms>\d+);.*verdicts "
    r"(?P<right>\d+)/(?P<files>\d+); (?P<seconds>\d+) s",
    re.MULTILINE,
)


def score_labelled(name: str) -> dict[str, Any] | None:
    """realdocs-2/-3 scored by the corpora's own script with this venv's genlint: macro and
    micro recall, false alarms, verdicts, seconds; None when the corpus is absent."""
    folder = SHARED_CORPORA / name
    script = SHARED_CORPORA / "score_labelled.py"
    if not (folder / "expect.jsonl").is_file() or not script.is_file():
        return None
    genlint = Path(sys.executable).parent / "genlint"
    done = subprocess.run(
        [
            sys.executable,
            str(script),
            str(folder),
            "--genlint",
            str(genlint),
            "--min-macro",
            "0",
            "--max-false-alarms",
            "100000",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=1800,
    )
    found = _SUMMARY.search(done.stdout)
    if not found:
        raise RuntimeError(f"{name}: score_labelled.py printed no summary: {done.stderr[-300:]}")
    figures: dict[str, Any] = {k: float(v) for k, v in found.groupdict().items() if k != "name"}
    figures["summary"] = found.group(0)
    figures["per_class"] = next(
        (line for line in done.stderr.splitlines() if line.startswith("per class: ")), ""
    )
    figures["problems"] = [
        line
        for line in done.stderr.splitlines()
        if line.startswith(("missed", "false alarm", "verdict"))
    ]
    return figures


def item_class(item: dict[str, Any]) -> str:
    """The class of a must-find item: its ``class``, else its rule, else its pattern's shape."""
    if item.get("class"):
        return str(item["class"])
    rule = str(item.get("rule") or "")
    if rule.startswith("sensitive/"):
        return rule.split("/", 1)[1].split("|")[0]
    name = (
        rule.split("/", 1)[1] if "/" in rule and not rule.endswith("/") and "|" not in rule else ""
    )
    if name in ("mou-entity", "mou-mou", "mou-name"):
        return "mou"
    if name:
        return name
    rx = str(item.get("text_re", ""))
    if "{{" in rx or r"\{\{" in rx:
        return "template-var"
    if "年" in rx and "月" in rx:
        return "blank-date"
    if "：" in rx or "[：:]" in rx or ":" in rx:
        return "empty-field"
    if "某" in rx:
        return "mou"
    if "×" in rx or "X" in rx or "○" in rx:
        return "x-value"
    if "_" in rx:
        return "underscore-blank"
    return "slot-label"


def trap_class(item: dict[str, Any]) -> str:
    """The class of a must-not-find item: its ``class``, else a word of its reason."""
    if item.get("class"):
        return str(item["class"])
    why = str(item.get("why", "")).lower()
    for key, words in (
        ("masked", ("mask", "××××", "xxxx", "****")),
        ("heading", ("heading", "lead-in", "introduc", "above")),
        ("layout", ("layout", "column", "pdf")),
        ("own-data", ("company", "own ", "organisation", "对公")),
        ("statute", ("statute", "article", "numeral")),
        ("signature", ("signature", "seal", "盖章", "签字")),
    ):
        if any(w in why for w in words):
            return key
    return "other"


@dataclass
class Score:
    found: Counter[str] = field(default_factory=Counter)
    total: Counter[str] = field(default_factory=Counter)
    alarms: Counter[str] = field(default_factory=Counter)
    verdicts: int = 0
    files: int = 0
    skipped: int = 0
    errors: int = 0
    seconds: list[float] = field(default_factory=list)
    misses: list[str] = field(default_factory=list)


def _rule_ok(want: str, got: str) -> bool:
    return any(got == alt or (alt.endswith("/") and got.startswith(alt)) for alt in want.split("|"))


def _hits(item: dict[str, Any], findings: list[dict[str, Any]]) -> list[dict[str, Any]]:
    rx = re.compile(item["text_re"])
    test = rx.fullmatch if item.get("match") == "full" else rx.search
    return [
        f
        for f in findings
        if (not item.get("rule") or _rule_ok(item["rule"], f.get("rule", "")))
        and test(f.get("text") or "")
    ]


def run_cases(folder: Path, only: str | None, files: Path | None = None) -> list[dict[str, Any]]:
    """Check every labelled file of ``folder`` in this process; one result per case."""
    from genlint.check import Checker
    from genlint.check.engine import check_file

    cases = [
        json.loads(line)
        for line in (folder / "expect.jsonl").read_text(encoding="utf-8").splitlines()
        if line.strip()
    ]
    plain = Checker()
    try:
        from genlint.check.config import PROFILES  # noqa: F401
    except ImportError:  # a genlint before --profile (a baseline run): score.py's way
        judgment = Checker(ignore="placeholder/mou-name")
    else:
        judgment = Checker(options={"profile": "judgment"})
    out = []
    for case in cases:
        if only and only not in case["file"]:
            continue
        path = (files or folder / "files") / case["file"]
        if not path.is_file():
            out.append({"case": case, "skipped": True})
            continue
        checker = judgment if case.get("anonymised_names") else plain
        t = time.perf_counter()
        result = check_file(checker, str(path))
        seconds = time.perf_counter() - t
        findings = [{"rule": f.rule, "text": f.text} for f in result.findings]
        out.append(
            {
                "case": case,
                "findings": findings,
                "error": result.error,
                "rc": 2 if result.error else (1 if findings else 0),
                "seconds": seconds,
            }
        )
    return out


def score(results: list[dict[str, Any]]) -> Score:
    s = Score()
    for res in results:
        case = res["case"]
        if res.get("skipped"):
            s.skipped += 1
            continue
        s.files += 1
        s.seconds.append(res["seconds"])
        fs = res["findings"]
        if res["error"]:
            s.errors += 1
        want_dirty = case["verdict"] == "dirty" or case.get("ocr")
        right = (res["rc"] == 1 and bool(fs)) if want_dirty else (res["rc"] == 0 and not fs)
        s.verdicts += right
        if not right:
            s.misses.append(f"verdict {case['file']}: expected {case['verdict']}, rc {res['rc']}")
        for item in case["must_find"]:
            cls = item_class(item)
            s.total[cls] += 1
            if len(_hits(item, fs)) >= item.get("min", 1):
                s.found[cls] += 1
            else:
                s.misses.append(f"missed  {case['file']}: {cls} /{item['text_re']}/")
        for item in case.get("must_not_find", []):
            extra = max(0, len(_hits(item, fs)) - item.get("max", 0))
            if extra:
                s.alarms[trap_class(item)] += extra
                s.misses.append(
                    f"alarm   {case['file']}: {trap_class(item)} {_hits(item, fs)[0]['text']!r}"
                )
    return s


def table(scores: dict[str, Score]) -> str:
    classes = sorted({c for s in scores.values() for c in s.total})
    traps = sorted({c for s in scores.values() for c in s.alarms})
    names = list(scores)
    width = max([len(c) for c in classes + traps] + [18])
    rows = [f"{'':<{width}}  " + "  ".join(f"{n:>16}" for n in names)]

    def cell(s: Score, cls: str) -> str:
        if not s.total[cls]:
            return f"{'-':>16}"
        return f"{s.found[cls]:>5}/{s.total[cls]:<4} {s.found[cls] / s.total[cls]:>5.2f}"

    rows.append("recall per class")
    for cls in classes:
        rows.append(f"  {cls:<{width - 2}}  " + "  ".join(cell(scores[n], cls) for n in names))
    rows.append(
        f"  {'all items':<{width - 2}}  "
        + "  ".join(
            f"{sum(s.found.values()):>5}/{sum(s.total.values()):<4} "
            f"{sum(s.found.values()) / max(1, sum(s.total.values())):>5.2f}"
            for s in scores.values()
        )
    )
    rows.append(
        f"  {'macro mean':<{width - 2}}  "
        + "  ".join(
            f"{sum(s.found[c] / s.total[c] for c in s.total) / max(1, len(s.total)):>16.2f}"
            for s in scores.values()
        )
    )
    rows.append("false alarms per trap class")
    for cls in traps or ["(none)"]:
        rows.append(
            f"  {cls:<{width - 2}}  " + "  ".join(f"{s.alarms[cls]:>16}" for s in scores.values())
        )
    rows.append(
        f"{'verdicts right':<{width}}  "
        + "  ".join(f"{s.verdicts:>11}/{s.files:<4}" for s in scores.values())
    )
    rows.append(
        f"{'files skipped':<{width}}  " + "  ".join(f"{s.skipped:>16}" for s in scores.values())
    )
    rows.append(
        f"{'s/file mean (max)':<{width}}  "
        + "  ".join(
            f"{sum(s.seconds) / max(1, len(s.seconds)):>8.3f} ({max(s.seconds, default=0):>5.2f})"
            for s in scores.values()
        )
    )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dev", type=Path, default=None, help="realdocs-dev folder")
    parser.add_argument("--own", type=Path, default=OWN_DEFAULT, help="realdocs-own folder")
    parser.add_argument(
        "--own-files",
        type=Path,
        default=None,
        help="where realdocs-own's files are (default: its files/ folder, or $GENLINT_REALDOCS_OWN_FILES)",
    )
    parser.add_argument("--only", default=None, help="only files whose name holds this")
    parser.add_argument("--verbose", action="store_true", help="print every miss and alarm")
    parser.add_argument(
        "--baseline",
        type=Path,
        default=None,
        help="a genlint src folder to score the same way (in a subprocess), for before/after",
    )
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)  # subprocess use
    args = parser.parse_args(argv)
    dev = args.dev or Path(os.environ.get("GENLINT_REALDOCS_DEV", DEV_DEFAULT))
    corpora: dict[str, Path] = {}
    for name, folder in (("realdocs-dev", dev), ("realdocs-own", args.own)):
        if (folder / "expect.jsonl").is_file():
            corpora[name] = folder
        else:
            print(f"{name}: skipped, no {folder / 'expect.jsonl'}", file=sys.stderr)
    if not corpora:
        print("no corpus found", file=sys.stderr)
        return 2
    own_files = args.own_files or (
        Path(os.environ["GENLINT_REALDOCS_OWN_FILES"])
        if os.environ.get("GENLINT_REALDOCS_OWN_FILES")
        else (OWN_FILES_DEFAULT if OWN_FILES_DEFAULT.is_dir() else None)
    )
    results = {
        name: run_cases(folder, args.only, own_files if name == "realdocs-own" else None)
        for name, folder in corpora.items()
    }
    if args.json:
        json.dump(results, sys.stdout, ensure_ascii=False)
        return 0
    scores = {name: score(r) for name, r in results.items()}
    if args.baseline is not None:
        cmd = [sys.executable, __file__, "--json", "--dev", str(dev), "--own", str(args.own)]
        if own_files is not None:
            cmd += ["--own-files", str(own_files)]
        if args.only:
            cmd += ["--only", args.only]
        env = {**os.environ, "PYTHONPATH": str(args.baseline)}
        base = json.loads(
            subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout
        )
        scores = {**{f"{n} (base)": score(r) for n, r in base.items()}, **scores}
    print(table(scores))
    if args.verbose:
        for name, s in scores.items():
            for line in s.misses:
                print(f"{name}: {line}")
    if not args.only:
        for name in LABELLED:
            figures = score_labelled(name)
            if figures is None:
                print(f"{name}: skipped, no {SHARED_CORPORA / name}", file=sys.stderr)
                continue
            print(figures["summary"])
            print(f"  {figures['per_class']}")
            if args.verbose:
                for line in figures["problems"]:
                    print(f"{name}: {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
