"""The finding: one precise problem at one span of extracted text."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import Enum
from typing import Any


class _NoExtra(Mapping[str, Any]):
    """The one shared, read-only, empty ``extra``: a dense file has millions of findings, and
    an empty dict per finding would be a quarter of their memory. Pickles as itself (worker
    processes and Ray send findings back)."""

    def __getitem__(self, key: str) -> Any:
        raise KeyError(key)

    def __iter__(self) -> Iterator[str]:
        return iter(())

    def __len__(self) -> int:
        return 0

    def __reduce__(self) -> str:
        return "_NO_EXTRA"

    def __repr__(self) -> str:
        return "{}"


_NO_EXTRA: Mapping[str, Any] = _NoExtra()


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
    ``table``/``row``/``cell`` for DOCX, ``bbox`` and ``confidence`` for text read by OCR; it
    may be shared between findings, so treat it as read-only. ``extra`` carries what a rule
    adds (the count of a ``document`` finding).
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
    location: Mapping[str, Any] | None = None
    extra: Mapping[str, Any] = field(default_factory=lambda: _NO_EXTRA)
    # the line shown under the finding (capped around the span) and the span's column in it;
    # findings on one line share the string
    source_line: str | None = None
    source_column: int = 0
    # the file it was found in (check_paths; None for check_text): not in to_dict, whose JSON
    # lists findings under their file
    path: str | None = None
    # the other places this finding is about: ``text``, ``start``, ``end``, ``line``,
    # ``column`` and the location keys of each (a ``consistency`` finding names both places)
    related: tuple[Mapping[str, Any], ...] = ()

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
        if self.related:
            out["related"] = [dict(r) for r in self.related]
        return out
