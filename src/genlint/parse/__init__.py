"""The JSON funnel: turn any LLM reply into the JSON value it meant.

One module per step: ``direct`` (strict), ``repaired`` (json-repair within a size bound,
``closing`` for large truncated text, ``fullwidth`` for Chinese punctuation), ``extracted``
(fragments found by ``candidates``), ``fields`` (pattern fallback); ``accept`` decides what is
acceptable and ``funnel`` runs the steps in order.
"""

from __future__ import annotations

from .funnel import parse_json
from .result import ParseResult, Strategy

__all__ = ["ParseResult", "Strategy", "parse_json"]
