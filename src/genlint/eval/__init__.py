"""``genlint eval``: deterministic faithfulness evaluation of a generated code wiki (docs/commands/eval.md).

Claims are checked against the page's fact for missing or invalid references, wording that
asserts the wrong kind of action, inferred purposes or guarantees, and redundancy; the metrics
(faithfulness, hallucination rate, key-fact recall, redundancy rate) decide pass or fail.
"""

from __future__ import annotations

from .engine import evaluate
from .models import EvaluationResult, PageResult, Thresholds, Violation

__all__ = ["EvaluationResult", "PageResult", "Thresholds", "Violation", "evaluate"]
