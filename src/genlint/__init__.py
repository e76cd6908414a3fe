"""genlint: check, repair and gate what large language models write.

The public API is re-exported here and imported lazily on first use, so that importing
``genlint`` (and starting the CLI) stays fast even though some parts need numpy, pypdf or openai.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ._lazy import lazy_exports

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS: dict[str, str] = {
    "Attempt": "genlint.generate",
    "CitationResult": "genlint.cite",
    "ConfigError": "genlint.errors",
    "DocumentResult": "genlint.cite",
    "EvaluationResult": "genlint.eval",
    "Finding": "genlint.findings",
    "Gate": "genlint.generate",
    "GateResult": "genlint.generate",
    "GenlintError": "genlint.errors",
    "InputError": "genlint.errors",
    "LoadReviewCriteriaOutput": "genlint.match",
    "MaskResult": "genlint.mask",
    "ParseResult": "genlint.parse",
    "Severity": "genlint.findings",
    "UnknownRuleError": "genlint.errors",
    "check_dataset": "genlint.batch",
    "check_paths": "genlint.check",
    "check_table": "genlint.batch",
    "check_text": "genlint.check",
    "evaluate": "genlint.eval",
    "mask_text": "genlint.mask",
    "match_criteria": "genlint.match",
    "parse_json": "genlint.parse",
    "parse_table": "genlint.batch",
    "process_citations": "genlint.cite",
    "process_document": "genlint.cite",
    "unmask_text": "genlint.mask",
}

__all__ = sorted([*_EXPORTS, "__version__"])


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals(), also=("__version__",))


if TYPE_CHECKING:  # pragma: no cover - for type checkers and IDEs only
    # ruff: noqa: F401 - re-exports for type checkers, resolved lazily at run time
    from .batch import check_dataset, check_table, parse_table
    from .check import check_paths, check_text
    from .cite import CitationResult, DocumentResult, process_citations, process_document
    from .errors import ConfigError, GenlintError, InputError, UnknownRuleError
    from .eval import EvaluationResult, evaluate
    from .findings import Finding, Severity
    from .generate import Attempt, Gate, GateResult
    from .mask import MaskResult, mask_text, unmask_text
    from .match import LoadReviewCriteriaOutput, match_criteria
    from .parse import ParseResult, parse_json
