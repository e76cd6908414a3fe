"""The decisions of one gate run, free of I/O, shared by the sync and the async driver.

A driver asks :meth:`Session.next` for the request to make (or ``None`` when the run is over),
waits ``delay_s``, sends it, and reports the reply or the error back. Every budget rule and
every routing decision lives here, once:

    reply, finish_reason "length"/"content_filter"/"refusal" -> terminal: stop, or resend the
                                                                same request (policy)
    reply, checks clean                                      -> done
    reply, findings                                          -> re-ask with the findings
    LLMError transient / attempt timeout                     -> back off with jitter, resend;
                                                                counted apart from content attempts
    LLMError terminal (auth, context_overflow, …)            -> stop; a refusal follows the policy
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from ..findings import Finding
from ..llm.base import Completion, Usage
from ..llm.errors import LLMError
from .budget import TokenLedger, backoff_delay, estimate_messages_tokens, estimate_text_tokens
from .checks import BOUNDED
from .reask import followup_messages
from .result import ZERO, Attempt, GateResult, RequestKind, Status

logger = logging.getLogger(__name__)

Check = Callable[[str], list[Finding]]
OnFail = Literal["best", "none", "raise"]
OnTerminal = Literal["stop", "resend"]

_TRUNCATED = {"length"}
_REFUSED = {"content_filter", "refusal"}


@dataclass(frozen=True, slots=True)
class Policy:
    """The budgets and policies of a gate (see :class:`genlint.generate.Gate`)."""

    max_retries: int = 3
    deadline_s: float | None = None
    token_budget: int | None = None
    attempt_timeout_s: float | None = 60.0
    on_fail: OnFail = "best"
    on_terminal: OnTerminal = "stop"
    max_transient_retries: int = 4
    backoff_base_s: float = 0.5
    backoff_max_s: float = 8.0
    # a reply longer than this is cut and reported; None: 8 characters per max_tokens of the
    # request, or DEFAULT_MAX_REPLY_CHARS without one
    max_reply_chars: int | None = None
    # findings an attempt keeps (its count stays exact) and the re-ask quotes
    kept_findings: int = 1000
    reask_findings: int = 20


DEFAULT_MAX_REPLY_CHARS = 1_000_000
_CHARS_PER_TOKEN_CAP = 8


@dataclass(frozen=True, slots=True)
class Request:
    """What the driver sends next."""

    messages: list[dict[str, str]]
    kind: RequestKind
    delay_s: float
    timeout_s: float | None
    max_tokens: int | None


class Session:
    def __init__(
        self,
        messages: list[dict[str, str]],
        checks: Sequence[Check],
        policy: Policy,
        *,
        clock: Callable[[], float] = time.monotonic,
        rng: random.Random | None = None,
        item: int | None = None,
    ) -> None:
        self.item = item
        self.original = messages
        self.checks = checks
        self.policy = policy
        self.clock = clock
        self.rng = rng
        self.started = clock()
        self.deadline = None if policy.deadline_s is None else self.started + policy.deadline_s
        self.tokens = TokenLedger(policy.token_budget)
        self.attempts: list[Attempt] = []
        self.total = ZERO
        self._content_n = 0
        self._transient = 0
        self._next: tuple[list[dict[str, str]], RequestKind, float] | None = (
            messages,
            "first",
            0.0,
        )
        self._stop_reason: str | None = None
        self._last_error: str | None = None
        self._sent: Request | None = None
        self._sent_at = 0.0

    # -- what to send ----------------------------------------------------------------------
    def next(self) -> Request | None:
        if self._next is None:
            return None
        messages, kind, delay = self._next
        send_at = self.clock() + delay
        timeout = self.policy.attempt_timeout_s
        if self.deadline is not None:
            remaining = self.deadline - send_at
            if remaining <= 0:
                self._stop("deadline")
                return None
            timeout = remaining if timeout is None else min(timeout, remaining)
        fits, max_tokens = self.tokens.allows(messages)
        if not fits:
            self._stop("token_budget")
            return None
        self._sent = Request(messages, kind, delay, timeout, max_tokens)
        return self._sent

    def sending(self) -> Request | None:
        """Called right before the request leaves (after any backoff wait): the request with
        its timeout cut to the time left, or ``None`` if the wait overshot the deadline."""
        request = self._sent
        if request is None:
            raise RuntimeError("sending() without next()")
        self._sent_at = self.clock()
        if self.deadline is None:
            return request
        remaining = self.deadline - self._sent_at
        if remaining <= 0:
            self._sent = None
            self._stop("deadline")
            return None
        if request.timeout_s is None or request.timeout_s > remaining:
            request = Request(
                request.messages, request.kind, request.delay_s, remaining, request.max_tokens
            )
            self._sent = request
        return request

    def _stop(self, reason: str) -> None:
        self._next = None
        self._stop_reason = reason
        logger.debug("gate stops: %s", reason)

    # -- what came back --------------------------------------------------------------------
    def on_reply(self, completion: Completion) -> Attempt:
        request = self._require_sent()
        duration = self.clock() - self._sent_at
        usage, estimated = completion.usage, False
        if usage is None:
            usage = Usage(
                estimate_messages_tokens(request.messages), estimate_text_tokens(completion.text)
            )
            estimated = True
        self.tokens.record(request.messages, usage)
        self.total = self.total + usage
        self._content_n += 1
        attempt = Attempt(
            n=len(self.attempts) + 1,
            findings=[],
            duration_s=duration,
            usage=usage,
            text=completion.text,
            finish_reason=completion.finish_reason,
            request=request.kind,
            content_n=self._content_n,
            usage_estimated=estimated,
            item=self.item,
        )
        self.attempts.append(attempt)
        finish = completion.finish_reason or "stop"
        if finish in _TRUNCATED or finish in _REFUSED:
            # Checking a cut or refused reply and quoting its "findings" back would re-ask
            # blindly; it is a terminal reply.
            attempt.outcome = "terminal"
            attempt.error_kind = "length" if finish in _TRUNCATED else "refusal"
            attempt.error = f"finish_reason={finish}"
            self._terminal(attempt.error_kind, request, resendable=True)
            return attempt
        cap = self._reply_cap(request)
        if len(completion.text) > cap:
            # a hostile or runaway reply: checking and quoting megabytes would blow the
            # deadline and the memory; it is cut, reported, and treated like a cut reply
            attempt.text = completion.text[:cap]
            attempt.outcome = "terminal"
            attempt.error_kind = "oversize"
            attempt.error = f"reply of {len(completion.text):,} chars is over the {cap:,}-char cap"
            self._terminal("oversize", request, resendable=True)
            return attempt
        if completion.text.strip():
            findings = self._checked(completion.text)
            if findings is None:
                attempt.outcome = "terminal"
                attempt.error_kind = "deadline"
                attempt.error = "the deadline passed while the reply was being checked"
                self._stop("deadline")
                return attempt
        else:
            # an empty or null reply (content: null) has nothing wrong in it to find, and
            # nothing right either: it is a failed attempt, never a clean one
            findings = [Finding("reply/empty", "the reply is empty", "", 0, 0)]
        attempt.finding_count = len(findings)
        # two million findings are not worth holding: the count stays exact, the list is cut
        attempt.findings = findings[: self.policy.kept_findings]
        if not findings:
            attempt.outcome = "clean"
            return self._stop_with(attempt, "clean")
        attempt.outcome = "findings"
        if self._content_n > self.policy.max_retries:
            return self._stop_with(attempt, "max_retries")
        self._next = (
            followup_messages(
                self.original,
                completion.text,
                attempt.findings,
                listed=self.policy.reask_findings,
                total=len(findings),
            ),
            "reask",
            0.0,
        )
        return attempt

    def _reply_cap(self, request: Request) -> int:
        if self.policy.max_reply_chars is not None:
            return self.policy.max_reply_chars
        if request.max_tokens is not None:
            return max(1000, request.max_tokens * _CHARS_PER_TOKEN_CAP)
        return DEFAULT_MAX_REPLY_CHARS

    def _checked(self, text: str) -> list[Finding] | None:
        """The findings, or None when the deadline passes first: checks run in a worker
        thread so the run ends on time even when a check is slow (the thread finishes on its
        own; its result is dropped). genlint's own checks on a short reply run here (their time
        is linear in the text, ``INLINE_CHECK_CHARS``): the async gate calls this on its event
        loop, where a thread per reply held up every other request (serve)."""
        if self.deadline is None:
            return run_checks(self.checks, text)
        remaining = self.deadline - self.clock()
        if remaining <= 0:
            return None
        if len(text) <= INLINE_CHECK_CHARS and all(getattr(c, BOUNDED, False) for c in self.checks):
            return run_checks(self.checks, text)
        from concurrent.futures import ThreadPoolExecutor
        from concurrent.futures import TimeoutError as CheckTimeout

        pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="genlint-check")
        future = pool.submit(run_checks, self.checks, text)
        try:
            return future.result(timeout=remaining)
        except CheckTimeout:
            return None
        finally:
            pool.shutdown(wait=False)

    def on_error(self, error: LLMError | TimeoutError | ConnectionError) -> Attempt:
        """A failed request. Besides LLMError, a plain function's builtin TimeoutError or
        ConnectionError counts as transient: generators need not know genlint's errors."""
        request = self._require_sent()
        duration = self.clock() - self._sent_at
        if isinstance(error, LLMError):
            kind, transient, retry_after = error.kind, error.transient, error.retry_after_s
        elif isinstance(error, ConnectionError):
            kind, transient, retry_after = "connection", True, None
        else:
            kind, transient, retry_after = "timeout", True, None
        message = str(error) or (
            f"attempt timed out after {request.timeout_s}s" if kind == "timeout" else kind
        )
        self._last_error = message
        attempt = Attempt(
            n=len(self.attempts) + 1,
            findings=[],
            duration_s=duration,
            usage=None,
            error=message,
            request=request.kind,
            error_kind=kind,
            item=self.item,
        )
        self.attempts.append(attempt)
        if transient:
            attempt.outcome = "transient"
            self._transient += 1
            if self._transient > self.policy.max_transient_retries:
                self._stop("transient_retries")
                return attempt
            delay = backoff_delay(
                self._transient,
                base_s=self.policy.backoff_base_s,
                max_s=self.policy.backoff_max_s,
                retry_after_s=retry_after,
                rng=self.rng,
            )
            # Same messages, same kind of request: a transient failure is not a new attempt.
            retry_kind: RequestKind = "retry" if request.kind == "first" else request.kind
            self._next = (request.messages, retry_kind, delay)
            return attempt
        attempt.outcome = "terminal"
        # A refused request counts as a content attempt: resending it spends the retry budget;
        # so does a reply too large to receive (cut on the wire, like an oversize reply)
        resendable = kind in ("refusal", "oversize")
        if resendable:
            self._content_n += 1
            attempt.content_n = self._content_n
        self._terminal(kind, request, resendable=resendable)
        return attempt

    def _terminal(self, kind: str, request: Request, *, resendable: bool) -> None:
        if (
            resendable
            and self.policy.on_terminal == "resend"
            and self._content_n <= self.policy.max_retries
        ):
            self._next = (request.messages, "resend", 0.0)
        else:
            self._stop(kind)

    def _stop_with(self, attempt: Attempt, reason: str) -> Attempt:
        self._stop(reason)
        return attempt

    def _require_sent(self) -> Request:
        if self._sent is None:
            raise RuntimeError("reply reported before a request was sent")
        request, self._sent = self._sent, None
        return request

    # -- the end ---------------------------------------------------------------------------
    @property
    def done(self) -> bool:
        return self._next is None

    def result(self) -> GateResult:
        reason = self._stop_reason or "clean"
        clean = [a for a in self.attempts if a.outcome == "clean"]
        if clean:
            win = clean[-1]
            status: Status = "first_try" if win.content_n == 1 else "reasked"
            return GateResult(status, win.text, self.attempts, self.total, reason, win.n)
        candidates = [a for a in self.attempts if a.outcome == "findings"]
        if self.policy.on_fail == "best" and candidates:
            # Fewest findings; on a tie the later attempt, which answered more feedback.
            best = min(reversed(candidates), key=lambda a: a.finding_count)
            return GateResult(
                "degraded", best.text, self.attempts, self.total, reason, best.n, self._last_error
            )
        return GateResult("failed", None, self.attempts, self.total, reason, None, self._last_error)


#: the longest reply genlint's own checks read inline (``_checked``); measured with the
#: placeholder and sensitive packs: 0.07 ms for 2,000 characters, 0.5 ms for 16,000, 6 ms for
#: 16,000 with a phone number every 60 characters
INLINE_CHECK_CHARS = 16_000


def run_checks(checks: Sequence[Check], text: str) -> list[Finding]:
    findings: list[Finding] = []
    for check in checks:
        findings.extend(check(text))
    return findings
