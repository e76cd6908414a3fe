"""Benchmark ``genlint serve``: a bounded local load run on loopback.

For concurrency 1, 8 and 32, a fixed number of chat requests (a 1,000-character Chinese reply,
3 KB in UTF-8, that passes the checks) go once straight to the scripted OpenAI-compatible
upstream and once through ``genlint serve`` in front of it, in the same process and the same
minutes. Reported: requests per second, p50/p99 latency of each path and the latency the
service adds (same percentile, through minus direct), and the service's resident memory after
the run; for one worker process and for two
(``python benchmarks/bench_serve.py [WORKERS ...]``, default ``1 2``).
Target (issue 29): added p50 ≤ 5 ms and p99 ≤ 25 ms at concurrency 8.
"""

from __future__ import annotations

import http.client
import json
import statistics
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))
sys.path.insert(0, str(ROOT / "tests"))

from genlint.llm.testing import Reply, ScriptedServer  # noqa: E402
from support.serve_service import start_service, stop  # noqa: E402

REPLY = ("本合同由华夏科技有限公司与北方贸易有限公司签订，双方就货物买卖事宜达成如下约定。" * 40)[:1000]
REQUESTS = 240
LEVELS = (1, 8, 32)
BODY = json.dumps(
    {"model": "m", "messages": [{"role": "user", "content": "请起草一份买卖合同的首段。"}]},
    ensure_ascii=False,
).encode()

_local = threading.local()


def _post(host: str, port: int, path: str) -> float:
    conn = getattr(_local, "conns", {}).get((host, port))
    if conn is None:
        conn = http.client.HTTPConnection(host, port, timeout=30)
        _local.__dict__.setdefault("conns", {})[(host, port)] = conn
    t0 = time.perf_counter()
    conn.request("POST", path, BODY, {"content-type": "application/json"})
    resp = conn.getresponse()
    resp.read()
    if resp.status != 200:
        raise RuntimeError(f"status {resp.status}")
    return time.perf_counter() - t0


def run(port: int, path: str, concurrency: int) -> tuple[float, list[float]]:
    _local.__dict__.clear()
    with ThreadPoolExecutor(concurrency) as pool:
        for _ in pool.map(lambda _: _post("127.0.0.1", port, path), range(concurrency * 2)):
            pass  # warm connections
        t0 = time.perf_counter()
        lat = list(pool.map(lambda _: _post("127.0.0.1", port, path), range(REQUESTS)))
    return time.perf_counter() - t0, lat


def pct(xs: list[float], q: float) -> float:
    return statistics.quantiles(xs, n=100, method="inclusive")[int(q) - 1] if len(xs) > 1 else xs[0]


def main() -> None:
    import tempfile

    import psutil

    workers = [int(w) for w in sys.argv[1:]] or [1, 2]
    with ScriptedServer([Reply(REPLY)]) as upstream:
        port_up = int(upstream.url.rsplit(":", 1)[1].split("/")[0])
        for n in workers:
            with tempfile.TemporaryDirectory() as tmp:
                config = f"[serve]\nmax_concurrency = 64\nworkers = {n}\n"
                svc = start_service(upstream, Path(tmp), config)
                time.sleep(2.0 if n > 1 else 0.0)  # the workers import genlint after the bind
                try:
                    print(f"\n{n} worker process{'es' if n > 1 else ''}")
                    print(f"{'conc':>4} {'direct rps':>10} {'serve rps':>9} {'direct p50/p99 ms':>18} "
                          f"{'serve p50/p99 ms':>17} {'added p50/p99 ms':>17}")  # fmt: skip
                    for conc in LEVELS:
                        dt_d, lat_d = run(port_up, "/v1/chat/completions", conc)
                        dt_s, lat_s = run(svc.port, "/v1/chat/completions", conc)
                        d50, d99 = pct(lat_d, 50) * 1e3, pct(lat_d, 99) * 1e3
                        s50, s99 = pct(lat_s, 50) * 1e3, pct(lat_s, 99) * 1e3
                        print(f"{conc:>4} {REQUESTS / dt_d:>10.0f} {REQUESTS / dt_s:>9.0f} "
                              f"{d50:>8.1f}/{d99:<8.1f} {s50:>8.1f}/{s99:<8.1f} "
                              f"{s50 - d50:>8.1f}/{s99 - d99:<8.1f}")  # fmt: skip
                    proc = psutil.Process(svc.proc.pid)
                    tree = [proc, *proc.children(recursive=True)]
                    rss = sum(p.memory_info().rss for p in tree) / 2**20
                    served = sum(REQUESTS + 2 * conc for conc in LEVELS)  # run(): warm-up + timed
                    print(f"resident memory after {served} requests: {rss:.0f} MiB "
                          f"({len(tree)} process{'es' if len(tree) > 1 else ''})")  # fmt: skip
                finally:
                    stop(svc)


if __name__ == "__main__":
    main()
