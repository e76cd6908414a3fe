"""The Gate: generate, check, re-ask with the findings, within budgets.

A *generator* is what the gate calls to get a reply. Any of:

- a :class:`~genlint.llm.base.ChatModel` (``.complete(messages, *, timeout)``; ``.acomplete``
  is used by ``arun`` when present), e.g. :class:`genlint.llm.OpenAICompatible`;
- a function ``generate(messages) -> str | Completion``, sync or ``async``.

A generator that takes a ``timeout`` keyword is trusted to honour it; one that does not is run
on a watchdog thread (sync) or under ``asyncio.wait_for`` (async) and abandoned when late. A
generator that takes ``max_tokens`` receives the room left in the token budget.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
import time
from collections.abc import Awaitable, Callable, Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from typing import Any

from ..errors import InputError
from ..llm.base import Completion
from ..llm.errors import LLMError
from .checks import Check, resolve_checks
from .result import Attempt, GateFailed, GateResult
from .session import OnFail, OnTerminal, Policy, Request, Session

logger = logging.getLogger(__name__)

Prompt = str | list[dict[str, str]]
Hook = Callable[[Attempt], None]
DEFAULT_CHECKS = ("placeholder", "sensitive")
# A generator that honours its own timeout gets this much longer before the watchdog fires, so
# its own (typed) timeout error wins the race.
_GRACE_S = 0.5


class Gate:
    """Generate until the reply passes ``checks``.

    ``max_retries``: re-asks after the first attempt (content attempts = 1 + max_retries).
    ``deadline_s``: wall-clock limit of a run; no request is sent after it and each request's
    timeout is cut to the time left. ``token_budget``: prompt + completion tokens of a run,
    retries included (the estimate rule is in :mod:`genlint.generate.budget`).
    ``attempt_timeout_s``: limit of one request. ``on_fail``: ``best`` returns the complete
    attempt with the fewest findings as ``degraded``; ``none`` returns ``failed`` without text;
    ``raise`` raises :class:`GateFailed`. ``on_terminal``: after a truncated
    (``finish_reason="length"``) or refused reply, ``stop`` or ``resend`` the same request (a
    fresh sample, counted as a content attempt; never a re-ask quoting a cut reply). Context
    overflow and auth errors always stop. Transient errors (timeout, 429, 5xx, connection) are
    resent after a full-jitter backoff, at most ``max_transient_retries`` times per run, and
    do not count as content attempts. ``hooks`` are called with each :class:`Attempt`; a hook
    that raises is logged and ignored, so metrics never break generation.
    ``max_reply_chars``: a longer reply is cut and reported as a terminal ``oversize`` attempt
    (default: 8 characters per ``max_tokens`` of the request, else 1,000,000). Checks run
    within the deadline: a reply still being checked when it passes ends the run on time.
    ``reask_findings``: how many findings a re-ask quotes (the rest are counted); an attempt
    keeps at most 1,000 findings, with their exact count in ``finding_count``.
    ``mask_prompts``: personal data in every message sent (the prompt, and re-asks quoting a
    reply) is replaced by tokens (``<PHONE_1>``) before the model sees it, and the reply's
    tokens are restored before the checks run; ``result.extra["masking"]`` counts what was
    masked and restored (never the values).
    """

    def __init__(
        self,
        checks: Iterable[Check | str] | Check | str = DEFAULT_CHECKS,
        *,
        max_retries: int = 3,
        deadline_s: float | None = None,
        token_budget: int | None = None,
        attempt_timeout_s: float | None = 60.0,
        on_fail: OnFail = "best",
        on_terminal: OnTerminal = "stop",
        hooks: Sequence[Hook] = (),
        max_transient_retries: int = 4,
        backoff_base_s: float = 0.5,
        backoff_max_s: float = 8.0,
        system: str | None = None,
        max_reply_chars: int | None = None,
        reask_findings: int = 20,
        mask_prompts: bool = False,
    ) -> None:
        _require(isinstance(max_retries, int) and max_retries >= 0, "max_retries must be ≥ 0")
        _require(deadline_s is None or deadline_s > 0, "deadline_s must be positive")
        _require(token_budget is None or token_budget > 0, "token_budget must be positive")
        _require(
            attempt_timeout_s is None or attempt_timeout_s > 0, "attempt_timeout_s must be positive"
        )
        _require(
            on_fail in ("best", "none", "raise"),
            f"on_fail must be best|none|raise, not {on_fail!r}",
        )
        _require(
            on_terminal in ("stop", "resend"),
            f"on_terminal must be stop|resend, not {on_terminal!r}",
        )
        _require(max_transient_retries >= 0, "max_transient_retries must be ≥ 0")
        _require(0 <= backoff_base_s <= backoff_max_s, "need 0 ≤ backoff_base_s ≤ backoff_max_s")
        _require(max_reply_chars is None or max_reply_chars > 0, "max_reply_chars must be positive")
        _require(reask_findings >= 1, "reask_findings must be ≥ 1")
        self.checks = resolve_checks(checks)
        self.policy = Policy(
            max_retries=max_retries,
            deadline_s=deadline_s,
            token_budget=token_budget,
            attempt_timeout_s=attempt_timeout_s,
            on_fail=on_fail,
            on_terminal=on_terminal,
            max_transient_retries=max_transient_retries,
            backoff_base_s=backoff_base_s,
            backoff_max_s=backoff_max_s,
            max_reply_chars=max_reply_chars,
            reask_findings=reask_findings,
        )
        self.hooks = list(hooks)
        self.system = system
        self.mask_prompts = mask_prompts

    def __repr__(self) -> str:
        return f"Gate(checks={len(self.checks)}, policy={self.policy})"

    # -- one prompt, sync -------------------------------------------------------------------
    def run(self, generate: Any, prompt: Prompt) -> GateResult:
        """Run the loop with a sync generator (or ChatModel) and return its result."""
        result = self._run(generate, prompt)
        if not result.ok and self.policy.on_fail == "raise":
            raise GateFailed(result)
        return result

    def _run(self, generate: Any, prompt: Prompt) -> GateResult:
        session = self._session(prompt)
        call = _sync_caller(generate)
        masking = _Masking() if self.mask_prompts else None
        if masking is not None:
            call = masking.wrap(call)
        while (request := session.next()) is not None:
            if request.delay_s > 0:
                time.sleep(request.delay_s)
            sent = session.sending()
            if sent is None:
                break
            try:
                completion = call(sent)
            except (LLMError, TimeoutError, ConnectionError) as exc:
                attempt = session.on_error(exc)
            else:
                attempt = session.on_reply(completion)
            self._fire(attempt)
        return _finish(session.result(), masking)

    # -- one prompt, async ------------------------------------------------------------------
    async def arun(self, generate: Any, prompt: Prompt) -> GateResult:
        """Run the loop awaiting an async generator (sync ones run on a worker thread)."""
        result = await self._arun(generate, prompt)
        if not result.ok and self.policy.on_fail == "raise":
            raise GateFailed(result)
        return result

    async def _arun(self, generate: Any, prompt: Prompt, item: int | None = None) -> GateResult:
        session = self._session(prompt, item)
        call = _async_caller(generate)
        masking = _Masking() if self.mask_prompts else None
        if masking is not None:
            call = masking.awrap(call)
        while (request := session.next()) is not None:
            if request.delay_s > 0:
                await asyncio.sleep(request.delay_s)
            sent = session.sending()
            if sent is None:
                break
            try:
                completion = await call(sent)
            except (LLMError, TimeoutError, asyncio.TimeoutError, ConnectionError) as exc:
                error = (
                    exc if isinstance(exc, LLMError | ConnectionError) else TimeoutError(str(exc))
                )
                attempt = session.on_error(error)
            else:
                attempt = session.on_reply(completion)
            self._fire(attempt)
        return _finish(session.result(), masking)

    # -- batches ----------------------------------------------------------------------------
    def run_many(
        self,
        generate: Any,
        items: Iterable[Prompt],
        *,
        concurrency: int = 8,
        progress: Callable[[int], None] | None = None,
        on_result: Callable[[int, GateResult], None] | None = None,
    ) -> list[GateResult]:
        """Run every prompt, ``concurrency`` at a time; results in input order.

        ``progress(1)`` is called as each prompt finishes (the CLI draws a bar with it), and
        ``on_result(index, result)`` with the result itself, so a caller can keep every finished
        result even when the batch is interrupted. Under
        ``on_fail="raise"`` the whole batch runs first, then GateFailed names the first
        failure and carries every result in ``.results``.
        """
        try:
            asyncio.get_running_loop()
        except RuntimeError:
            pass
        else:
            raise RuntimeError("run_many() inside an event loop: use `await gate.arun_many(...)`")
        prompts = list(items)
        _require(concurrency >= 1, "concurrency must be ≥ 1")

        async def main() -> list[GateResult]:
            # Sync generators run on threads: give the loop enough of them for `concurrency`.
            loop = asyncio.get_running_loop()
            executor = ThreadPoolExecutor(
                max_workers=concurrency, thread_name_prefix="genlint-gate"
            )
            loop.set_default_executor(executor)
            try:
                return await self.arun_many(
                    generate,
                    prompts,
                    concurrency=concurrency,
                    progress=progress,
                    on_result=on_result,
                )
            finally:
                # Release the generator's loop-bound resources (an async HTTP pool) while
                # this loop still runs; a generator without ``aclose`` has none.
                closer = getattr(generate, "aclose", None)
                if callable(closer):
                    await closer()

        return asyncio.run(main())

    async def arun_many(
        self,
        generate: Any,
        items: Iterable[Prompt],
        *,
        concurrency: int = 8,
        progress: Callable[[int], None] | None = None,
        on_result: Callable[[int, GateResult], None] | None = None,
    ) -> list[GateResult]:
        prompts = list(items)
        _require(concurrency >= 1, "concurrency must be ≥ 1")
        results: list[GateResult | None] = [None] * len(prompts)
        limit = asyncio.Semaphore(concurrency)

        async def one(index: int, prompt: Prompt) -> None:
            async with limit:
                result = results[index] = await self._arun(generate, prompt, index)
            if on_result is not None:
                on_result(index, result)
            if progress is not None:
                progress(1)

        await asyncio.gather(*(one(i, p) for i, p in enumerate(prompts)))
        done = [r for r in results if r is not None]
        if len(done) != len(prompts):  # pragma: no cover - gather raises before this
            raise RuntimeError("a batch item produced no result")
        if self.policy.on_fail == "raise":
            failed = next((r for r in done if not r.ok), None)
            if failed is not None:
                raise GateFailed(failed, done)
        return done

    # -- internals --------------------------------------------------------------------------
    def _session(self, prompt: Prompt, item: int | None = None) -> Session:
        return Session(to_messages(prompt, self.system), self.checks, self.policy, item=item)

    def _fire(self, attempt: Attempt) -> None:
        logger.debug(
            "attempt %d (%s): %s, %d finding(s), %.3fs%s",
            attempt.n,
            attempt.request,
            attempt.outcome,
            attempt.finding_count,
            attempt.duration_s,
            f", {attempt.error}" if attempt.error else "",
        )
        for hook in self.hooks:
            try:
                hook(attempt)
            except Exception:
                logger.warning("gate hook %r failed", hook, exc_info=True)


class _Masking:
    """One run's token vault: messages masked on the way out, replies restored on the way in."""

    def __init__(self) -> None:
        from ..mask import Masker

        self.masker = Masker("token")
        self.by_rule: dict[str, int] = {}
        self.messages = 0
        self.restored = 0

    def _out(self, request: Request) -> Request:
        messages = []
        for m in request.messages:
            result = self.masker.mask(m["content"])
            if result.replacements:
                self.messages += 1
                for rule, n in result.counts.items():
                    self.by_rule[rule] = self.by_rule.get(rule, 0) + n
            messages.append({**m, "content": result.text})
        return replace(request, messages=messages)

    def _in(self, completion: Completion) -> Completion:
        assert self.masker.vault is not None
        text, count, _unknown = self.masker.vault.restore(completion.text)
        self.restored += count
        return replace(completion, text=text) if count else completion

    def wrap(self, call: Callable[[Request], Completion]) -> Callable[[Request], Completion]:
        return lambda request: self._in(call(self._out(request)))

    def awrap(
        self, call: Callable[[Request], Awaitable[Completion]]
    ) -> Callable[[Request], Awaitable[Completion]]:
        async def masked(request: Request) -> Completion:
            return self._in(await call(self._out(request)))

        return masked

    def summary(self) -> dict[str, Any]:
        vault = self.masker.vault
        return {
            "values": len(vault) if vault is not None else 0,
            "masked": sum(self.by_rule.values()),
            "by_rule": dict(sorted(self.by_rule.items())),
            "messages": self.messages,
            "restored": self.restored,
        }


def _finish(result: GateResult, masking: _Masking | None) -> GateResult:
    if masking is not None:
        result.extra["masking"] = masking.summary()
    return result


def to_messages(prompt: Prompt, system: str | None = None) -> list[dict[str, str]]:
    if isinstance(prompt, str):
        messages = [{"role": "user", "content": prompt}]
    elif isinstance(prompt, list) and all(
        isinstance(m, dict) and isinstance(m.get("role"), str) and isinstance(m.get("content"), str)
        for m in prompt
    ):
        messages = [dict(m) for m in prompt]
    else:
        raise InputError("a prompt is a string or a list of {role, content} messages")
    if not messages:
        raise InputError("a prompt needs at least one message")
    if system and messages[0]["role"] != "system":
        messages.insert(0, {"role": "system", "content": system})
    return messages


# -- calling generators -------------------------------------------------------------------------
def _target(generate: Any, *, want_async: bool) -> tuple[Callable[..., Any], bool]:
    """The function to call and whether it is a coroutine function."""
    if want_async and callable(getattr(generate, "acomplete", None)):
        return generate.acomplete, True
    if callable(getattr(generate, "complete", None)):
        return generate.complete, False
    if callable(getattr(generate, "acomplete", None)):  # an async-only model under run()
        return generate.acomplete, True
    if not callable(generate):
        raise InputError(
            f"a generator must be callable or a ChatModel, got {type(generate).__name__}"
        )
    is_async = inspect.iscoroutinefunction(generate) or inspect.iscoroutinefunction(
        getattr(generate, "__call__", None)  # noqa: B004 - callable objects with async __call__
    )
    return generate, is_async


def _accepts(fn: Callable[..., Any]) -> tuple[bool, bool]:
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False, False
    return "timeout" in params, "max_tokens" in params


def _kwargs(request: Request, takes_timeout: bool, takes_max: bool) -> dict[str, Any]:
    kwargs: dict[str, Any] = {}
    if takes_timeout and request.timeout_s is not None:
        kwargs["timeout"] = request.timeout_s
    if takes_max and request.max_tokens is not None:
        kwargs["max_tokens"] = request.max_tokens
    return kwargs


def _completion(value: Any) -> Completion:
    if isinstance(value, Completion):
        return value
    if isinstance(value, str):
        return Completion(value)
    raise TypeError(f"a generator must return str or Completion, not {type(value).__name__}")


def _sync_caller(generate: Any) -> Callable[[Request], Completion]:
    fn, is_async = _target(generate, want_async=False)
    takes_timeout, takes_max = _accepts(fn)

    def call(request: Request) -> Completion:
        kwargs = _kwargs(request, takes_timeout, takes_max)
        if is_async:
            return _completion(
                asyncio.run(_bounded(fn(request.messages, **kwargs), request, takes_timeout))
            )
        if request.timeout_s is None or takes_timeout:
            return _completion(fn(request.messages, **kwargs))
        return _completion(_watchdog(fn, request.messages, kwargs, request.timeout_s))

    return call


def _async_caller(generate: Any) -> Callable[[Request], Awaitable[Completion]]:
    fn, is_async = _target(generate, want_async=True)
    takes_timeout, takes_max = _accepts(fn)

    async def call(request: Request) -> Completion:
        kwargs = _kwargs(request, takes_timeout, takes_max)
        if is_async:
            value = fn(request.messages, **kwargs)
        else:
            value = asyncio.to_thread(fn, request.messages, **kwargs)
        return _completion(await _bounded(value, request, takes_timeout))

    return call


async def _bounded(value: Awaitable[Any], request: Request, trusted: bool) -> Any:
    if request.timeout_s is None:
        return await value
    limit = request.timeout_s + (_GRACE_S if trusted else 0.0)
    try:
        return await asyncio.wait_for(value, limit)
    except asyncio.TimeoutError:
        raise TimeoutError(f"attempt timed out after {request.timeout_s:.3g}s") from None


def _watchdog(fn: Callable[..., Any], messages: Any, kwargs: dict[str, Any], timeout: float) -> Any:
    """Call ``fn`` on a daemon thread; give up on it after ``timeout`` seconds."""
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = fn(messages, **kwargs)
        except BaseException as exc:
            box["error"] = exc

    thread = threading.Thread(target=target, daemon=True, name="genlint-gate-attempt")
    thread.start()
    thread.join(timeout)
    if thread.is_alive():
        raise TimeoutError(f"attempt timed out after {timeout:.3g}s")
    if "error" in box:
        raise box["error"]
    return box.get("value")


def _require(ok: bool, message: str) -> None:
    if not ok:
        raise InputError(message)
