"""Batches: 100 concurrent generations through run_many, none lost, order kept; batch stats."""

from __future__ import annotations

import asyncio
import threading
import time
from typing import Any

import pytest

from generate.helpers import placeholder_check
from genlint.generate import BatchStats, Gate, GateFailed
from genlint.llm import OpenAICompatible
from genlint.llm.testing import Reply, ScriptedServer


class InFlight:
    """A script that answers ``answer <id>`` (dirty at first for ids divisible by 3) and
    records how many requests were being served at once."""

    def __init__(self, delay_s: float = 0.05) -> None:
        self.delay_s = delay_s
        self.now = 0
        self.peak = 0
        self.lock = threading.Lock()

    def __call__(self, body: dict[str, Any]) -> Reply:
        item = int(body["messages"][0]["content"].split()[-1])
        with self.lock:
            self.now += 1
            self.peak = max(self.peak, self.now)
        time.sleep(self.delay_s * (1 + item % 3))  # uneven latencies: completion order shuffles
        with self.lock:
            self.now -= 1
        first_ask = len(body["messages"]) == 1
        if first_ask and item % 3 == 0:
            return Reply(f"answer {item} for 某某公司")
        return Reply(f"answer {item}")


@pytest.mark.parametrize("generator", ["chat-model", "sync-function"])
def test_100_concurrent_generations_none_lost_order_kept(generator: str) -> None:
    script = InFlight()
    prompts = [f"write item {i}" for i in range(100)]
    seen: list[int | None] = []
    gate = Gate([placeholder_check], hooks=[lambda a: seen.append(a.item)])
    with ScriptedServer(script) as server:
        model = OpenAICompatible("m", server.url, "K")
        generate: Any = model
        if generator == "sync-function":

            def generate(messages: list[dict[str, str]]) -> Any:
                return model.complete(messages)

        results = gate.run_many(generate, prompts, concurrency=20)
        requests = len(server.requests)
    assert len(results) == 100
    assert [r.text for r in results] == [f"answer {i}" for i in range(100)]
    assert all(r.ok for r in results)
    assert requests == 100 + 34, "one re-ask per id divisible by 3, nothing resent twice"
    assert 1 < script.peak <= 20, f"concurrency limit not honoured: peak {script.peak}"
    assert sorted(seen) == sorted([*range(100), *range(0, 100, 3)]), "hooks know the batch item"

    stats = BatchStats.of(results)
    assert stats.items == 100
    assert stats.first_try_pass_rate == pytest.approx(0.66)
    assert stats.final_pass_rate == 1.0
    assert stats.mean_attempts == pytest.approx(1.34)
    assert stats.fix_rate == {"placeholder/mou": 1.0}
    assert stats.statuses == {"first_try": 66, "reasked": 34}
    assert 0 < stats.retry_tokens < stats.total_tokens


def test_stats_count_unfixed_rules_and_failures() -> None:
    def gen(messages: list[dict[str, str]]) -> str:
        prompt = messages[0]["content"]
        return (
            {"a": "某某 TBD", "b": "TBD", "c": "ok"}[prompt]
            if len(messages) == 1
            else {"a": "TBD", "b": "TBD", "c": "ok"}[prompt]
        )

    results = Gate([placeholder_check], max_retries=1, on_fail="best").run_many(
        gen, ["a", "b", "c"]
    )
    stats = BatchStats.of(results)
    assert [r.status for r in results] == ["degraded", "degraded", "first_try"]
    # 某某 fixed in a's returned text; TBD never fixed (a and b).
    assert stats.fix_rate == {"placeholder/mou": 1.0, "placeholder/tbd": 0.0}
    assert stats.first_try_pass_rate == pytest.approx(1 / 3)
    assert stats.final_pass_rate == pytest.approx(1 / 3)
    assert stats.to_dict()["statuses"] == {"degraded": 2, "first_try": 1}


def test_run_many_under_raise_finishes_the_batch_then_raises() -> None:
    gate = Gate([placeholder_check], max_retries=0, on_fail="raise")
    with pytest.raises(GateFailed) as info:
        gate.run_many(
            lambda m: "某某" if "1" in m[0]["content"] else "ok", ["p0", "p1", "p2"]
        )
    assert info.value.results is not None
    assert [r.status for r in info.value.results] == ["first_try", "failed", "first_try"]


def test_run_many_inside_an_event_loop_points_to_arun_many() -> None:
    gate = Gate([placeholder_check])

    async def inside() -> None:
        with pytest.raises(RuntimeError, match="arun_many"):
            gate.run_many(lambda m: "ok", ["x"])
        results = await gate.arun_many(lambda m: "ok", ["x", "y"])
        assert [r.text for r in results] == ["ok", "ok"]

    asyncio.run(inside())


def test_the_gate_reports_progress_by_callback_and_never_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import io
    import sys

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    seen: list[int] = []
    results = Gate(placeholder_check).run_many(lambda m: "ok", ["a", "b", "c"], progress=seen.append)
    assert [r.text for r in results] == ["ok"] * 3
    assert seen == [1, 1, 1], "one call per finished prompt"
    assert fake.getvalue() == "", "library code never draws, even on a terminal"


def test_the_cli_bar_is_drawn_on_a_terminal_only(monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from genlint.cli.progress import progress_bar

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr(sys, "stderr", io.StringIO())
    with progress_bar("generate", 3) as advance:
        assert advance is None
    fake = Tty()
    monkeypatch.setattr(sys, "stderr", fake)
    with progress_bar("generate", 3) as advance:
        assert advance is not None
        with progress_bar("one", 1) as single:
            assert single is None, "one item needs no bar"
        Gate(placeholder_check).run_many(lambda m: "ok", ["a", "b", "c"], progress=advance)
    assert "3/3" in fake.getvalue(), "the bar counts finished prompts on stderr"
