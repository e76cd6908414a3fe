"""Benchmark of DOCX masking with every hidden place (run: .venv/bin/python
benchmarks/bench_mask_places.py).

The leak-audit corpus (``tests/support/docx_leaks.py``: 26 real DOCX files, about 600 values
planted in properties, deletions, field codes, links, alt text, document variables, glossary,
customXml, authors and altChunk HTML) is masked (keep-ends) twice: as genlint masks it now
(visible text, every hidden place, the copy sweep, the re-read of the output), and with the
hidden-place list emptied, which is what masking cost before (visible text only: the obvious
alternative, and the one that leaked). Also ``check --select sensitive`` on the same files with
and without the hidden places. Prints files per second and the ratio.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))


def best_of(n: int, fn: Callable[[], object]) -> float:
    best = float("inf")
    for _ in range(n):
        start = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - start)
    return best


def main() -> None:
    import genlint.readers.docx as reader
    from genlint.check import Checker
    from genlint.mask import Masker
    from genlint.mask.docx import mask_docx
    from support.docx_leaks import corpus, leaked

    files = corpus(26)
    values = sum(len(f.planted) for f in files)
    masker = Masker("keep-ends")
    checker = Checker("sensitive")

    def mask_all() -> int:
        return sum(len(leaked(mask_docx(f.name, f.data, masker).data,
                              [p.value for p in f.planted])) for f in files)

    def check_all() -> int:
        return sum(len(checker.check_document(reader.read(f.name, f.data))) for f in files)

    left_with = mask_all()
    found_with = check_all()
    with_places = best_of(2, lambda: [mask_docx(f.name, f.data, masker) for f in files])
    check_with = best_of(2, check_all)
    original = reader.collect_places
    reader.collect_places = lambda package, parts: []  # type: ignore[assignment]
    try:
        left_without = mask_all()
        found_without = check_all()
        without = best_of(2, lambda: [mask_docx(f.name, f.data, masker) for f in files])
        check_without = best_of(2, check_all)
    finally:
        reader.collect_places = original
    n = len(files)
    print(f"DOCX leak corpus: {n} files, {values} planted values")
    print(f"  mask, every place:        {n / with_places:7.1f} files/s  "
          f"({with_places / n * 1000:.0f} ms a file), values left: {left_with}")
    print(f"  mask, visible text only:  {n / without:7.1f} files/s  "
          f"({without / n * 1000:.0f} ms a file), values left: {left_without}")
    print(f"  ratio: every place costs {with_places / without:.2f}x the visible-only mask")
    print(f"  check --select sensitive, every place: {n / check_with:7.1f} files/s "
          f"({found_with} findings); visible only: {n / check_without:7.1f} files/s "
          f"({found_without} findings); ratio {check_with / check_without:.2f}x")


if __name__ == "__main__":
    main()
