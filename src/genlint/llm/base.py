"""The provider-neutral chat interface every LLM consumer in genlint uses."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol, runtime_checkable


@dataclass(frozen=True, slots=True)
class Usage:
    prompt_tokens: int = 0
    completion_tokens: int = 0

    @property
    def total_tokens(self) -> int:
        return self.prompt_tokens + self.completion_tokens

    def __add__(self, other: Usage) -> Usage:
        return Usage(
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
        )


@dataclass(frozen=True, slots=True)
class Completion:
    """One chat reply: its text, why it stopped, and the tokens it cost (when known)."""

    text: str
    finish_reason: str | None = "stop"
    usage: Usage | None = None
    model: str | None = None


@runtime_checkable
class ChatModel(Protocol):
    """Anything that answers a list of chat messages with a Completion.

    Optional extras the gate uses when present: a ``max_tokens`` keyword on ``complete`` (the
    room left in a token budget) and ``async acomplete(messages, *, timeout=None)``.
    Failures are raised as :class:`genlint.llm.errors.LLMError` with a ``kind``.
    """

    def complete(
        self, messages: list[dict[str, str]], *, timeout: float | None = None
    ) -> Completion: ...
