"""Benchmark: ``process_citations`` on a 1 MB chapter with 10,000 markers, then at scale.

Chapter. Baseline, measured in the same run: the obvious post-processing script, one regex
substitution per marker (``re.sub(<that marker>, "[1][2]", text, count=1)`` for each marker
in turn), which rescans the chapter every time and knows no line rules, code or coverage.
Reported: the marker rewrite alone (the part the naive script does; target < 50 ms), the
coverage, the reference list (uncached), the whole call, and the first call.

Scale (issue 17, "cite at scale"; generated sources of tests/support/cite_corpus.py): the
whole call with 5,000 sources and 10,000 markers, numeric and APA, and with 100,000 sources
and 80,000 markers, numeric (target < 1 s). The old path, run in the same process for the
ratio, is the reference list as it was rendered before: the whole list through citeproc-py
(numeric included), with the same source loading and marker code (so the old times shown
understate the old whole call). At 100,000 sources the old path is not run: it renders
~70,000 entries at 3-5 ms each (minutes). ``--no-old-apa`` skips the old APA run (~100 s).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from genlint.cite import process_citations

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the corpus generator

N_MARKERS = 10_000
TARGET_BYTES = 1_000_000
SOURCES = [{"id": i, "title": f"来源 {i}", "url": f"https://example.com/{i}"} for i in range(1, 41)]
SENTENCES = [
    "三峡水电站装机容量为 2250 万千瓦，年发电量约 1000 亿千瓦时",
    "The dam is 181 m high and 2,335 m long, e.g. larger than Itaipu",
    "模型约 1.8T 参数，推理成本随上下文长度线性增长",
    "综合分析表明，水电在可再生能源中的占比持续下降",
]


def make_chapter(seed: int = 7) -> str:
    rng = random.Random(seed)
    parts: list[str] = []
    size = 0
    for i in range(N_MARKERS):
        ids = ", ".join(str(rng.randint(1, 45)) for _ in range(rng.randint(0, 3)))
        marker = f"<sources>[{ids}]</sources>"
        sentence = rng.choice(SENTENCES)
        # Every fifth marker is a marker line before a paragraph, the others inline.
        piece = f"\n\n{marker}\n{sentence}。" if i % 5 == 0 else f"{sentence}{marker}。"
        parts.append(piece)
        size += len(piece.encode("utf-8"))
    filler = "这是一段没有引用的过渡文字，用于把章节补足到一兆字节。"
    text = "".join(parts)
    # Pad evenly to ~1 MB with uncited prose.
    missing = max(0, TARGET_BYTES - size)
    pad_every = max(1, N_MARKERS // max(1, missing // len(filler.encode("utf-8"))))
    out: list[str] = []
    for i, piece in enumerate(parts):
        out.append(piece)
        if i % pad_every == 0 and missing > 0:
            out.append(filler)
            missing -= len(filler.encode("utf-8"))
    text = "".join(out)
    return text


_TAG = re.compile(r"<sources>\[(.*?)\]</sources>")


def naive(text: str) -> str:
    """One substitution per marker, each rescanning the whole text."""
    for marker in _TAG.findall(text):
        ids = [t.strip() for t in marker.split(",") if t.strip()]
        replacement = "".join(f"[{i}]" for i in ids)
        text = re.sub(
            r"<sources>\[" + re.escape(marker) + r"\]</sources>", replacement, text, count=1
        )
    return text


def timed(fn, *args, repeat: int = 11) -> float:  # type: ignore[no-untyped-def]
    """Best of ``repeat`` runs: the machine is shared, the minimum is the least disturbed."""
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--no-old-apa", action="store_true", help="skip the old APA path (~100 s)")
    parser.add_argument("--scale-only", action="store_true", help="skip the chapter section")
    args = parser.parse_args()
    if not args.scale_only:
        chapter()
    scale(old_apa=not args.no_old_apa)


def chapter() -> None:
    from genlint.cite import load_sources
    from genlint.cite.bibliography import _cached_citeproc, render_bibliography
    from genlint.cite.coverage import measure
    from genlint.cite.rewrite import plan, render

    text = make_chapter()
    size = len(text.encode("utf-8"))
    markers = text.count("<sources>")
    t0 = time.perf_counter()
    first = process_citations(text, SOURCES)
    cold_s = time.perf_counter() - t0

    sources = load_sources(SOURCES)
    p = plan(text, sources)
    labels = {i: i for i in p.id_order()}
    out, spans = render(p, labels)
    cites = [(s.start, s.end) for s in spans]
    entries = [(i, sources.get(i)) for i in sorted(labels)]

    def uncached_bibliography() -> None:
        _cached_citeproc.cache_clear()  # (numeric entries are native: nothing is cached)
        render_bibliography(entries, "numeric")

    rewrite_s = timed(lambda: render(plan(text, sources), labels))
    coverage_s = timed(lambda: measure(out, cites))
    biblio_s = timed(uncached_bibliography)
    whole_s = timed(process_citations, text, SOURCES)
    renumber_s = timed(lambda: process_citations(text, SOURCES, renumber=True))
    baseline_s = timed(naive, text, repeat=1)
    assert naive(text).count("<sources>") == 0

    print(
        f"chapter: {size / 1e6:.2f} MB, {markers} markers, {len(first.cited)} sources cited, "
        f"{len(first.invalid_ids)} invalid ids, coverage {first.coverage.ratio:.0%} "
        f"of {first.coverage.sentences} sentences"
    )
    print(f"  markers -> text (find, place, renumber-ready, rewrite): {rewrite_s * 1000:6.1f} ms")
    print(f"  coverage (sentence split + citation check):             {coverage_s * 1000:6.1f} ms")
    print(
        f"  reference list, {len(entries)} entries, numeric (native):      {biblio_s * 1000:6.1f} ms"
    )
    print(
        f"process_citations, whole call:                          {whole_s * 1000:6.1f} ms "
        f"({size / whole_s / 1e6:.0f} MB/s)"
    )
    print(f"process_citations --renumber:                          {renumber_s * 1000:6.1f} ms")
    print(f"first call (imports, uncached):                        {cold_s * 1000:6.1f} ms")
    print(f"naive one re.sub per marker (markers only):           {baseline_s * 1000:6.0f} ms")
    print(
        f"speed-up vs naive: {baseline_s / rewrite_s:.0f}x on markers alone, "
        f"{baseline_s / whole_s:.0f}x for the whole call; target < 50 ms for markers -> text: "
        f"{'met' if rewrite_s < 0.05 else 'NOT met'}"
    )


def whole_call(text: str, sources: list[dict[str, Any]], style: str, old: bool = False) -> float:
    """Seconds of one process_citations call; ``old``: with the former reference list."""
    from genlint.cite import bibliography

    real = bibliography.render_bibliography
    if old:
        from support.cite_corpus import former_bibliography

        bibliography.render_bibliography = former_bibliography  # type: ignore[assignment]
    try:
        t0 = time.perf_counter()
        process_citations(text, sources, style=style)
        return time.perf_counter() - t0
    finally:
        bibliography.render_bibliography = real


def best(run: Callable[[], float], repeat: int) -> float:
    return min(run() for _ in range(repeat))


def scale(old_apa: bool = True) -> None:
    from genlint.cite.bibliography import _cached_citeproc
    from support.cite_corpus import make_sources, make_text

    print("\nscale (process_citations, whole call; best of 3 unless noted)")
    sources, text = make_sources(5_000), make_text(10_000, 5_000)
    cited = len(process_citations(text, sources).cited)
    new = best(lambda: whole_call(text, sources, "numeric"), 3)
    old = whole_call(text, sources, "numeric", old=True)
    print(
        f"  numeric, 5,000 sources, 10,000 markers ({cited} cited): {new:6.2f} s; "
        f"old path (citeproc, 1 run) {old:6.2f} s: {old / new:.0f}x"
    )

    big_sources, big_text = make_sources(100_000), make_text(80_000, 100_000)
    big_cited = len(process_citations(big_text, big_sources).cited)
    big = best(lambda: whole_call(big_text, big_sources, "numeric"), 3)
    print(
        f"  numeric, 100,000 sources, 80,000 markers ({big_cited} cited): {big:6.2f} s "
        f"(target < 1 s: {'met' if big < 1 else 'NOT met'}); old path not run (minutes: "
        f"{old / max(cited, 1) * big_cited / 60:.0f} min at its 5,000-source rate per entry, "
        "more with its list registration)"
    )

    _cached_citeproc.cache_clear()
    first = whole_call(text, sources, "apa")
    again = best(lambda: whole_call(text, sources, "apa"), 3)
    line = (
        f"  APA, 5,000 sources, 10,000 markers ({cited} cited): first call {first:6.2f} s "
        f"(citeproc-py, each entry once), again {again:6.2f} s (entries cached)"
    )
    if old_apa:
        old_apa_s = whole_call(text, sources, "apa", old=True)
        line += f"; old path (1 run) {old_apa_s:6.2f} s: {old_apa_s / again:.0f}x cached, "
        line += f"{old_apa_s / first:.1f}x first call"
    print(line)


if __name__ == "__main__":
    main()
