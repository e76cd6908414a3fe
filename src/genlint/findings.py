"""The finding: one precise problem at one span of extracted text."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"
    INFO = "info"

    def __str__(self) -> str:
        return self.value


@dataclass(slots=True)
class Finding:
    """A problem found by a rule.

    ``start``/``end`` are code-point offsets into the extracted text (end exclusive);
    ``line``/``column`` are 1-based. ``page`` is set for PDF input, ``pointer`` (a JSON
    pointer) for JSON input. ``location`` holds where a person finds the span in the
    original document (docs/commands/check.md "Locations"): ``part`` with ``paragraph`` or
    ``table``/``row``/``cell`` for DOCX, ``bbox`` and ``confidence`` for text read by OCR.
    """

    rule: str
    message: str
    text: str
    start: int
    end: int
    line: int = 1
    column: int = 1
    severity: Severity = Severity.ERROR
    page: int | None = None
    pointer: str | None = None
    fix: str | None = None
    location: dict[str, Any] | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def pack(self) -> str:
        return self.rule.split("/", 1)[0]

    def to_dict(self) -> dict[str, Any]:
        """The docs/commands/check.md JSON shape; optional keys only when set."""
        out: dict[str, Any] = {
            "rule": self.rule,
            "severity": str(self.severity),
            "message": self.message,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "line": self.line,
            "column": self.column,
        }
        if self.page is not None:
            out["page"] = self.page
        if self.pointer is not None:
            out["pointer"] = self.pointer
        if self.location:
            out.update(self.location)
        if self.fix is not None:
            out["fix"] = self.fix
        return out
