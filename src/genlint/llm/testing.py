"""A real OpenAI-compatible HTTP server on 127.0.0.1 whose replies follow a script.

Used by the test suite and the simulations instead of mock objects: the openai SDK talks to it
over a socket exactly as it would to DashScope, Ollama or vLLM.

    with ScriptedServer([Reply("某某公司…"), Reply("华夏公司…")]) as server:
        client = OpenAICompatible(model="m", base_url=server.url, api_key_env="X")

A script is a list of replies consumed in order (the last one repeats), or a function
``(request_body: dict) -> Reply`` for scenarios that depend on what was asked.
``server.requests`` records every request body received.
"""

from __future__ import annotations

import hashlib
import json
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Reply:
    """What the server sends back for one request."""

    content: str = ""
    status: int = 200
    delay_s: float = 0.0
    finish_reason: str = "stop"
    prompt_tokens: int | None = None
    completion_tokens: int | None = None
    error_message: str = "scripted error"
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None  # sent as-is instead of a generated body
    trickle_s: float = 0.0  # send the body one byte at a time, this long apart (a stalling server)


Script = Sequence[Reply] | Callable[[dict[str, Any]], Reply]


class _Server(ThreadingHTTPServer):
    # socketserver's default listen backlog is 5: a burst of 100 concurrent clients would
    # overflow it and wait for TCP SYN retransmits (1 s, 3 s…), measuring the kernel, not us.
    request_queue_size = 256


def _token_estimate(text: str) -> int:
    return max(1, len(text) // 2)


def hashed_embedding(text: str, dim: int = 64) -> list[float]:
    """A deterministic stand-in embedding: bag of hashed character bigrams, L2-normalised."""
    vec = [0.0] * dim
    chars = text.lower()
    for i in range(max(1, len(chars) - 1)):
        gram = chars[i : i + 2]
        h = int.from_bytes(hashlib.blake2b(gram.encode(), digest_size=4).digest(), "little")
        vec[h % dim] += 1.0
    norm = sum(v * v for v in vec) ** 0.5 or 1.0
    return [v / norm for v in vec]


class ScriptedServer:
    """Start with ``with ScriptedServer(script) as s:``; ``s.url`` is the base URL (…/v1)."""

    def __init__(
        self,
        script: Script,
        embed: Callable[[str], list[float]] = hashed_embedding,
        *,
        embedding_trickle_s: float = 0.0,
    ):
        self._script = script
        self.embedding_trickle_s = embedding_trickle_s
        self._stopping = threading.Event()
        self._embed = embed
        self._index = 0
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self._httpd: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle -----------------------------------------------------------------
    def start(self) -> ScriptedServer:
        server = self
        self._stopping.clear()

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            # Headers and body go out in two writes; with Nagle on, the body waits for the
            # client's delayed ACK (~40 ms per reply on Linux), which a real server never adds.
            disable_nagle_algorithm = True

            def log_message(self, format: str, *args: Any) -> None:  # quiet
                return

            def do_GET(self) -> None:
                if self.path.rstrip("/").endswith("/models"):
                    self._send(
                        200, {"object": "list", "data": [{"id": "scripted", "object": "model"}]}
                    )
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw or b"{}")
                except ValueError:
                    self._send(400, {"error": {"message": "invalid JSON body"}})
                    return
                if self.path.rstrip("/").endswith("/embeddings"):
                    server._record(body)
                    self._embeddings(body)
                elif self.path.rstrip("/").endswith("/chat/completions"):
                    reply = server._next_reply(body)
                    self._chat(body, reply)
                else:
                    self._send(404, {"error": {"message": "not found"}})

            def _chat(self, body: dict[str, Any], reply: Reply) -> None:
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.raw_body is not None:
                    self._send_raw(reply.status, reply.raw_body, reply.headers, reply.trickle_s)
                    return
                if reply.status != 200:
                    self._send(
                        reply.status,
                        {
                            "error": {
                                "message": reply.error_message,
                                "type": "scripted",
                                "code": reply.status,
                            }
                        },
                        reply.headers,
                    )
                    return
                prompt_text = "".join(str(m.get("content", "")) for m in body.get("messages", []))
                pt = (
                    reply.prompt_tokens
                    if reply.prompt_tokens is not None
                    else _token_estimate(prompt_text)
                )
                ct = (
                    reply.completion_tokens
                    if reply.completion_tokens is not None
                    else _token_estimate(reply.content)
                )
                self._send(
                    200,
                    {
                        "id": "chatcmpl-scripted",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "scripted"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": reply.content},
                                "finish_reason": reply.finish_reason,
                            }
                        ],
                        "usage": {
                            "prompt_tokens": pt,
                            "completion_tokens": ct,
                            "total_tokens": pt + ct,
                        },
                    },
                    reply.headers,
                    reply.trickle_s,
                )

            def _embeddings(self, body: dict[str, Any]) -> None:
                inputs = body.get("input", [])
                if isinstance(inputs, str):
                    inputs = [inputs]
                data = [
                    {"object": "embedding", "index": i, "embedding": server._embed(str(t))}
                    for i, t in enumerate(inputs)
                ]
                self._send(
                    200,
                    {
                        "object": "list",
                        "data": data,
                        "model": body.get("model", "scripted"),
                        "usage": {"prompt_tokens": len(inputs), "total_tokens": len(inputs)},
                    },
                    trickle_s=server.embedding_trickle_s,
                )

            def _send(
                self,
                status: int,
                payload: Any,
                headers: dict[str, str] | None = None,
                trickle_s: float = 0.0,
            ) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode()
                self._send_raw(status, data, headers, trickle_s)

            def _send_raw(
                self,
                status: int,
                data: bytes,
                headers: dict[str, str] | None = None,
                trickle_s: float = 0.0,
            ) -> None:
                try:
                    self.send_response(status)
                    self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(data)))
                    for k, v in (headers or {}).items():
                        self.send_header(k, v)
                    self.end_headers()
                    if not trickle_s:
                        self.wfile.write(data)
                        return
                    # one byte at a time: every read succeeds in time, the reply never ends
                    for i in range(len(data)):
                        self.wfile.write(data[i : i + 1])
                        self.wfile.flush()
                        if server._stopping.wait(trickle_s):
                            return
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (e.g. its timeout); nothing to tell it

        self._httpd = _Server(("127.0.0.1", 0), Handler)
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(
            target=self._httpd.serve_forever,
            # shutdown() waits for the next poll: 0.5 s (the default) per server adds up in tests
            kwargs={"poll_interval": 0.02},
            daemon=True,
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()  # ends any trickling reply
        if self._httpd is not None:
            self._httpd.shutdown()
            self._httpd.server_close()
            self._httpd = None

    def __enter__(self) -> ScriptedServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    @property
    def url(self) -> str:
        assert self._httpd is not None, "server not started"
        host, port = self._httpd.server_address[:2]
        return f"http://{host!s}:{port}/v1"

    # -- script --------------------------------------------------------------------
    def _record(self, body: dict[str, Any]) -> None:
        with self._lock:
            self.requests.append(body)

    def _next_reply(self, body: dict[str, Any]) -> Reply:
        with self._lock:
            self.requests.append(body)
            if callable(self._script):
                script_fn = self._script
            else:
                script_fn = None
                replies = self._script
                reply = replies[min(self._index, len(replies) - 1)] if replies else Reply()
                self._index += 1
        if script_fn is not None:
            return script_fn(body)
        return reply
