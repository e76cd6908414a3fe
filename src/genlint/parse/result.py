"""The answer of the funnel: what was found, by which step, and why earlier steps failed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

Strategy = Literal["direct", "repaired", "extracted", "fields", "none"]


@dataclass(slots=True)
class ParseResult:
    """Outcome of :func:`genlint.parse_json`.

    ``value`` is the parsed JSON value (a pydantic model instance when a model class was given as
    the schema); ``errors`` holds one line per step that was tried and failed, prefixed with the
    step's name; ``repairs`` says what was changed to get ``value``.
    """

    # A slots dataclass and not a pydantic model: building one is on the hot path of valid input,
    # which must cost barely more than orjson.loads itself.
    ok: bool
    value: Any
    strategy: Strategy
    errors: list[str]
    repairs: list[str]

    @property
    def lossy(self) -> bool:
        """The value evidently lost part of the reply (a repair note says how much)."""
        return any(note.startswith("lost data") for note in self.repairs)

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form, as ``genlint parse --format json`` prints it; ``lossy`` is
        there only when true."""
        value = self.value
        dump = getattr(value, "model_dump", None)
        if callable(dump) and not isinstance(value, type):
            value = dump(mode="json")
        out = {
            "ok": self.ok,
            "strategy": self.strategy,
            "value": value,
            "errors": list(self.errors),
            "repairs": list(self.repairs),
        }
        if self.lossy:
            out["lossy"] = True
        return out
