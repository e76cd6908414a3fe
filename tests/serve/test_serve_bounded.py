"""Bounded work per request (docs/commands/serve.md, "Bounded work"): masking is linear in the
message and runs off the event loop, so one hostile message cannot stall the service."""

from __future__ import annotations

import threading
import time
import urllib.request
from pathlib import Path

from genlint.mask import Masker, Vault
from support.serve_service import ScriptedServer, start_service, stop


def _phones(n: int) -> str:
    return "".join(f"号{13800000000 + i} " for i in range(n))


def test_token_masking_never_searches_the_whole_text_per_value() -> None:
    # the old code searched the text for every new token (quadratic): count what it scans
    class Counting(str):
        scans = 0

        def __contains__(self, other: object) -> bool:
            Counting.scans += 1
            return super().__contains__(other)  # type: ignore[operator]

    text = Counting(_phones(300))
    result = Masker("token").with_vault(Vault()).mask(text)
    assert len(result.replacements) == 300
    assert Counting.scans < 10


def test_a_message_full_of_numbers_neither_stalls_health_nor_outlives_its_deadline(
    upstream: ScriptedServer, tmp_path: Path
) -> None:
    svc = start_service(
        upstream, tmp_path, "[serve]\nrequest_deadline_s = 5.0\nmax_body_bytes = 2000000\n"
    )
    try:
        body = {"model": "m", "messages": [{"role": "user", "content": _phones(40_000)}]}
        result: dict[str, object] = {}

        def ask() -> None:
            started = time.monotonic()
            result["code"] = svc.post("/v1/chat/completions", body)[0]
            result["s"] = time.monotonic() - started

        worker = threading.Thread(target=ask)
        worker.start()
        time.sleep(0.5)
        slowest = 0.0
        while worker.is_alive():
            started = time.monotonic()
            with urllib.request.urlopen(svc.url + "/healthz", timeout=10) as r:
                assert r.status == 200
            slowest = max(slowest, time.monotonic() - started)
            time.sleep(0.2)
        worker.join()
        assert slowest < 1.0, slowest  # health answered while the message was masked
        assert result["code"] in (200, 504) and float(result["s"]) < 5.0 * 1.5  # type: ignore[arg-type]
    finally:
        log = stop(svc)
    assert "13800000001" not in log


def test_only_the_users_values_come_back_and_a_typed_token_stays_text(service: object) -> None:
    from support.serve_service import Service

    assert isinstance(service, Service)
    body = {
        "model": "m",
        "messages": [
            {"role": "system", "content": "客服电话13812345678"},
            {"role": "user", "content": "[[echo]]号码是<PHONE_1>，我的是13987654321"},
        ],
    }
    code, _, reply = service.post("/v1/chat/completions", body)
    text = reply["choices"][0]["message"]["content"]
    assert code == 200 and "13812345678" not in text  # the system's value stays masked
    assert "<PHONE_1>" in text and "13987654321" in text  # typed text as typed, the user's value
