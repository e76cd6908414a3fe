"""Simulation: what re-asking buys, and what it costs, for max_retries 0–5.

A scripted OpenAI-compatible server on 127.0.0.1 plays a model whose first reply passes the
placeholder check 5.7% of the time (the rate measured with prompt constraints alone) and whose
reply to a re-ask passes with probability ``--reask-pass``. Every request goes through the real
gate: real HTTP, the real placeholder and sensitive packs, the real follow-up message.
Outcomes are drawn from a hash of (seed, file, request number): a run is reproducible, and
every row replays the same draws, so a row differs from the one above only by its extra retries.

    .venv/bin/python benchmarks/sim_gate.py [--files 300] [--reask-pass 0.6] [--seed 1]
"""

from __future__ import annotations

import argparse
import hashlib
import threading
import time
from typing import Any

from genlint.generate import BatchStats, Gate, pack_check
from genlint.llm import OpenAICompatible
from genlint.llm.testing import Reply, ScriptedServer

FIRST_TRY_PASS = 0.057
DIRTY = (
    "证据{n}说明：某某公司于X年X月X日向{buyer}支付货款人民币XX元，"
    "有银行回单及对账单为证；经办人【姓名】，联系电话____。"
)
CLEAN = (
    "证据{n}说明：华夏建设有限公司于2024年3月{day}日向{buyer}支付货款人民币{amount}元，"
    "有银行回单及对账单为证；经办人王立新，联系电话139****5678。"
)


class Model:
    """The scripted model: pass or fail by a reproducible draw per (file, request)."""

    def __init__(self, seed: int, reask_pass: float) -> None:
        self.seed = seed
        self.reask_pass = reask_pass
        self.counts: dict[str, int] = {}
        self.lock = threading.Lock()

    def draw(self, key: str) -> float:
        digest = hashlib.blake2b(f"{self.seed}:{key}".encode(), digest_size=8).digest()
        return int.from_bytes(digest, "big") / 2**64

    def __call__(self, body: dict[str, Any]) -> Reply:
        messages = body["messages"]
        file = messages[0]["content"]
        with self.lock:
            k = self.counts.get(file, 0) + 1
            self.counts[file] = k
        reask = sum(1 for m in messages if m["role"] == "user") > 1
        p = self.reask_pass if reask else FIRST_TRY_PASS
        n = int(file.split()[-1])
        fields = {
            "n": n,
            "buyer": "江南建材有限公司",
            "day": 1 + n % 28,
            "amount": f"{(n + 1) * 1000:,}",
        }
        return Reply((CLEAN if self.draw(f"{file}:{k}") < p else DIRTY).format(**fields))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--files", type=int, default=300)
    parser.add_argument("--reask-pass", type=float, default=0.6)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()

    check = pack_check(["placeholder", "sensitive"])
    assert check(DIRTY.format(n=1, buyer="b", day=1, amount="1")), "the dirty reply must be flagged"
    assert not check(CLEAN.format(n=1, buyer="江南建材有限公司", day=1, amount="1,000")), (
        "clean must pass"
    )

    prompts = [f"根据材料写证据说明 {i}" for i in range(args.files)]
    q = args.reask_pass
    print(
        f"{args.files} files per row; first-try pass {FIRST_TRY_PASS:.1%}, pass after a re-ask {q:.0%}"
    )
    print()
    print(
        "| max_retries | final pass rate | expected | mean attempts | tokens/file | retry tokens/file |"
    )
    print("|---:|---:|---:|---:|---:|---:|")
    t0 = time.perf_counter()
    for max_retries in range(6):
        with ScriptedServer(Model(args.seed, q)) as server:
            model = OpenAICompatible("sim", server.url, "SIM_KEY")
            gate = Gate([check], max_retries=max_retries)
            results = gate.run_many(model, prompts, concurrency=32, progress=False)
        stats = BatchStats.of(results)
        expected = 1 - (1 - FIRST_TRY_PASS) * (1 - q) ** max_retries
        print(
            f"| {max_retries} | {stats.final_pass_rate:.1%} | {expected:.1%} | "
            f"{stats.mean_attempts:.2f} | {stats.tokens_per_item:.0f} | "
            f"{stats.retry_tokens / stats.items:.0f} |"
        )
    print()
    print(f"(simulated {6 * args.files} files in {time.perf_counter() - t0:.1f} s)")


if __name__ == "__main__":
    main()
