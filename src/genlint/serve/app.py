"""The FastAPI application: routes, the API key, limits, deadlines and JSON errors.

Every error is JSON (``{"error": {"message", "type", "code"}}``) with a status that says whose
fault it was: 4xx the client's, 502/504 the upstream's, 503 when the service is full. Logs hold
the method, path, status and time of each request, never a body.
"""

from __future__ import annotations

import asyncio
import hmac
import logging
import time
from collections import OrderedDict
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..errors import GenlintError, require
from . import api, chat, dify
from .chat import ServeError
from .metrics import make_metrics
from .settings import ServeSettings

log = logging.getLogger("genlint.serve")

_OPEN_PATHS = {"/healthz"}


def build_app(settings: ServeSettings) -> FastAPI:
    settings.check()
    import sys

    from ..parse.closing import MAX_DEPTH

    # a parsed value may be nested MAX_DEPTH deep, and its JSON encoding recurses once a level:
    # the limit the CLI raises around its output (cli/parse.py), raised once for this process
    # (a per-request toggle would race between the service's threads)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 4 * MAX_DEPTH + 200))
    app = FastAPI(title="genlint serve", version=__version__, docs_url=None, redoc_url=None)
    models = _ModelCache(settings)
    maskers = chat.Maskers(settings)
    if settings.upstream:
        # the SDK's import takes most of a second: at start, not in the first client's request
        require("openai", "llm")
    carry = dify.OutputCarry(settings.dify_carry_chars)
    state = {"in_flight": 0}
    metrics = make_metrics()

    @app.exception_handler(ServeError)
    async def serve_error(request: Request, exc: ServeError) -> Response:
        return _error(exc.status, str(exc), exc.kind)

    @app.exception_handler(GenlintError)
    async def genlint_error(request: Request, exc: GenlintError) -> Response:
        return _error(400, str(exc), "invalid_request_error")

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> Response:
        # the type only: an exception's text may quote the request
        log.error("internal error on %s: %s", request.url.path, type(exc).__name__)
        return _error(500, "internal error", "internal_error")

    @app.get("/healthz")
    async def healthz() -> dict[str, Any]:
        return {"status": "ok", "version": __version__, "in_flight": state["in_flight"]}

    @app.get("/metrics")
    async def prometheus() -> Response:
        if metrics is None:
            raise ServeError(404, "metrics need prometheus-client (the serve extra)")
        body, content_type = metrics.render()
        return Response(body, media_type=content_type)

    @app.get("/v1/models")
    async def list_models() -> Response:
        if not settings.upstream:
            raise ServeError(404, "no upstream configured (--upstream URL)")
        return JSONResponse(await models.list_upstream())

    @app.post("/v1/chat/completions")
    async def chat_completions(request: Request) -> Response:
        if not settings.upstream:
            raise ServeError(404, "no upstream configured (--upstream URL)")
        body = await _json_body(request, settings)
        reply = await chat.complete(
            body, settings, models.get, settings.request_deadline_s * 0.9, maskers
        )
        if metrics is not None:
            metrics.gate_run(reply.summary)
        headers = {"x-genlint": orjson.dumps(reply.summary).decode()}
        if isinstance(body, dict) and body.get("stream"):
            return StreamingResponse(_sse(reply), media_type="text/event-stream", headers=headers)
        return JSONResponse(reply.body, headers=headers)

    @app.post("/dify/moderation")
    async def dify_moderation(request: Request) -> Response:
        body = await _json_body(request, settings)
        return JSONResponse(await run_in_threadpool(dify.moderate, body, maskers.keep_ends, carry))

    @app.post("/v1/check")
    async def check(request: Request, name: str | None = None) -> Response:
        if request.headers.get("content-type", "").startswith("application/json"):
            body, raw = await _json_body(request, settings), None
        else:
            body, raw = None, await _bytes(request, settings)
            if not name:
                raise ServeError(
                    400, "a file upload needs ?name=FILE (its type is read from the name)"
                )
        out = await run_in_threadpool(api.check_json, body, raw, name, list(settings.select))
        return JSONResponse(out, status_code=200)

    @app.post("/v1/parse")
    async def parse(request: Request) -> Response:
        body = await _json_body(request, settings)
        return JSONResponse(await run_in_threadpool(api.parse_json_body, body))

    @app.post("/v1/mask")
    async def mask(request: Request) -> Response:
        body = await _json_body(request, settings)
        return JSONResponse(await run_in_threadpool(api.mask_body, body))

    @app.post("/v1/unmask")
    async def unmask(request: Request) -> Response:
        body = await _json_body(request, settings)
        return JSONResponse(await run_in_threadpool(api.unmask_body, body))

    # the routes as declared, so that a path with an id in it never becomes a metrics label
    routes = frozenset(str(getattr(route, "path", "")) for route in app.routes)
    app.add_middleware(_Guard, settings=settings, state=state, metrics=metrics, routes=routes)
    return app


class _Guard:
    """The API key, the concurrency limit, the request deadline, metrics and the access log,
    around every request.

    A plain ASGI middleware: Starlette's ``BaseHTTPMiddleware`` (``@app.middleware``) runs each
    request through a task group and a memory stream, which cost more CPU than the gate itself
    on a short reply (docs/commands/serve.md, "Latency"). The deadline covers the whole exchange,
    a streamed body to a slow client included."""

    def __init__(
        self,
        app: Any,
        settings: ServeSettings,
        state: dict[str, int],
        metrics: Any,
        routes: frozenset[str],
    ):
        self.app = app
        self.routes = routes
        self.settings = settings
        self.state = state
        self.metrics = metrics
        self.slots = asyncio.Semaphore(settings.max_concurrency)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        settings = self.settings
        started = time.perf_counter()
        path = scope["path"]
        status = {"code": 500, "sent": False}

        async def send_status(message: Any) -> None:
            if message["type"] == "http.response.start":
                status["code"], status["sent"] = message["status"], True
            await send(message)

        try:
            # h11 refuses a request head over the size itself; httptools (the faster parser,
            # used when installed) has no such limit, so the guard refuses it here
            # (docs/commands/serve.md, "Connections")
            if sum(len(k) + len(v) for k, v in scope["headers"]) > settings.max_header_bytes:
                await _error(431, "request headers too large", "invalid_request_error")(
                    scope, receive, send_status
                )
                return
            if path not in _OPEN_PATHS and not _host_allowed(scope, settings):
                # a web page that rebinds its own name to 127.0.0.1 sends its name as Host
                # (docs/commands/serve.md, "Web pages")
                await _error(421, "Host names no address this service listens on", "misdirected")(
                    scope, receive, send_status
                )
                return
            if path not in _OPEN_PATHS and not _authorised(scope, settings.api_key):
                await _error(401, "missing or wrong API key", "authentication_error")(
                    scope, receive, send_status
                )
                return
            try:
                await asyncio.wait_for(self.slots.acquire(), settings.queue_timeout_s)
            except asyncio.TimeoutError:
                error = _error(
                    503, "the service is at its concurrency limit; retry later", "overloaded"
                )
                await error(scope, receive, send_status)
                return
            self.state["in_flight"] += 1
            try:
                await asyncio.wait_for(
                    self.app(scope, receive, send_status), settings.request_deadline_s
                )
            except asyncio.TimeoutError:
                if not status["sent"]:
                    message = f"request deadline ({settings.request_deadline_s:g} s) passed"
                    await _error(504, message, "timeout")(scope, receive, send_status)
                # a body already under way is cut: the client sees the connection end early
            finally:
                self.state["in_flight"] -= 1
                self.slots.release()
        finally:
            elapsed = time.perf_counter() - started
            route = path if path in self.routes else "other"
            if self.metrics is not None:
                self.metrics.observe(route, status["code"], elapsed)
            if settings.log_requests:
                # one JSON object a line: method, route, status and time, never a body or query
                entry = {"method": scope["method"], "route": route, "status": status["code"]}
                log.info("%s", orjson.dumps({**entry, "ms": round(elapsed * 1e3, 1)}).decode())


def _host_allowed(scope: Any, settings: ServeSettings) -> bool:
    """Without an API key (loopback only), the ``Host`` header must name the bound address,
    a loopback name, or one of ``allowed_hosts``; with a key, the key is the guard."""
    if settings.api_key is not None:
        return True
    header = next((v for k, v in scope["headers"] if k == b"host"), b"").decode("latin-1")
    name = header.lower()
    if name.startswith("["):
        name = name[: name.find("]") + 1]
    else:
        name = name.rsplit(":", 1)[0] if name.count(":") == 1 else name
    allowed = {"127.0.0.1", "localhost", "[::1]", settings.host.lower(), *settings.allowed_hosts}
    return name in allowed


def _authorised(scope: Any, key: str | None) -> bool:
    if key is None:
        return True
    header = next((v for k, v in scope["headers"] if k == b"authorization"), b"")
    scheme, _, token = header.decode("latin-1").partition(" ")
    return scheme.lower() == "bearer" and hmac.compare_digest(token.strip().encode(), key.encode())


def _error(status: int, message: str, kind: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"message": message, "type": kind, "code": status}}, status_code=status
    )


async def _bytes(request: Request, settings: ServeSettings) -> bytes:
    declared = request.headers.get("content-length")
    if declared is not None and declared.isdigit() and int(declared) > settings.max_body_bytes:
        raise ServeError(413, f"body over {settings.max_body_bytes} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > settings.max_body_bytes:  # a chunked body that lied or said nothing
            raise ServeError(413, f"body over {settings.max_body_bytes} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


async def _json_body(request: Request, settings: ServeSettings) -> Any:
    # a page may POST text/plain to any address without asking first; JSON only as JSON
    # (docs/commands/serve.md, "Web pages")
    kind = request.headers.get("content-type", "").split(";", 1)[0].strip().lower()
    if kind != "application/json":
        raise ServeError(415, "send the body as content-type application/json")
    raw = await _bytes(request, settings)
    try:
        return orjson.loads(raw)
    except orjson.JSONDecodeError as exc:
        raise ServeError(400, f"malformed JSON body: {exc.args[0] if exc.args else exc}") from None


async def _sse(reply: chat.ChatReply) -> Any:
    for chunk in reply.chunks():
        yield b"data: " + orjson.dumps(chunk) + b"\n\n"
    yield b"data: [DONE]\n\n"


class _ModelCache:
    """One upstream client per (model, sampling options); clients are reused across requests."""

    def __init__(self, settings: ServeSettings) -> None:
        self.settings = settings
        self._clients: OrderedDict[tuple[Any, ...], Any] = OrderedDict()

    def get(self, model: str, **options: Any) -> Any:
        from ..llm import OpenAICompatible

        key = (model, tuple(sorted(options.items())))
        client = self._clients.get(key)
        if client is None:
            client = OpenAICompatible(
                model,
                base_url=self.settings.upstream,
                api_key_env=self.settings.upstream_key_env,
                timeout=self.settings.attempt_timeout_s,
                **options,
            )
            self._clients[key] = client
            while len(self._clients) > 64:
                self._clients.popitem(last=False)
        return client

    async def list_upstream(self) -> Any:
        import os

        from openai import AsyncOpenAI, OpenAIError

        client = AsyncOpenAI(
            base_url=self.settings.upstream,
            api_key=os.environ.get(self.settings.upstream_key_env) or "genlint-no-key",
            max_retries=0,
            timeout=self.settings.attempt_timeout_s,
        )
        try:
            page = await client.models.list()
        except OpenAIError as exc:
            raise ServeError(
                502, f"upstream failed: {type(exc).__name__}", "upstream_error"
            ) from None
        finally:
            await client.close()
        return {"object": "list", "data": [m.model_dump() for m in page.data]}
