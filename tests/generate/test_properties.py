"""Properties: budgets hold for any reply sequence; the follow-up fence cannot be broken."""

from __future__ import annotations

import math
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from generate.helpers import placeholder_check
from genlint.findings import Finding
from genlint.generate.budget import estimate_messages_tokens
from genlint.generate.reask import MAX_LISTED, fence_for, followup_messages
from genlint.generate.session import Policy, Session
from genlint.llm.base import Completion, Usage
from genlint.llm.errors import LLMError


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


# One server event: (what happens, reply tokens wanted, prompt-token factor, seconds taken)
EVENT = st.tuples(
    st.sampled_from(["clean", "dirty", "dirty", "transient", "length", "slow"]),
    st.integers(1, 800),
    st.floats(0.1, 1.0),
    st.floats(0.0, 3.0),
)


@settings(max_examples=300, deadline=None)
@given(
    events=st.lists(EVENT, max_size=25),
    budget=st.one_of(st.none(), st.integers(1, 6000)),
    deadline=st.one_of(st.none(), st.floats(0.5, 20.0)),
    max_retries=st.integers(0, 5),
    max_transient=st.integers(0, 3),
    on_terminal=st.sampled_from(["stop", "resend"]),
)
def test_budgets_hold_for_any_reply_sequence(
    events, budget, deadline, max_retries, max_transient, on_terminal
) -> None:  # type: ignore[no-untyped-def]
    clock = Clock()
    policy = Policy(
        max_retries=max_retries,
        deadline_s=deadline,
        token_budget=budget,
        attempt_timeout_s=2.0,
        max_transient_retries=max_transient,
        on_terminal=on_terminal,
        backoff_base_s=0.5,
        backoff_max_s=4.0,
    )
    session = Session(
        [{"role": "user", "content": "写一份付款说明"}],
        [placeholder_check],
        policy,
        clock=clock,
        rng=random.Random(0),
    )
    start = clock.now
    script = iter(events)
    while (request := session.next()) is not None:
        clock.now += request.delay_s
        sent = session.sending()
        if sent is None:
            break
        if deadline is not None:
            assert clock.now < start + deadline, "no request leaves after the deadline"
            assert (
                sent.timeout_s is not None and clock.now + sent.timeout_s <= start + deadline + 1e-9
            )
        what, wanted, factor, seconds = next(script, ("clean", 10, 1.0, 0.1))
        timeout = sent.timeout_s if sent.timeout_s is not None else math.inf
        if what == "slow" or seconds > timeout:
            clock.now += timeout
            session.on_error(TimeoutError())
        elif what == "transient":
            clock.now += seconds
            session.on_error(LLMError("server", "HTTP 503"))
        else:
            clock.now += seconds
            # The server counts at most what genlint estimated, and honours max_tokens.
            prompt = math.floor(estimate_messages_tokens(sent.messages) * factor)
            reply = wanted if sent.max_tokens is None else min(wanted, sent.max_tokens)
            text = {"clean": "华夏公司", "dirty": "某某公司", "length": "华夏"}[what]
            finish = "length" if what == "length" else "stop"
            session.on_reply(Completion(text, finish, Usage(prompt, reply)))
    result = session.result()
    if budget is not None:
        assert result.total_usage.total_tokens <= budget
    assert result.content_attempts <= max_retries + 1
    assert result.transient_retries <= max_transient + 1
    assert result.ok == (result.status in ("first_try", "reasked"))
    assert (result.text is None) == (result.status == "failed")
    if result.status == "degraded":
        assert result.findings, "a degraded result names what is still wrong"


FINDING = st.builds(
    Finding,
    rule=st.sampled_from(["placeholder/mou-entity", "sensitive/phone", "x"]),
    message=st.text(max_size=40),
    text=st.text(max_size=200),
    start=st.integers(0, 100),
    end=st.integers(0, 100),
    line=st.integers(1, 500),
    column=st.integers(1, 500),
)


@settings(max_examples=300, deadline=None)
@given(previous=st.text(), findings=st.lists(FINDING, max_size=40), prompt=st.text(min_size=1))
def test_followup_fences_the_reply_and_stays_bounded(previous, findings, prompt) -> None:  # type: ignore[no-untyped-def]
    messages = followup_messages([{"role": "user", "content": prompt}], previous, findings)
    assert messages[0] == {"role": "user", "content": prompt} and len(messages) == 2
    content = messages[1]["content"]
    fence = fence_for(previous)
    assert f"{fence}text\n{previous}\n{fence}" in content
    assert fence not in previous, "the reply cannot close the fence around it"
    # Bounded: beyond the reply itself, at most MAX_LISTED finding lines of bounded length.
    assert len(content) - len(previous) < 800 + MAX_LISTED * 200
