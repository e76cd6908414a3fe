"""The gate: generate until the reply passes the checks, within attempt, token and time budgets.

    gate = Gate(["placeholder", "sensitive"], max_retries=3, token_budget=20_000)
    result = gate.run(OpenAICompatible("qwen-plus", base_url=…), "写一份证据目录…")
    result.status, result.text, result.attempts

Modules: ``gate`` (the Gate and the sync/async drivers), ``session`` (every decision, no I/O),
``budget`` (token estimates, backoff), ``reask`` (the follow-up message), ``checks``
(built-in checks), ``result`` (Attempt, GateResult), ``ledger`` (batch statistics).
"""

from __future__ import annotations

from .checks import citation_check, json_check, pack_check
from .gate import Gate
from .ledger import BatchStats
from .result import Attempt, GateFailed, GateResult

__all__ = [
    "Attempt",
    "BatchStats",
    "Gate",
    "GateFailed",
    "GateResult",
    "citation_check",
    "json_check",
    "pack_check",
]
