"""Errors an LLM call can end in, classified by what the caller should do next.

    GenlintError
    └── LLMError                 kind says what happened; ``transient`` says whether resending helps
        ├── transient kinds      timeout, connection, rate_limit, server, invalid_response
        └── terminal kinds       auth, context_overflow, refusal, bad_request, not_found,
                                 oversize (a reply body past the byte cap, cut while arriving)

The gate routes on ``kind`` only, so no provider knowledge leaks out of the adapters.
"""

from __future__ import annotations

from typing import Literal

from ..errors import GenlintError

ErrorKind = Literal[
    "timeout",
    "connection",
    "rate_limit",
    "server",
    "invalid_response",
    "auth",
    "context_overflow",
    "refusal",
    "bad_request",
    "not_found",
    "oversize",
]

TRANSIENT_KINDS: frozenset[str] = frozenset(
    {"timeout", "connection", "rate_limit", "server", "invalid_response"}
)


class LLMError(GenlintError):
    """A failed LLM call. The message never contains the API key.

    ``retry_after_s`` is the server's ``Retry-After`` hint when it sent one.
    """

    def __init__(
        self,
        kind: ErrorKind,
        message: str,
        *,
        status: int | None = None,
        retry_after_s: float | None = None,
    ) -> None:
        super().__init__(message)
        self.kind: ErrorKind = kind
        self.status = status
        self.retry_after_s = retry_after_s

    @property
    def transient(self) -> bool:
        return self.kind in TRANSIENT_KINDS

    def __repr__(self) -> str:
        return f"LLMError(kind={self.kind!r}, status={self.status!r}, message={str(self)!r})"
