"""Benchmark ``genlint eval``: 10,000 claims over 2,000 facts in process, and the CLI cold start.

Target: the evaluation in < 0.5 s; ``genlint eval`` on the requirement's example in < 0.3 s.
The comparison: genlint's lexicon matcher (one pass, first-character index) against the obvious
alternative, one regular-expression alternation of every lexicon word, on the same claims.
"""

from __future__ import annotations

import random
import re
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))

from genlint.eval import evaluate  # noqa: E402
from genlint.eval.lexicon import Lexicon  # noqa: E402

N_FACTS = 2_000
CLAIMS_PER_PAGE = 5

TEMPLATES = [
    ("该方法调用 {svc}.check{obj} 进行{obj}校验。", "calls:{svc}.check{obj}"),
    ("随后调用 {svc}.update{obj} 更新{obj}信息，以确保数据一致性。", "calls:{svc}.update{obj}"),
    ("将结果写入 {obj}Entity。", "writes:{obj}Entity"),
    ("It writes the record to {obj}Entity so that it stays consistent.", "writes:{obj}Entity"),
    ("メソッドには @Transactional が付与されている。", "annotations:@Transactional"),
    ("{obj}Entity を呼び出す。", "writes:{obj}Entity"),
    ("该方法处理相关业务逻辑。", "method:{method}"),
    ("调用 {svc}.send{obj} 发送通知。", "calls:{svc}.send{obj}"),
]


# A faithful page: one claim per fact entry, in three languages.
FAITHFUL = [
    ("该方法调用 {svc}.check{obj} 进行{obj}校验。", "calls:{svc}.check{obj}"),
    ("It calls {svc}.update{obj} to update the {obj} record.", "calls:{svc}.update{obj}"),
    ("{obj}Entity に結果を保存する。", "writes:{obj}Entity"),
    ("该方法标注了 @Transactional。", "annotations:@Transactional"),
    ("当 {low}Id 不为空时才执行更新。", "conditions:{low}Id != null"),
]


def build(seed: int = 7, faithful: bool = False) -> tuple[dict, list]:
    """Random template claims (about half faulty), or faithful pages with one page in ten
    carrying one faulty claim."""
    rng = random.Random(seed)
    facts, pages = [], []
    for i in range(N_FACTS):
        svc, obj, method = f"Svc{i}", f"Obj{i % 97}", f"method{i}"
        facts.append(
            {
                "id": f"method:{method}",
                "kind": "method",
                "calls": [f"{svc}.check{obj}", f"{svc}.update{obj}"],
                "writes": [f"{obj}Entity"],
                "annotations": ["@Transactional"],
                "conditions": [f"{obj.lower()}Id != null"],
            }
        )
        claims = []
        chosen = (
            list(FAITHFUL) if faithful else [rng.choice(TEMPLATES) for _ in range(CLAIMS_PER_PAGE)]
        )
        if faithful and i % 10 == 0:
            chosen[1] = TEMPLATES[1]  # an inferred guarantee
        for text, ref in chosen:
            values = {"svc": svc, "obj": obj, "method": method, "low": obj.lower()}
            claims.append({"text": text.format(**values), "fact_refs": [ref.format(**values)]})
        pages.append({"method": method, "claims": claims})
    return {"facts": facts}, pages


def timed(fn, repeat: int = 3, clock=time.perf_counter) -> tuple[float, float]:
    runs = []
    for _ in range(repeat):
        start = clock()
        fn()
        runs.append(clock() - start)
    return runs[0], min(runs)


def main() -> None:
    facts, pages = build()
    n_claims = sum(len(p["claims"]) for p in pages)
    first, best = timed(lambda: evaluate(facts, pages), repeat=5)
    _, cpu = timed(lambda: evaluate(facts, pages), repeat=5, clock=time.process_time)
    result = evaluate(facts, pages)
    # On a shared machine wall time includes waiting for a core; CPU time is the work done.
    print(
        f"evaluate: {n_claims:,} claims over {N_FACTS:,} facts: first {first:.3f} s, "
        f"best {best:.3f} s wall, {cpu:.3f} s CPU ({n_claims / best:,.0f} claims/s)  "
        f"target < 0.5 s: {'OK' if best < 0.5 else 'MISSED'}"
    )
    print(
        f"  {len(result.violations):,} violations; faithfulness {result.metrics.faithfulness:.3f}, "
        f"recall {result.metrics.key_fact_recall:.3f}"
    )

    facts_ok, pages_ok = build(faithful=True)
    _, best_ok = timed(lambda: evaluate(facts_ok, pages_ok), repeat=5)
    _, cpu_ok = timed(lambda: evaluate(facts_ok, pages_ok), repeat=5, clock=time.process_time)
    ok = evaluate(facts_ok, pages_ok)
    print(
        f"evaluate, a mostly faithful wiki ({len(ok.violations):,} violations, "
        f"{sum(p.passed for p in ok.pages):,}/{len(ok.pages):,} pages pass): "
        f"best {best_ok:.3f} s wall, {cpu_ok:.3f} s CPU  target < 0.5 s: {'OK' if best_ok < 0.5 else 'MISSED'}"
    )

    texts = [c["text"] for p in pages for c in p["claims"]]
    lexicon = Lexicon.load()
    matcher = lexicon.matcher()
    words = sorted({w for ws in lexicon.words.values() for w in ws}, key=len, reverse=True)
    alternation = re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)
    _, ours = timed(lambda: [matcher.find(t) for t in texts])
    _, theirs = timed(lambda: [list(alternation.finditer(t)) for t in texts])
    print(
        f"lexicon matching over {len(texts):,} claims: genlint matcher {ours * 1e3:.1f} ms, "
        f"one regex alternation of {len(words)} words {theirs * 1e3:.1f} ms "
        f"(ratio {theirs / ours:.1f}x)"
    )

    dev_set_report()

    cli = [
        str(Path(sys.executable).with_name("genlint")),
        "eval",
        "--facts",
        "examples/eval/facts.json",
        "--wiki",
        "examples/eval/wiki.json",
        "--format",
        "json",
    ]
    bare = [sys.executable, "-c", "pass"]
    starts, baseline = [], []
    for _ in range(9):
        t0 = time.perf_counter()
        subprocess.run(cli, cwd=ROOT, capture_output=True, check=False)
        starts.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        subprocess.run(bare, capture_output=True, check=False)
        baseline.append(time.perf_counter() - t0)
    med = statistics.median(starts)
    print(
        f"CLI cold start (genlint eval on the requirement's example): median {med:.3f} s, "
        f"min {min(starts):.3f} s; bare python start {statistics.median(baseline):.3f} s "
        f"(ratio {med / statistics.median(baseline):.1f}x)  target < 0.3 s: {'OK' if med < 0.3 else 'MISSED'}"
    )


def dev_set_report() -> None:
    """Per-reason precision and recall on the development set (tests/data/eval_dev)."""
    sys.path.insert(0, str(ROOT / "tests"))
    from support.eval_devset import score  # the test's own scorer: both report the same numbers

    s = score()
    p, r, f1 = s.overall()
    langs = ", ".join(f"{n} {lang}" for lang, n in sorted(s.languages().items()))
    right = sum(w == g for w, g in s.pages.values())
    print(
        f"development set ({len(s.pages)} pages: {langs}): P {p:.3f} R {r:.3f} F1 {f1:.3f}; "
        f"pass/fail right on {right}/{len(s.pages)} pages"
    )
    print(f"  {'reason':<15} {'precision':>9} {'recall':>7} {'items':>6}")
    for reason, (rp, rr, n) in s.per_reason().items():
        print(f"  {reason:<15} {rp:>9.2f} {rr:>7.2f} {n:>6}")


if __name__ == "__main__":
    main()
