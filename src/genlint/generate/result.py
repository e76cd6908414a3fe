"""What a gate run reports: every attempt, and how the run ended."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from ..findings import Finding
from ..llm.base import Usage

Status = Literal["first_try", "reasked", "degraded", "failed"]
#: What a request was: the first ask, a re-ask quoting findings, the same request sent again
#: after a transient error ("retry"), or a fresh sample after a terminal reply ("resend").
RequestKind = Literal["first", "reask", "retry", "resend"]
#: How it came back: a clean reply, a reply with findings, a transient error (the request is
#: sent again, not counted as a content attempt), or a terminal stop (truncated, refused, …).
Outcome = Literal["clean", "findings", "transient", "terminal"]

ZERO = Usage(0, 0)


@dataclass(slots=True)
class Attempt:
    """One request of a gate run.

    ``n`` numbers every request of the run from 1 (transient retries included);
    ``content_n`` numbers content attempts (first ask, re-asks, resends) from 1 and is 0 for
    transient failures; ``item`` is the prompt's index in a ``run_many`` batch. ``usage`` is
    what the server reported, or genlint's estimate when it reported nothing (then
    ``usage_estimated`` is true); ``None`` when the request failed before any reply.
    """

    n: int
    findings: list[Finding]
    duration_s: float
    usage: Usage | None
    error: str | None = None
    text: str | None = None
    finish_reason: str | None = None
    request: RequestKind = "first"
    outcome: Outcome = "clean"
    content_n: int = 0
    error_kind: str | None = None
    usage_estimated: bool = False
    item: int | None = None  # index of the prompt in a run_many batch, for hooks
    # how many findings the checks reported; ``findings`` keeps at most the gate's
    # ``kept_findings`` of them
    finding_count: int = 0

    @property
    def complete(self) -> bool:
        """A whole reply that was checked (not an error, not truncated or refused)."""
        return self.outcome in ("clean", "findings")

    def to_dict(self, *, with_text: bool = False) -> dict[str, Any]:
        out: dict[str, Any] = {
            "n": self.n,
            "content_n": self.content_n,
            "request": self.request,
            "outcome": self.outcome,
            "findings": [f.to_dict() for f in self.findings],
            "finding_count": self.finding_count,
            "duration_s": round(self.duration_s, 4),
            "usage": _usage_dict(self.usage),
            "usage_estimated": self.usage_estimated,
            "finish_reason": self.finish_reason,
            "error": self.error,
            "error_kind": self.error_kind,
        }
        if self.item is not None:
            out["item"] = self.item
        if with_text:
            out["text"] = self.text
        return out


@dataclass(slots=True)
class GateResult:
    """How a gate run ended.

    ``status``: ``first_try`` (the first content attempt was clean), ``reasked`` (clean after
    re-asking), ``degraded`` (never clean; ``text`` is the complete attempt with the fewest
    findings, under ``on_fail="best"``), ``failed`` (never clean and no text returned).
    ``stop_reason`` says why the loop ended: ``clean``, ``max_retries``, ``token_budget``,
    ``deadline``, ``transient_retries`` or a terminal kind (``length``, ``refusal``,
    ``context_overflow``, ``auth``, ``bad_request``, ``not_found``).
    """

    status: Status
    text: str | None
    attempts: list[Attempt]
    total_usage: Usage = ZERO
    stop_reason: str = "clean"
    chosen: int | None = None  # ``n`` of the attempt whose text is returned
    last_error: str | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def ok(self) -> bool:
        return self.status in ("first_try", "reasked")

    @property
    def content_attempts(self) -> int:
        return sum(1 for a in self.attempts if a.content_n)

    @property
    def transient_retries(self) -> int:
        return sum(1 for a in self.attempts if a.outcome == "transient")

    @property
    def findings(self) -> list[Finding]:
        """Findings of the returned text (empty when clean or when nothing is returned)."""
        for a in self.attempts:
            if a.n == self.chosen:
                return list(a.findings)
        return []

    @property
    def retry_usage(self) -> Usage:
        """Tokens spent beyond the first content attempt: re-asks and resends (a transient
        failure has no reply, so it adds nothing)."""
        total = ZERO
        for a in self.attempts:
            if a.usage is not None and a.content_n != 1:
                total = total + a.usage
        return total

    def to_dict(self) -> dict[str, Any]:
        out = {
            "status": self.status,
            "ok": self.ok,
            "text": self.text,
            "stop_reason": self.stop_reason,
            "chosen_attempt": self.chosen,
            "content_attempts": self.content_attempts,
            "transient_retries": self.transient_retries,
            "findings": [f.to_dict() for f in self.findings],
            "attempts": [a.to_dict() for a in self.attempts],
            "total_usage": _usage_dict(self.total_usage),
            "retry_usage": _usage_dict(self.retry_usage),
            "last_error": self.last_error,
        }
        if "masking" in self.extra:
            out["masking"] = self.extra["masking"]  # counts only, never a value
        return out


class GateFailed(Exception):
    """Raised under ``on_fail="raise"`` when no attempt came back clean.

    Carries the whole :class:`GateResult` (attempts, usage, last error), like instructor's
    final retry exception. Not a GenlintError: a failed gate is a result, not bad input.
    """

    def __init__(self, result: GateResult, results: list[GateResult] | None = None) -> None:
        tried = result.content_attempts
        super().__init__(
            f"generation failed after {tried} content attempt(s) "
            f"({result.transient_retries} transient retries): stopped by {result.stop_reason}"
        )
        self.result = result
        self.results = results


def _usage_dict(usage: Usage | None) -> dict[str, int] | None:
    if usage is None:
        return None
    return {
        "prompt_tokens": usage.prompt_tokens,
        "completion_tokens": usage.completion_tokens,
        "total_tokens": usage.total_tokens,
    }
