"""Reporters of ``genlint check``: one module per format, registered by name.

A reporter module defines ``render(report: CheckReport, *, color: bool = False) -> str``; the
CLI writes the result to standard output. Modules are imported only when their format is asked
for. Each reporter first masks personal values (``genlint.check.redact.mask_report``) unless
``report.show_values``: a report copies no personal data wherever it is rendered.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..report import CheckReport

__all__ = ["REPORTERS", "render"]

REPORTERS: dict[str, str] = {
    "text": "genlint.check.reporters.text",
    "json": "genlint.check.reporters.json",
    "sarif": "genlint.check.reporters.sarif",
    "junit": "genlint.check.reporters.junit",
    "html": "genlint.check.reporters.html",
    "github": "genlint.check.reporters.github",
    "gitlab": "genlint.check.reporters.gitlab",
}


# the formats a person reads: they take ``lang``
_HUMAN = frozenset(("text", "html"))


def render(
    fmt: str,
    report: CheckReport,
    *,
    color: bool = False,
    width: int | None = None,
    lang: str | None = None,
) -> str:
    """The report in format ``fmt`` (a key of :data:`REPORTERS`). ``width``: the terminal's
    columns, for the text format; ``lang``: the language of messages in the human formats
    (text, html), None for each document's own."""
    module = importlib.import_module(REPORTERS[fmt])
    options: dict[str, object] = {}
    if width is not None:
        options["width"] = width
    if lang is not None and fmt in _HUMAN:
        options["lang"] = lang
    text: str = module.render(report, color=color, **options)
    return text
