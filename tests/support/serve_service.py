"""Helpers for tests/serve: a real ``genlint serve`` process on 127.0.0.1 in front of the scripted OpenAI-compatible
server (genlint.llm.testing); the upstream's behaviour is chosen by a marker in the last user
message, so one service answers every scenario."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from genlint.llm.testing import Reply, ScriptedServer
from support.signals import sigint_default

INVENTED_PHONE = "13900001111"


def scripted(body: dict[str, Any]) -> Reply:
    messages = body.get("messages", [])
    # the first user message carries the marker (a re-ask appends messages after it)
    last = next((str(m.get("content", "")) for m in messages if m.get("role") == "user"), "")
    asked_again = len(messages) > 1  # the tests send one message; a re-ask adds more
    if "[[500]]" in last:
        return Reply(status=500, error_message="boom")
    if "[[429]]" in last:
        return Reply(status=429, headers={"Retry-After": "0"})
    if "[[404]]" in last:
        return Reply(status=404, error_message="model not found")
    if "[[slow]]" in last:
        return Reply("late", delay_s=2.5)
    if "[[garbage]]" in last:
        return Reply(raw_body=b"{not json", status=200)
    if "[[placeholder]]" in last and not asked_again:
        return Reply("甲方：某某公司，合同已拟好。")
    if "[[invent]]" in last:
        return Reply(f"请致电 {INVENTED_PHONE} 联系我们。")
    if "[[trickle]]" in last:  # a server that sends its body a byte at a time, too slowly
        return Reply("慢慢地回答。", trickle_s=0.2)
    if "[[wait]]" in last:
        return Reply("等了一会儿，完成。", delay_s=1.5)
    if "[[echo]]" in last:
        return Reply("你说的是：" + last.replace("[[echo]]", ""))
    return Reply("合同已拟好，双方为华夏科技有限公司与北方贸易有限公司。")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Service:
    def __init__(self, proc: subprocess.Popen[str], port: int, upstream: ScriptedServer) -> None:
        self.proc, self.port, self.upstream = proc, port, upstream
        self.url = f"http://127.0.0.1:{port}"

    def post(
        self, path: str, body: Any, headers: dict[str, str] | None = None, raw: bytes | None = None
    ) -> tuple[int, dict[str, str], Any]:
        import urllib.error
        import urllib.request

        data = raw if raw is not None else json.dumps(body, ensure_ascii=False).encode()
        hdrs = {"content-type": "application/json", **(headers or {})}
        req = urllib.request.Request(self.url + path, data=data, headers=hdrs, method="POST")
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, dict(r.headers), json.loads(r.read() or b"null")
        except urllib.error.HTTPError as e:
            return e.code, dict(e.headers), json.loads(e.read() or b"null")

    def get(self, path: str, headers: dict[str, str] | None = None) -> tuple[int, Any]:
        import urllib.error
        import urllib.request

        req = urllib.request.Request(self.url + path, headers=headers or {})
        try:
            with urllib.request.urlopen(req, timeout=30) as r:
                return r.status, json.loads(r.read())
        except urllib.error.HTTPError as e:
            return e.code, json.loads(e.read() or b"null")


def start_service(
    upstream: ScriptedServer,
    tmp: Path,
    config: str = "",
    extra: list[str] | None = None,
    env: dict[str, str] | None = None,
) -> Service:
    port = free_port()
    cfg = tmp / "genlint.toml"
    cfg.write_text(config, "utf-8")
    src = Path(__file__).resolve().parents[2] / "src"
    environ = {**os.environ, **(env or {}), "PYTHONPATH": str(src)}
    # the log goes to a file: a pipe nobody reads until stop() would fill after ~700 access
    # lines and block the service (a long benchmark run hung on it)
    log = tmp / "serve.log"
    with open(log, "wb") as log_file:
        proc = subprocess.Popen(
            [sys.executable, "-m", "genlint", "serve", "--port", str(port), "--upstream", upstream.url, "--config", str(cfg), *(extra or [])],
            env=environ,
            stdout=log_file,
            stderr=subprocess.STDOUT,
            preexec_fn=sigint_default,
        )  # fmt: skip
    proc.log_path = log  # type: ignore[attr-defined]
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"serve exited {proc.returncode}: {log.read_text('utf-8')}")
        try:
            socket.create_connection(("127.0.0.1", port), 0.2).close()
            return Service(proc, port, upstream)
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("serve did not start")


def stop(service: Service) -> str:
    """Stop the service (SIGTERM, then SIGKILL after 20 s); its log."""
    service.proc.terminate()
    try:
        service.proc.wait(timeout=20)
    except subprocess.TimeoutExpired:
        service.proc.kill()
        service.proc.wait()
    return str(service.proc.log_path.read_text("utf-8", errors="replace"))  # type: ignore[attr-defined]
