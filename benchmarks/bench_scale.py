"""Scale: files/s and MB/s of `genlint check` on 2,000 generated documents with --jobs 1,
--jobs 2 and a local Ray cluster (2 CPUs); Ray start-up seconds; peak driver memory while a
table of short LLM replies goes through `parse_table` on Ray, streamed to Parquet by the
workers (run: .venv/bin/python benchmarks/bench_scale.py [--rows 1000000]).

Targets (issue 15, a 2-core machine): --jobs 2 at least 1.7x --jobs 1; Ray after start-up at
least 1.5x --jobs 1; the driver's memory flat in the number of rows.
"""

from __future__ import annotations

import argparse
import logging
import os
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))  # the corpus generator the tests use

GENLINT = [sys.executable, "-m", "genlint"]


def cli_seconds(args: list[str]) -> float:
    t = time.perf_counter()
    done = subprocess.run([*GENLINT, *args], capture_output=True, check=False)
    elapsed = time.perf_counter() - t
    if done.returncode not in (0, 1):
        raise SystemExit(f"genlint {' '.join(args)} failed: {done.stderr.decode()[-500:]}")
    return elapsed


class PeakRSS:
    """The driver's resident memory, sampled every 20 ms in a thread; ``peak`` in MB."""

    def __init__(self) -> None:
        import psutil

        self.process = psutil.Process()
        self.peak = 0.0
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.is_set():
            self.peak = max(self.peak, self.process.memory_info().rss / 1e6)
            time.sleep(0.02)

    def __enter__(self) -> PeakRSS:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def _burn(n: int) -> int:
    total = 0
    for i in range(n):
        total += i * i
    return total


def parallelism_available() -> float:
    """Two busy loops in two processes against one after another: what the machine can give
    two workers right now (2.0 on an idle 2-core machine; less when others share it)."""
    import multiprocessing

    n = 5_000_000
    t = time.perf_counter()
    _burn(n)
    _burn(n)
    serial = time.perf_counter() - t
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        pool.map(_burn, [1, 1])  # start-up is not what is measured
        t = time.perf_counter()
        pool.map(_burn, [n, n])
        parallel = time.perf_counter() - t
    return serial / parallel


def make_replies(batch):  # type: ignore[no-untyped-def]
    """Short replies as a model writes them: mostly JSON, some chatty, some broken."""
    import pyarrow as pa

    ids = batch.column("id").to_pylist()
    texts = []
    for i in ids:
        if i % 10 == 0:
            texts.append(f'Sure! Here it is: ```json\n{{"score": {i % 5}, "reason": "ok"}}\n```')
        elif i % 10 == 1:
            texts.append(f"{{'score': {i % 5}, 'reason': 'fine',")
        else:
            texts.append(f'{{"score": {i % 5}, "reason": "grounded in fact {i}"}}')
    return pa.table({"id": pa.array(ids, pa.int64()), "text": texts})


def parse_on_ray(rows: int, out_dir: str) -> tuple[float, float]:
    """Seconds and peak driver RSS (MB) for ``rows`` replies through parse_table on Ray,
    written to Parquet by the workers (nothing collected on the driver)."""
    import ray

    from genlint.batch import parse_dataset

    ds = ray.data.range(rows, override_num_blocks=max(4, rows // 50_000)).map_batches(
        make_replies, batch_format="pyarrow", batch_size=10_000
    )
    t = time.perf_counter()
    with PeakRSS() as rss:
        parse_dataset(ds, batch_size=10_000).write_parquet(out_dir)
    return time.perf_counter() - t, rss.peak


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--rows", type=int, default=1_000_000)
    args = parser.parse_args()
    from support.corpus import make_corpus

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "docs"
        make_corpus(folder, args.files, docx=20, pdf=20, lines=40)
        mb = sum(p.stat().st_size for p in folder.iterdir()) / 1e6
        print(f"corpus: {args.files} files (txt/md/json, 20 docx, 20 pdf), {mb:.1f} MB")
        # the machine is shared: the load says how much of the two cores this run had
        print(f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"parallelism available: {parallelism_available():.2f}x (two busy loops, 2 processes)")
        out = str(Path(tmp) / "report.json")
        base = ["check", str(folder), "--format", "json", "--out", out]
        cli_seconds(["check", str(folder / "doc00000.docx")])  # warm the file cache and imports
        times: dict[str, float] = {}
        for jobs in ("1", "2"):
            times[jobs] = min(cli_seconds([*base, "--jobs", jobs]) for _ in range(2))
            print(
                f"--jobs {jobs}: {times[jobs]:6.2f} s  {args.files / times[jobs]:7.0f} files/s"
                f"  {mb / times[jobs]:5.2f} MB/s  (whole command)"
            )
        print(f"--jobs 2 speed-up: {times['1'] / times['2']:.2f}x (target >= 1.7x)")

        # the whole command as a user runs it, start-up included (its own local cluster)
        whole = cli_seconds([*base, "--engine", "ray", "--jobs", "2"])
        print(f"--engine ray --jobs 2: {whole:6.2f} s  (whole command: cluster, actors, check)")

        import ray

        from genlint.batch import ray_engine
        from genlint.batch.ray_files import RayChecker
        from genlint.readers import expand_paths

        t = time.perf_counter()
        ray.init(
            num_cpus=2, include_dashboard=False, log_to_driver=False, logging_level=logging.ERROR
        )
        ray_engine._quiet()
        for name in ("ray", "ray.data"):
            logging.getLogger(name).setLevel(logging.ERROR)
        try:
            files = expand_paths([str(folder)])
            settings = (None, None, None, {"sources": None})
            # the start-up: the cluster, then one checker actor per CPU with its rules built
            with RayChecker(settings) as checker:
                startup = time.perf_counter() - t
                print(f"Ray local start-up: {startup:.2f} s (cluster and checker actors)")
                checker.run(files[:100])  # the actors' first files import the readers
                best = float("inf")
                for _ in range(2):
                    t = time.perf_counter()
                    checker.run(files)
                    best = min(best, time.perf_counter() - t)
            print(
                f"Ray local (2 CPUs): {best:6.2f} s  {args.files / best:7.0f} files/s"
                f"  {mb / best:5.2f} MB/s  (after start-up; "
                f"{times['1'] / best:.2f}x --jobs 1, target >= 1.5x)"
            )
            for rows in sorted({max(1, args.rows // 10), args.rows}):
                seconds, peak = parse_on_ray(rows, os.path.join(tmp, f"parsed-{rows}"))
                print(
                    f"parse_table on Ray, {rows:>9,} replies: {seconds:6.2f} s "
                    f"({rows / seconds:,.0f} replies/s), peak driver RSS {peak:.0f} MB"
                )
        finally:
            ray.shutdown()
        print(f"load average after: {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
