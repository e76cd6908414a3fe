"""Benchmark: the gate's own cost, and batch throughput against a local endpoint.

1. Overhead per attempt on a 5 KB reply: a full gate attempt (the placeholder + sensitive
   checks, findings bookkeeping, usage estimate, the re-ask message) minus the same checks
   called alone, measured in the same process. Target: < 2 ms per attempt.
2. Throughput of 100 generations against genlint's scripted OpenAI-compatible server on
   127.0.0.1 (50 ms simulated model latency): ``gate.run_many(concurrency=100)`` versus the
   obvious alternative, a loop of sequential ``client.complete`` calls plus the checks.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from genlint.generate import Gate, pack_check
from genlint.llm import OpenAICompatible
from genlint.llm.testing import Reply, ScriptedServer

PARAGRAPH = (
    "证据说明：华夏建设有限公司于2024年3月1日向江南建材有限公司支付货款人民币120,000元，"
    "有银行回单及双方签字的对账单为证；经办人手机139****5678，邮箱已脱敏。"
    "The payment was confirmed by both parties on 1 March 2024 and recorded in the ledger. "
)


def reply_5kb(dirty: bool) -> str:
    text = ""
    while len(text.encode("utf-8")) < 5000:
        text += PARAGRAPH + "\n"
    if dirty:  # two placeholders and one phone number, as a typical first draft has
        text = "某某公司于X年X月X日付款，联系电话13912345678。\n" + text
    return text


def interleaved_best(
    fns: list[Callable[[], object]], calls: list[int], rounds: int = 9
) -> list[float]:
    """Best time per call of each function, rounds interleaved so load drifts hit all alike."""
    best = [float("inf")] * len(fns)
    for _ in range(rounds):
        for i, (fn, n) in enumerate(zip(fns, calls, strict=True)):
            t0 = time.perf_counter()
            for _ in range(n):
                fn()
            best[i] = min(best[i], (time.perf_counter() - t0) / n)
    return best


def overhead() -> None:
    check = pack_check(["placeholder", "sensitive"])
    for dirty in (False, True):
        text = reply_5kb(dirty)
        attempts = 4 if dirty else 1  # a dirty reply is re-asked until max_retries=3 runs out
        for timeout, label in (
            (None, "no attempt timeout"),
            (60.0, "attempt timeout (watchdog thread)"),
        ):
            gate = Gate([check], max_retries=3, attempt_timeout_s=timeout)
            alone, full = interleaved_best(
                [
                    lambda t=text: check(t),
                    lambda g=gate, t=text: g.run(lambda m: t, "写一份证据说明"),
                ],
                [100, 100 // attempts],
            )
            per_attempt = full / attempts
            print(
                f"5 KB {'dirty' if dirty else 'clean'} reply, {label}: checks alone "
                f"{alone * 1e3:.3f} ms, gate attempt {per_attempt * 1e3:.3f} ms, "
                f"overhead {(per_attempt - alone) * 1e3:.3f} ms/attempt (target < 2 ms)"
            )


def throughput() -> None:
    check = pack_check(["placeholder", "sensitive"])
    text = reply_5kb(False)
    prompts = [f"写第 {i} 份证据说明" for i in range(100)]
    with ScriptedServer([Reply(text, delay_s=0.05)]) as server:
        model = OpenAICompatible("m", server.url, "BENCH_KEY")
        model.complete([{"role": "user", "content": "warm up"}])
        gate = Gate([check])
        t0 = time.perf_counter()
        results = gate.run_many(model, prompts, concurrency=100, progress=False)
        concurrent = time.perf_counter() - t0
        assert [r.text for r in results] == [text] * 100 and all(r.ok for r in results)
        t0 = time.perf_counter()
        for p in prompts:
            check(model.complete([{"role": "user", "content": p}]).text)
        sequential = time.perf_counter() - t0
    print(
        f"100 generations, 50 ms model latency: run_many(concurrency=100) {concurrent:.2f} s "
        f"({100 / concurrent:.0f}/s), sequential complete()+checks {sequential:.2f} s "
        f"({100 / sequential:.0f}/s): {sequential / concurrent:.1f}x"
    )


def main() -> None:
    t0 = time.perf_counter()
    overhead()
    throughput()
    print(f"(benchmark took {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
