"""The gate's decisions without I/O: backoff, Retry-After, deadline and budget edges."""

from __future__ import annotations

import random

import pytest

from generate.helpers import placeholder_check
from genlint.generate.budget import TokenLedger, backoff_delay
from genlint.generate.session import Policy, Session
from genlint.llm.base import Completion, Usage
from genlint.llm.errors import LLMError

MESSAGES = [{"role": "user", "content": "写一份付款说明"}]


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _session(**policy: object) -> tuple[Session, Clock]:
    clock = Clock()
    return Session(
        MESSAGES, [placeholder_check], Policy(**policy), clock=clock, rng=random.Random(3)
    ), clock  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("retry", "base", "cap", "retry_after", "low", "high"),
    [
        (1, 0.5, 8.0, None, 0.0, 0.5),
        (3, 0.5, 8.0, None, 0.0, 2.0),
        (10, 0.5, 8.0, None, 0.0, 8.0),  # capped
        (1, 0.5, 8.0, 3.0, 3.0, 3.0),  # Retry-After is a floor
        (4, 0.5, 8.0, 0.0, 0.0, 4.0),
    ],
)
def test_backoff_is_full_jitter_under_a_cap(retry, base, cap, retry_after, low, high) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(0)
    delays = [
        backoff_delay(retry, base_s=base, max_s=cap, retry_after_s=retry_after, rng=rng)
        for _ in range(200)
    ]
    assert all(low <= d <= high for d in delays)
    if retry_after is None:
        assert len(set(delays)) > 100, "jittered, so clients do not resend in lockstep"


def test_retry_after_past_the_deadline_stops_without_sending() -> None:
    session, clock = _session(deadline_s=5.0)
    assert session.next() is not None and session.sending() is not None
    clock.now = 1.0
    session.on_error(LLMError("rate_limit", "HTTP 429", status=429, retry_after_s=10.0))
    assert session.next() is None
    result = session.result()
    assert (result.status, result.stop_reason, len(result.attempts)) == ("failed", "deadline", 1)


def test_a_backoff_that_overshoots_the_deadline_is_not_sent() -> None:
    session, clock = _session(deadline_s=5.0)
    session.next()
    session.sending()
    clock.now = 2.0
    session.on_error(LLMError("server", "HTTP 503", status=503, retry_after_s=2.5))
    request = session.next()
    assert request is not None and request.delay_s >= 2.5
    clock.now = 5.01  # the sleep took longer than planned
    assert session.sending() is None
    assert session.result().stop_reason == "deadline"


def test_timeout_of_each_request_is_cut_to_the_time_left() -> None:
    session, clock = _session(deadline_s=10.0, attempt_timeout_s=8.0)
    first = session.next()
    assert first is not None and first.timeout_s == 8.0
    session.sending()
    clock.now = 7.0
    session.on_reply(Completion("某某公司", usage=Usage(10, 10)))
    session.next()
    second = session.sending()
    assert second is not None and second.timeout_s == pytest.approx(3.0)


def test_builtin_connection_error_from_a_plain_function_is_transient() -> None:
    session, _ = _session()
    session.next()
    session.sending()
    attempt = session.on_error(ConnectionError())
    assert (attempt.outcome, attempt.error_kind, attempt.error) == (
        "transient",
        "connection",
        "connection",
    )
    request = session.next()
    assert request is not None and request.kind == "retry" and request.messages == MESSAGES


def test_token_ledger_calibrates_on_reported_prompt_tokens() -> None:
    ledger = TokenLedger(budget=1000)
    before = ledger.prompt_estimate(MESSAGES)
    ledger.record(MESSAGES, Usage(prompt_tokens=before * 3, completion_tokens=50))
    assert ledger.prompt_estimate(MESSAGES) == before * 3, (
        "a server counting more raises the estimate"
    )
    fits, cap = ledger.allows(MESSAGES)
    assert fits and cap == 1000 - ledger.spent - before * 3
    ledger.record(MESSAGES, Usage(prompt_tokens=1, completion_tokens=1))
    assert ledger.prompt_estimate(MESSAGES) == before * 3, "never calibrated down"
