"""``POST /v1/chat/completions``: mask, forward through the gate, check, re-ask, restore.

Personal data in the messages is replaced by tokens (a vault per request, in memory only)
before anything leaves the process; the gate checks the reply in its masked form, so a value
the user gave is never counted as a leak of the reply, and re-asks quote only masked text. The
returned text is the gate's final reply with any personal data the model made up masked
(``keep-ends``, when the gate ran out of attempts) and the user's own tokens restored.
"""

from __future__ import annotations

import time
import uuid
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..errors import InputError
from ..generate.gate import Gate
from ..generate.result import GateResult
from ..mask import Masker, Vault
from .settings import ServeSettings

#: characters of content per streamed chunk (the final text is known when streaming starts)
STREAM_CHUNK_CHARS = 24

# Why the gate stopped without a reply → the HTTP status that says whose fault it was.
_STATUS_BY_KIND = {
    "timeout": 504,
    "deadline": 504,
    "rate_limit": 429,
    "connection": 502,
    "server": 502,
    "invalid_response": 502,
    "auth": 502,  # the upstream key is the service's, not the client's
    "refusal": 502,
    "context_overflow": 400,
    "bad_request": 400,
    "not_found": 404,
}


class ServeError(Exception):
    """An error answered as JSON with its status (4xx the client's fault, 5xx the upstream's)."""

    def __init__(self, status: int, message: str, kind: str = "invalid_request_error") -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind


class Maskers:
    """The service's maskers and the gate's checks, built once: choosing the rules costs more
    than masking a prompt. Each request gets the token masker with a vault of its own
    (``with_vault``); ``keep_ends`` masks degraded replies and Dify's moderation."""

    def __init__(self, settings: ServeSettings) -> None:
        from ..generate.checks import resolve_checks

        self.token = Masker("token")
        self.keep_ends = Masker("keep-ends")
        self.checks = resolve_checks(list(settings.select))


@dataclass
class ChatReply:
    body: dict[str, Any]
    summary: dict[str, Any]
    text: str

    def chunks(self) -> Iterator[dict[str, Any]]:
        """The reply as ``chat.completion.chunk`` objects (role, content pieces, finish)."""
        base = {k: self.body[k] for k in ("id", "created", "model")}
        base["object"] = "chat.completion.chunk"
        choice = self.body["choices"][0]
        yield {**base, "choices": [{"index": 0, "delta": {"role": "assistant", "content": ""}, "finish_reason": None}]}  # fmt: skip
        text = self.text
        for i in range(0, len(text), STREAM_CHUNK_CHARS):
            piece = text[i : i + STREAM_CHUNK_CHARS]
            yield {**base, "choices": [{"index": 0, "delta": {"content": piece}, "finish_reason": None}]}  # fmt: skip
        yield {**base, "choices": [{"index": 0, "delta": {}, "finish_reason": choice["finish_reason"]}], "usage": self.body["usage"]}  # fmt: skip


def parse_request(
    body: Any, settings: ServeSettings
) -> tuple[str, list[dict[str, str]], dict[str, Any]]:
    """(model, messages as role/content strings, sampling options) or a 400."""
    if not isinstance(body, dict):
        raise ServeError(400, "the request body must be a JSON object")
    model = body.get("model")
    if not isinstance(model, str) or not model.strip():
        raise ServeError(400, "'model' must be a non-empty string")
    raw = body.get("messages")
    if not isinstance(raw, list) or not raw:
        raise ServeError(400, "'messages' must be a non-empty list")
    if len(raw) > settings.max_messages:
        raise ServeError(413, f"too many messages ({len(raw)} > {settings.max_messages})")
    for name in ("tools", "functions"):
        if body.get(name):  # dropped, the model would answer in text without saying so
            raise ServeError(400, f"'{name}' is not supported by the gate (it checks text replies)")
    messages = []
    for i, m in enumerate(raw):
        if not isinstance(m, dict) or not isinstance(m.get("role"), str):
            raise ServeError(400, f"messages[{i}] must be an object with a 'role'")
        if m.get("tool_calls") or m.get("function_call"):
            raise ServeError(400, f"messages[{i}]: tool calls are not supported by the gate")
        messages.append({"role": m["role"], "content": _content(m.get("content"), i)})
    if body.get("n", 1) != 1:
        raise ServeError(400, "'n' other than 1 is not supported by the gate")
    options = {}
    for name in ("temperature", "max_tokens"):
        value = body.get(name)
        if value is not None:
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise ServeError(400, f"'{name}' must be a number")
            options[name] = value
    return model, messages, options


def _content(content: Any, index: int) -> str:
    if isinstance(content, str):
        return content
    if content is None:
        return ""
    if isinstance(content, list):  # content parts: the text parts are what the gate reads
        texts = []
        for part in content:
            if not isinstance(part, dict) or part.get("type") != "text":
                raise ServeError(400, f"messages[{index}]: only text content parts are supported")
            texts.append(str(part.get("text", "")))
        return "".join(texts)
    raise ServeError(400, f"messages[{index}].content must be a string or a list of text parts")


async def complete(
    body: Any,
    settings: ServeSettings,
    model_factory: Any,
    deadline_s: float,
    maskers: Maskers,
) -> ChatReply:
    from starlette.concurrency import run_in_threadpool

    model, messages, options = parse_request(body, settings)
    masker = maskers.token.with_vault(Vault())
    # masking is CPU work: on a thread, so that /healthz and other requests are answered
    # meanwhile, stopping between messages once the deadline has passed (the 504 is sent by
    # the guard; the thread does not go on masking for nobody: docs/commands/serve.md,
    # "Bounded work")
    stop_at = time.monotonic() + deadline_s
    masked_messages, masked = await run_in_threadpool(_mask_messages, masker, messages, stop_at)
    gate = Gate(
        maskers.checks,
        max_retries=settings.max_retries,
        deadline_s=deadline_s,
        token_budget=settings.token_budget,
        attempt_timeout_s=min(settings.attempt_timeout_s, deadline_s),
        on_fail="best",
        max_transient_retries=settings.transient_retries,
    )
    try:
        result = await gate.arun(model_factory(model, **options), masked_messages)
    except InputError as exc:
        raise ServeError(400, str(exc)) from exc
    if result.text is None:
        raise _failure(result)
    text = result.text
    findings = Counter(f.rule for f in result.findings)
    if not result.ok:
        # out of attempts: the best reply goes back with the personal data it made up masked
        text = maskers.keep_ends.mask(text).text
    assert masker.vault is not None
    text, restored, _unknown = masker.vault.restore(text)
    usage = result.total_usage
    summary = {
        "status": result.status,
        "stop_reason": result.stop_reason,
        "attempts": result.content_attempts,
        "findings": dict(sorted(findings.items())),
        "masked": dict(sorted(masked.items())),
        "restored": restored,
    }
    chosen = next((a for a in result.attempts if a.n == result.chosen), None)
    finish = (chosen.finish_reason if chosen is not None else None) or "stop"
    reply = {
        "id": f"chatcmpl-genlint-{uuid.uuid4().hex}",
        "object": "chat.completion",
        "created": int(time.time()),
        "model": model,
        "choices": [
            {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}
        ],
        "usage": {
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "total_tokens": usage.total_tokens,
        },
    }
    return ChatReply(reply, summary, text)


def _mask_messages(
    masker: Masker, messages: list[dict[str, str]], stop_at: float
) -> tuple[list[dict[str, str]], Counter[str]]:
    """Every message masked with the request's one vault, or a 504 once ``stop_at`` passed."""
    out_messages = []
    masked = Counter[str]()
    assert masker.vault is not None
    for m in messages:
        # every message's token-shaped text first: a `<PHONE_1>` typed in a later message is
        # the user's text, never the token of an earlier message's value
        masker.vault.note_literals(m["content"])
    user_tokens: set[str] = set()
    for m in messages:
        if time.monotonic() > stop_at:
            raise ServeError(504, "request deadline passed while masking the messages", "timeout")
        out = masker.mask(m["content"])
        masked.update(r.rule for r in out.replacements)
        if m["role"] == "user":
            user_tokens.update(r.replacement for r in out.replacements)
        out_messages.append({"role": m["role"], "content": out.text})
    # only what the user gave comes back: values of system and tool messages stay masked
    # (docs/commands/serve.md, "Chat")
    for token in [t for t in masker.vault.tokens if t not in user_tokens]:
        del masker.vault.tokens[token]
    return out_messages, masked


def _failure(result: GateResult) -> ServeError:
    kind = result.stop_reason
    if kind == "transient_retries":
        last = next((a.error_kind for a in reversed(result.attempts) if a.error_kind), None)
        kind = last or "server"
    status = _STATUS_BY_KIND.get(kind, 502)
    who = "upstream" if status >= 500 or status == 429 else "request"
    message = f"{who} failed: {kind}"
    if result.last_error:
        message += f" ({_one_line(result.last_error)})"
    return ServeError(
        status, message, "upstream_error" if who == "upstream" else "invalid_request_error"
    )


def _one_line(text: str) -> str:
    line = " ".join(text.split())
    return line[:200]
