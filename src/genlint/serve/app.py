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
from collections.abc import Awaitable, Callable
from typing import Any

import orjson
from fastapi import FastAPI, Request
from fastapi.responses import JSONResponse, Response, StreamingResponse
from starlette.concurrency import run_in_threadpool

from .. import __version__
from ..errors import GenlintError
from ..mask import Masker
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
    gate_slots = asyncio.Semaphore(settings.max_concurrency)
    models = _ModelCache(settings)
    carry = dify.OutputCarry(settings.dify_carry_chars)
    dify_masker = Masker("keep-ends")
    state = {"in_flight": 0}
    metrics = make_metrics()
    # routes as declared, so that a path with an id in it never becomes a label
    known = {"/healthz", "/metrics", "/v1/models", "/v1/chat/completions", "/dify/moderation",
             "/v1/check", "/v1/parse", "/v1/mask", "/v1/unmask", "/openapi.json"}  # fmt: skip

    @app.middleware("http")
    async def guard(
        request: Request, call_next: Callable[[Request], Awaitable[Response]]
    ) -> Response:
        started = time.perf_counter()
        path = request.url.path
        status = 500
        try:
            if path not in _OPEN_PATHS and not _authorised(request, settings.api_key):
                response: Response = _error(401, "missing or wrong API key", "authentication_error")
            else:
                try:
                    await asyncio.wait_for(gate_slots.acquire(), settings.queue_timeout_s)
                except asyncio.TimeoutError:
                    response = _error(
                        503, "the service is at its concurrency limit; retry later", "overloaded"
                    )
                else:
                    state["in_flight"] += 1
                    try:
                        response = await asyncio.wait_for(
                            call_next(request), settings.request_deadline_s
                        )
                    except asyncio.TimeoutError:
                        response = _error(
                            504,
                            f"request deadline ({settings.request_deadline_s:g} s) passed",
                            "timeout",
                        )
                    finally:
                        state["in_flight"] -= 1
                        gate_slots.release()
            status = response.status_code
            return response
        finally:
            elapsed = time.perf_counter() - started
            route = path if path in known else "other"
            if metrics is not None:
                metrics.observe(route, status, elapsed)
            if settings.log_requests:
                # one JSON object a line: method, route, status and time, never a body or query
                entry = {"method": request.method, "route": route, "status": status}
                log.info("%s", orjson.dumps({**entry, "ms": round(elapsed * 1e3, 1)}).decode())

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
        reply = await chat.complete(body, settings, models.get, settings.request_deadline_s * 0.9)
        if metrics is not None:
            metrics.gate_run(reply.summary)
        headers = {"x-genlint": orjson.dumps(reply.summary).decode()}
        if isinstance(body, dict) and body.get("stream"):
            return StreamingResponse(_sse(reply), media_type="text/event-stream", headers=headers)
        return JSONResponse(reply.body, headers=headers)

    @app.post("/dify/moderation")
    async def dify_moderation(request: Request) -> Response:
        body = await _json_body(request, settings)
        return JSONResponse(await run_in_threadpool(dify.moderate, body, dify_masker, carry))

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

    return app


def _authorised(request: Request, key: str | None) -> bool:
    if key is None:
        return True
    header = request.headers.get("authorization", "")
    scheme, _, token = header.partition(" ")
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
