"""Benchmark: ``process_citations`` on a 1 MB chapter with 10,000 markers.

Baseline, measured in the same run: the obvious post-processing script, one regex
substitution per marker (``re.sub(<that marker>, "[1][2]", text, count=1)`` for each marker
in turn), which rescans the chapter every time and knows no line rules, code or coverage.
Target: < 50 ms for the whole ``process_citations`` call (markers, renumbering, coverage;
the reference list of the cited sources is included, citeproc styles warm).
"""

from __future__ import annotations

import random
import re
import statistics
import time

from genlint.cite import process_citations

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
        if i % 5 == 0:
            piece = f"\n\n{marker}\n{sentence}。"  # a marker line before a paragraph
        else:
            piece = f"{sentence}{marker}。"
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


def timed(fn, *args, repeat: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn(*args)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    text = make_chapter()
    size = len(text.encode("utf-8"))
    markers = text.count("<sources>")
    t0 = time.perf_counter()
    cold = process_citations(text, SOURCES)
    cold_s = time.perf_counter() - t0
    ours = timed(process_citations, text, SOURCES)
    ours_renumber = timed(lambda t: process_citations(t, SOURCES, renumber=True), text)
    baseline = timed(naive, text, repeat=1)
    print(
        f"chapter: {size / 1e6:.2f} MB, {markers} markers, {len(cold.cited)} sources cited, "
        f"{len(cold.invalid_ids)} invalid ids, coverage {cold.coverage.ratio:.0%}"
    )
    print(
        f"genlint process_citations: {ours * 1000:.1f} ms median "
        f"({size / ours / 1e6:.0f} MB/s; first call incl. citeproc import {cold_s * 1000:.0f} ms)"
    )
    print(f"genlint with --renumber:   {ours_renumber * 1000:.1f} ms median")
    print(f"naive re.sub per marker:   {baseline * 1000:.0f} ms")
    print(
        f"speed-up vs naive: {baseline / ours:.0f}x; target < 50 ms: "
        f"{'met' if ours < 0.05 else 'NOT met'}"
    )


if __name__ == "__main__":
    main()
