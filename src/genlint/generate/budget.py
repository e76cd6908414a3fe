"""Token estimates and backoff: the arithmetic behind "no request past a budget".

The rule (documented in docs/commands/generate.md, "Budgets, exactly"): before each request the gate estimates its
prompt tokens and reserves room for the reply; it sends only if

    spent + estimated_prompt + reserved_reply <= token_budget

where ``reserved_reply`` is the longest reply seen so far in the run (at least 1), and it caps
the reply with ``max_tokens = token_budget - spent - estimated_prompt`` when the generator
accepts ``max_tokens`` (OpenAICompatible does), so even a longer reply cannot overrun. The
prompt estimate is calibrated by the prompt tokens the server reported for earlier requests.
"""

from __future__ import annotations

import math
import random

from ..llm.base import Usage

_MESSAGE_OVERHEAD = 4  # role markers and separators per chat message


def estimate_text_tokens(text: str) -> int:
    """A deliberately generous token count: 1 per CJK character, 1 per 3 other characters.

    CJK characters (and full-width punctuation) take 3 bytes in UTF-8, ASCII 1: the byte
    count tells how many there are without a per-character scan (this runs on every attempt).
    """
    extra = len(text.encode("utf-8", "surrogatepass")) - len(text)
    wide = min(len(text), extra // 2)
    return wide + math.ceil((len(text) - wide) / 3)


def estimate_messages_tokens(messages: list[dict[str, str]]) -> int:
    return sum(
        estimate_text_tokens(str(m.get("content", ""))) + _MESSAGE_OVERHEAD for m in messages
    )


class TokenLedger:
    """Tokens spent in one run and the estimate of the next request."""

    def __init__(self, budget: int | None) -> None:
        self.budget = budget
        self.spent = 0
        self.longest_reply = 0
        self._ratio = 1.0  # reported prompt tokens / our estimate, the largest seen

    def prompt_estimate(self, messages: list[dict[str, str]]) -> int:
        return max(1, math.ceil(estimate_messages_tokens(messages) * self._ratio))

    def allows(self, messages: list[dict[str, str]]) -> tuple[bool, int | None]:
        """Whether the next request fits, and the reply cap to send with it."""
        if self.budget is None:
            return True, None
        prompt = self.prompt_estimate(messages)
        room = self.budget - self.spent - prompt
        if room < max(1, self.longest_reply):
            return False, None
        return True, room

    def record(self, messages: list[dict[str, str]], usage: Usage) -> None:
        self.spent += usage.total_tokens
        self.longest_reply = max(self.longest_reply, usage.completion_tokens)
        if usage.prompt_tokens:
            estimate = estimate_messages_tokens(messages)
            if estimate:
                self._ratio = max(self._ratio, usage.prompt_tokens / estimate)


def backoff_delay(
    retry: int,
    *,
    base_s: float,
    max_s: float,
    retry_after_s: float | None = None,
    rng: random.Random | None = None,
) -> float:
    """Full-jitter exponential backoff for the ``retry``-th resend (1-based).

    A server's Retry-After is a floor: resending earlier would only be refused again.
    """
    ceiling = min(max_s, base_s * (2 ** (retry - 1)))
    delay = (rng or random).uniform(0.0, ceiling)
    if retry_after_s is not None:
        delay = max(delay, retry_after_s)
    return delay
