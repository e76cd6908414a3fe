"""The one adapter that knows the OpenAI chat-completions wire format.

Works with anything that speaks it, chosen by ``base_url``: OpenAI, DashScope's compatible mode
(``https://dashscope.aliyuncs.com/compatible-mode/v1``), Ollama (``http://localhost:11434/v1``),
vLLM (``http://host:8000/v1``). The SDK's own retries are off (``max_retries=0``): retrying is the
caller's decision (the gate backs off on transient errors), and two retry layers multiply.

The API key is read from the environment variable named by ``api_key_env`` when the client is
built and is handed to the SDK only: it is not stored on this object, not shown by ``repr`` and
scrubbed from every error message. A leading ``<think>…</think>`` block (reasoning models on
Ollama or vLLM) is removed from the reply text. When the variable is unset, a dummy key is sent, because
local servers (Ollama, vLLM) need none; a hosted provider then answers 401, reported as an
``auth`` error naming the variable.
"""

from __future__ import annotations

import asyncio
import logging
import os
import threading
import weakref
from typing import Any

from ..errors import InputError, require
from .base import Completion, Usage
from .errors import LLMError

logger = logging.getLogger(__name__)

#: Sent when ``api_key_env`` is unset; local OpenAI-compatible servers accept any key.
DUMMY_API_KEY = "genlint-no-key"

_CONTEXT_OVERFLOW_MARKERS = (
    "context_length_exceeded",
    "maximum context length",
    "context length",
    "context window",
    "too many tokens",
    "prompt is too long",
    "range of input length",  # DashScope: "Range of input length should be [1, 30720]"
)
_REFUSAL_MARKERS = ("data_inspection_failed", "content_filter", "content management policy")


class OpenAICompatible:
    """A :class:`~genlint.llm.base.ChatModel` over the openai SDK.

    ``complete`` (sync) and ``acomplete`` (async) return a :class:`Completion` or raise
    :class:`~genlint.llm.errors.LLMError` with a ``kind``.
    """

    def __init__(
        self,
        model: str,
        base_url: str | None = None,
        api_key_env: str = "OPENAI_API_KEY",
        *,
        timeout: float = 60.0,
        temperature: float | None = None,
        max_tokens: int | None = None,
        extra_body: dict[str, Any] | None = None,
        max_reply_bytes: int | None = None,
    ) -> None:
        if not model:
            raise InputError("an LLM model name is required (--model or [generate] model)")
        # Imported now, not at the first request: a missing extra fails early, and the
        # import's second or so is not billed to the first attempt's duration or deadline.
        require("openai", "llm")
        if not api_key_env or not api_key_env.replace("_", "").isalnum():
            raise InputError(
                f"--api-key-env must name an environment variable, got {api_key_env!r}"
            )
        if timeout <= 0:
            raise InputError(f"timeout must be positive, got {timeout}")
        self.model = model
        self.base_url = base_url
        self.api_key_env = api_key_env
        self.timeout = timeout
        self.temperature = temperature
        self.max_tokens = max_tokens
        self.extra_body = extra_body
        from .wire import DEFAULT_MAX_REPLY_BYTES

        # a reply body is cut while it arrives (gzip included): llm/wire.py
        self.max_reply_bytes = max_reply_bytes or DEFAULT_MAX_REPLY_BYTES
        self._lock = threading.Lock()
        self._client: Any = None
        # One async client per event loop: an httpx pool must not outlive the loop it was used on.
        self._aclients: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Any] = (
            weakref.WeakKeyDictionary()
        )

    def __repr__(self) -> str:
        return (
            f"OpenAICompatible(model={self.model!r}, base_url={self._where()!r}, "
            f"api_key_env={self.api_key_env!r})"
        )

    # -- clients -------------------------------------------------------------------------------
    def _api_key(self) -> str:
        key = os.environ.get(self.api_key_env)
        if not key:
            logger.debug("%s is not set; sending a dummy API key", self.api_key_env)
            return DUMMY_API_KEY
        return key

    def _client_kwargs(self) -> dict[str, Any]:
        return {
            "api_key": self._api_key(),
            "base_url": self.base_url,
            "max_retries": 0,
            "timeout": self.timeout,
        }

    def _async_kwargs(self) -> dict[str, Any]:
        from .wire import capped_async_client

        return {**self._client_kwargs(), "http_client": capped_async_client(self.max_reply_bytes)}

    def _sync_client(self) -> Any:
        with self._lock:
            if self._client is None:
                openai = require("openai", "llm")
                self._client = openai.OpenAI(**self._client_kwargs())
            return self._client

    def _async_client(self) -> Any:
        loop = asyncio.get_running_loop()
        with self._lock:
            client = self._aclients.get(loop)
            if client is None:
                openai = require("openai", "llm")
                client = openai.AsyncOpenAI(**self._async_kwargs())
                self._aclients[loop] = client
            return client

    def _request(
        self, messages: list[dict[str, str]], timeout: float | None, max_tokens: int | None
    ) -> tuple[dict[str, Any], float]:
        """The request body and its wall-clock timeout."""
        body: dict[str, Any] = {"model": self.model, "messages": messages}
        limit = _min_known(self.max_tokens, max_tokens)
        if limit is not None:
            body["max_tokens"] = max(1, limit)
        if self.temperature is not None:
            body["temperature"] = self.temperature
        if self.extra_body:
            body.update(self.extra_body)
        return body, self.timeout if timeout is None else timeout

    # -- the ChatModel protocol ----------------------------------------------------------------
    def complete(
        self,
        messages: list[dict[str, str]],
        *,
        timeout: float | None = None,
        max_tokens: int | None = None,
    ) -> Completion:
        """One chat completion; ``max_tokens`` caps the reply (the gate passes its budget).

        ``timeout`` (default: the adapter's) bounds the whole request by the wall clock. The
        SDK's own timeout bounds each socket read, so a server that trickles a byte now and then
        would hold it forever: the request runs on an event loop under ``asyncio.wait_for``,
        which closes the connection when the time is up."""
        body, limit = self._request(messages, timeout, max_tokens)

        async def once() -> Any:
            client = require("openai", "llm").AsyncOpenAI(**self._async_kwargs())
            try:
                return await _create(client, body, limit)
            finally:
                await client.close()

        try:
            response = run_sync(once)
        except Exception as exc:
            raise self._translate(exc) from None
        return self._completion(response)

    async def acomplete(
        self,
        messages: list[dict[str, str]],
        *,
        timeout: float | None = None,
        max_tokens: int | None = None,
    ) -> Completion:
        client = self._async_client()
        body, limit = self._request(messages, timeout, max_tokens)
        try:
            response = await _create(client, body, limit)
        except Exception as exc:
            raise self._translate(exc) from None
        return self._completion(response)

    async def aclose(self) -> None:
        """Close the async client of the running event loop (call before the loop ends).

        Otherwise the SDK closes it when it is garbage-collected, possibly inside a later loop,
        which logs "Event loop is closed".
        """
        loop = asyncio.get_running_loop()
        with self._lock:
            client = self._aclients.pop(loop, None)
        if client is not None:
            await client.close()

    def close(self) -> None:
        """Close the sync client's connections."""
        with self._lock:
            client, self._client = self._client, None
        if client is not None:
            client.close()

    # -- translation ---------------------------------------------------------------------------
    def _completion(self, response: Any) -> Completion:
        """A Completion from the reply's JSON (a dict as the server sent it, unvalidated)."""
        choices = _field(response, "choices")
        if not isinstance(choices, list) or not choices:
            raise LLMError("invalid_response", f"{self._where()}: reply has no choices")
        choice = choices[0]
        message = _field(choice, "message")
        content = _field(message, "content")
        if content is not None and not isinstance(content, str):
            # a server that sends {"content": 42} or a list: not a text reply
            kind = "a number" if isinstance(content, (int, float)) else type(content).__name__
            raise LLMError(
                "invalid_response", f"{self._where()}: reply content is {kind}, not text"
            )
        text = _without_reasoning(content or "")
        finish = _field(choice, "finish_reason")
        finish = finish if isinstance(finish, str) else None
        if _field(message, "refusal") and not text:
            finish = "refusal"
        usage = None
        raw_usage = _field(response, "usage")
        if isinstance(raw_usage, dict):
            usage = Usage(
                _count(raw_usage, "prompt_tokens"), _count(raw_usage, "completion_tokens")
            )
        model = _field(response, "model")
        return Completion(
            text=text,
            finish_reason=finish,
            usage=usage,
            model=model if isinstance(model, str) else None,
        )

    def _where(self) -> str:
        if not self.base_url:
            return "the OpenAI API"
        from urllib.parse import urlsplit, urlunsplit

        # Credentials written into the URL (http://user:secret@host) stay out of messages.
        parts = urlsplit(self.base_url)
        host = parts.netloc.rsplit("@", 1)[-1]
        return urlunsplit((parts.scheme, host, parts.path, "", ""))

    def _scrub(self, text: str) -> str:
        key = os.environ.get(self.api_key_env)
        if key and len(key) >= 4:
            text = text.replace(key, "***")
            # Providers echo a key partially ("sk-abc***wxyz"); hide any long prefix/suffix too.
            for part in (key[:8], key[-8:]):
                if len(part) >= 6:
                    text = text.replace(part, "***")
        return " ".join(text.split())[:300]

    def _translate(self, exc: Exception) -> Exception:
        """An SDK or transport exception as an LLMError with a kind; the key scrubbed out."""
        try:
            openai = require("openai", "llm")
        except Exception:  # pragma: no cover - we got here through openai
            return exc
        where = self._where()
        from .wire import ReplyTooLarge

        cause = _in_chain(exc, (ReplyTooLarge, RecursionError))
        if isinstance(cause, ReplyTooLarge):
            return LLMError("oversize", f"{where}: {cause}")
        if isinstance(cause, RecursionError):
            return LLMError("invalid_response", f"{where}: reply JSON nested too deeply to read")
        if isinstance(exc, LLMError):
            return exc
        refused = _refused(exc)
        if refused is None and isinstance(
            exc, (openai.APITimeoutError, TimeoutError, asyncio.TimeoutError)
        ):
            return LLMError("timeout", f"{where}: request timed out")
        if refused is not None or isinstance(exc, openai.APIConnectionError):
            cause = refused or exc.__cause__ or exc.__context__
            detail = f" ({self._scrub(str(cause))})" if cause else ""
            return LLMError("connection", f"cannot reach {where}{detail}")
        if isinstance(exc, openai.APIResponseValidationError):
            return LLMError("invalid_response", f"{where}: malformed reply")
        if isinstance(exc, openai.APIStatusError):
            return self._from_status(exc, where)
        if isinstance(exc, openai.APIError):
            # e.g. a 200 whose body is not JSON: the server is misbehaving, resending may help.
            return LLMError("invalid_response", f"{where}: {self._scrub(str(exc))}")
        if isinstance(exc, ValueError):
            # a 200 whose body is not JSON (a proxy's HTML page, a cut connection)
            return LLMError("invalid_response", f"{where}: reply is not JSON")
        return exc

    def _from_status(self, exc: Any, where: str) -> LLMError:
        status = int(exc.status_code)
        detail = self._scrub(_error_detail(exc))
        lowered = detail.lower()
        msg = f"{where}: HTTP {status}: {detail}" if detail else f"{where}: HTTP {status}"
        if status in (401, 403):
            hint = f" (check ${self.api_key_env})"
            return LLMError(
                "auth", f"{where}: authentication failed, HTTP {status}{hint}", status=status
            )
        if status == 429:
            return LLMError("rate_limit", msg, status=status, retry_after_s=_retry_after(exc))
        if status == 408:
            return LLMError("timeout", msg, status=status)
        if status >= 500 or status == 409:
            return LLMError("server", msg, status=status, retry_after_s=_retry_after(exc))
        if status == 413 or any(m in lowered for m in _CONTEXT_OVERFLOW_MARKERS):
            return LLMError("context_overflow", msg, status=status)
        if any(m in lowered for m in _REFUSAL_MARKERS):
            return LLMError("refusal", msg, status=status)
        if status == 404:
            return LLMError("not_found", msg, status=status)
        return LLMError("bad_request", msg, status=status)


async def _create(client: Any, body: dict[str, Any], timeout: float) -> Any:
    """``POST /chat/completions`` through the SDK, bounded by ``timeout`` on the wall clock (see
    ``complete``); the reply's JSON as sent.

    The SDK's typed ``chat.completions.create`` transforms the parameters and builds models of
    the reply: 0.3–0.4 ms of CPU a call on loopback on top of the 0.5–0.7 ms of this raw post
    (a 1,000-character reply, either HTTP client; docs/commands/serve.md). Its ``post`` with the
    raw response type keeps the rest: base URL, key, proxies, timeouts and its error classes."""
    import orjson

    from .wire import _http_module

    call = client.post(
        "/chat/completions",
        cast_to=_http_module().Response,
        body=body,
        options={"timeout": timeout},
    )
    response = await asyncio.wait_for(call, timeout)
    try:
        return orjson.loads(response.content)  # not JSON: a ValueError, an invalid response
    except orjson.JSONDecodeError as exc:
        if "depth limit" in str(exc):  # orjson reads 1,024 levels; _translate names the cause
            raise RecursionError("reply JSON nested too deeply") from None
        raise


def _field(value: Any, name: str) -> Any:
    return value.get(name) if isinstance(value, dict) else None


def _count(usage: dict[str, Any], name: str) -> int:
    value = usage.get(name)
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        return 0  # missing, negative, NaN or not a number: unknown, counted as none
    return int(min(value, 2**62))


def run_sync(make: Any) -> Any:
    """Run the coroutine ``make()`` to its end from synchronous code: on a new event loop, or,
    when this thread already runs one, on a helper thread."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(1, thread_name_prefix="genlint-llm") as pool:
        return pool.submit(lambda: asyncio.run(make())).result()


def _without_reasoning(text: str) -> str:
    """The answer without a leading ``<think>…</think>`` block.

    Reasoning models served by Ollama or vLLM (DeepSeek-R1, Qwen3) put their reasoning in the
    content; checked as the answer, its drafts and "X" variables would be findings.
    """
    stripped = text.lstrip()
    if stripped.startswith("<think>"):
        end = stripped.find("</think>")
        if end != -1:
            return stripped[end + len("</think>") :].lstrip()
    return text


def _min_known(a: int | None, b: int | None) -> int | None:
    known = [v for v in (a, b) if v is not None]
    return min(known) if known else None


def _error_detail(exc: Any) -> str:
    body = getattr(exc, "body", None)
    if isinstance(body, dict):
        inner = body.get("error", body)
        if isinstance(inner, dict):
            code = inner.get("code")
            # A code that only repeats the HTTP status says nothing new.
            if str(code) == str(getattr(exc, "status_code", "")):
                code = None
            parts = [str(v) for v in (code, inner.get("message")) if v]
            if parts:
                return ": ".join(parts)
        elif isinstance(inner, str):
            return inner
    return str(getattr(exc, "message", "") or "")


def _refused(exc: BaseException) -> BaseException | None:
    """The socket error under a failed connection (refused, unreachable, no such host), however
    the transport reported it: the aiohttp transport the SDK ships calls every connection error a
    connect timeout (llm/wire.py)."""
    for cause in _chain(exc):
        socket = isinstance(cause, OSError) and not isinstance(cause, TimeoutError)
        if socket and (
            type(cause).__module__.startswith("aiohttp") or isinstance(cause, ConnectionError)
        ):
            return cause
    return None


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not s for s in seen):
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _in_chain(exc: BaseException, kinds: tuple[type[BaseException], ...]) -> BaseException | None:
    """The first exception of one of ``kinds`` in ``exc``'s chain of causes and contexts."""
    return next((cause for cause in _chain(exc) if isinstance(cause, kinds)), None)


def _retry_after(exc: Any) -> float | None:
    headers = getattr(getattr(exc, "response", None), "headers", None)
    if headers is None:
        return None
    value = headers.get("retry-after-ms")
    if value is not None:
        try:
            return float(value) / 1000.0
        except ValueError:
            pass
    value = headers.get("retry-after")
    if value is None:
        return None
    try:
        seconds = float(value)
    except ValueError:
        return _seconds_until(value)
    return max(0.0, seconds) if seconds == seconds and seconds != float("inf") else None


def _seconds_until(http_date: str) -> float | None:
    """Seconds from now until an HTTP date (``Retry-After: Wed, 21 Oct 2026 07:28:00 GMT``),
    0 for a date already past; None for text that is no date."""
    import email.utils
    import time

    try:
        when = email.utils.parsedate_to_datetime(http_date.strip())
    except (TypeError, ValueError, IndexError, OverflowError):
        return None
    if when is None:
        return None
    if when.tzinfo is None:  # an HTTP date is GMT
        import datetime

        when = when.replace(tzinfo=datetime.timezone.utc)
    return max(0.0, when.timestamp() - time.time())
