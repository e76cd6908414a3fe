"""``genlint serve --workers N``: several processes on one port, as one service (settings,
key, metrics, graceful stop)."""

from __future__ import annotations

import json
import os
import re
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from genlint.serve.settings import (
    SETTINGS_ENV,
    ServeSettings,
    settings_from_env,
    settings_to_env,
)
from support.serve_service import ScriptedServer, start_service, stop

PHONE = "13812345678"
KEY = "k-" + "7" * 30


def test_worker_settings_travel_without_the_key(monkeypatch: pytest.MonkeyPatch) -> None:
    settings = ServeSettings(
        host="0.0.0.0", api_key=KEY, select=("sensitive",), workers=3, max_retries=0
    )
    raw = settings_to_env(settings, "SERVE_KEY")
    assert KEY not in raw and json.loads(raw)["api_key_env"] == "SERVE_KEY"
    monkeypatch.setenv(SETTINGS_ENV, raw)
    monkeypatch.setenv("SERVE_KEY", KEY)
    assert settings_from_env() == settings
    monkeypatch.delenv("SERVE_KEY")
    with pytest.raises(Exception, match="SERVE_KEY"):  # off loopback a worker needs the key
        settings_from_env()


def test_workers_answer_as_one_service(upstream: ScriptedServer, tmp_path: Path) -> None:
    svc = start_service(
        upstream, tmp_path, "[serve]\nworkers = 2\n", env={"SERVE_KEY": KEY},
        extra=["--api-key-env", "SERVE_KEY"],
    )  # fmt: skip
    auth = {"authorization": f"Bearer {KEY}"}
    try:
        assert svc.post("/v1/mask", {"text": "x"})[0] == 401  # every worker wants the key

        def ask(i: int) -> str:
            body = {"model": "m", "messages": [{"role": "user", "content": f"[[echo]]电话{PHONE} #{i}"}]}  # fmt: skip
            code, _, reply = svc.post("/v1/chat/completions", body, auth)
            assert code == 200, reply
            return str(reply["choices"][0]["message"]["content"])

        with ThreadPoolExecutor(8) as pool:
            replies = list(pool.map(ask, range(40)))
        assert all(PHONE in r and f"#{i}" in r for i, r in enumerate(replies))
        sent = json.dumps(upstream.requests, ensure_ascii=False)
        assert PHONE not in sent  # masked in whichever worker answered
        code, _ = svc.get("/healthz")
        assert code == 200
        import urllib.request

        req = urllib.request.Request(svc.url + "/metrics", headers=auth)
        with urllib.request.urlopen(req, timeout=10) as r:
            text = r.read().decode()
        # the counts of both workers summed: a per-process registry shows only its own share
        counted = re.search(r'genlint_requests_total\{route="/v1/chat/completions",status="200"\} (\S+)', text)  # fmt: skip
        assert counted is not None and float(counted.group(1)) == 40.0
    finally:
        log = stop(svc)
    assert svc.proc.returncode == 0, log
    assert PHONE not in log and KEY not in log
    assert "2 workers" in log


def test_sigterm_lets_each_worker_finish_its_request(
    upstream: ScriptedServer, tmp_path: Path
) -> None:
    before = {p for p in os.listdir(tempfile.gettempdir()) if p.startswith("genlint-serve-metrics-")}
    svc = start_service(upstream, tmp_path, "[serve]\nworkers = 2\n")
    body = {"model": "m", "messages": [{"role": "user", "content": "[[wait]]"}]}
    results: list[tuple[int, str]] = []

    def ask() -> None:
        code, _, reply = svc.post("/v1/chat/completions", body)
        results.append((code, reply["choices"][0]["message"]["content"]))

    svc.post(
        "/v1/chat/completions", {"model": "m", "messages": [{"role": "user", "content": "hi"}]}
    )
    threads = [threading.Thread(target=ask) for _ in range(3)]
    for t in threads:
        t.start()
    time.sleep(0.7)
    log = stop(svc)
    for t in threads:
        t.join(10)
    assert results == [(200, "等了一会儿，完成。")] * 3, log
    assert svc.proc.returncode == 0
    after = {p for p in os.listdir(tempfile.gettempdir()) if p.startswith("genlint-serve-metrics-")}
    assert after <= before  # the metrics folder is removed with the service
