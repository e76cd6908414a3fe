"""The answer of the funnel: what was found, by which step, and why earlier steps failed."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

# How the repair notes that set ``truncated`` and ``guessed`` begin (a note may say more).
TRUNCATED_NOTE = "the reply is cut off"
GUESS_NOTE = "guessed"

Strategy = Literal["direct", "repaired", "extracted", "fields", "none"]


@dataclass(slots=True)
class ParseResult:
    """Outcome of :func:`genlint.parse_json`.

    ``value`` is the parsed JSON value (a pydantic model instance when a model class was given as
    the schema); ``errors`` holds one line per step that was tried and failed, prefixed with the
    step's name; ``repairs`` says what was changed to get ``value``. ``truncated`` is true when
    strings or containers left open at the end of the reply were closed (a cut-off reply);
    ``guessed`` when the repair chose among several readings (where a string with raw quotes or
    line breaks ends, which of several values is the answer); both are read from ``repairs``,
    whose notes say where.
    """

    # A slots dataclass and not a pydantic model: building one is on the hot path of valid input,
    # which must cost barely more than orjson.loads itself.
    ok: bool
    value: Any
    strategy: Strategy
    errors: list[str]
    repairs: list[str]

    # The flags are read from the notes, so every step reports them one way: by what it writes.
    @property
    def truncated(self) -> bool:
        return any(note.startswith(TRUNCATED_NOTE) for note in self.repairs)

    @property
    def guessed(self) -> bool:
        return any(note.startswith(GUESS_NOTE) for note in self.repairs)

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
        if self.truncated:
            out["truncated"] = True
        if self.guessed:
            out["guessed"] = True
        if self.lossy:
            out["lossy"] = True
        return out

    def warning(self) -> str | None:
        """The one line a text-mode caller shows when the value is not a plain success: lost
        data first, then a cut, then a guess."""
        for prefix in ("lost data", TRUNCATED_NOTE, GUESS_NOTE):
            note = next((n for n in self.repairs if n.startswith(prefix)), None)
            if note is not None:
                return note
        return None
