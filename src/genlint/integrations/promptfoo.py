"""promptfoo assertion: score a model's wiki JSON against facts with ``genlint eval``.

promptfoo loads an assertion from a file by path, so point it at a one-line file
(``from genlint.integrations.promptfoo import get_assert``) and in ``promptfooconfig.yaml``::

    tests:
      - vars:
          facts: file://facts.json        # arrives as the file's text; a path also works
        assert:
          - type: python
            value: file://genlint_assert.py
            config:
              thresholds: {key_fact_recall: 0.75}   # optional

The reply may be bare JSON, fenced, or wrapped in chat; it goes through genlint's parse funnel.
The score is the mean of faithfulness, 1 − hallucination_rate, key_fact_recall and
1 − redundancy_rate; pass is genlint's verdict (all four thresholds met).
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any

_METRICS = ("faithfulness", "hallucination_rate", "key_fact_recall", "redundancy_rate")
_MAX_LISTED = 3


def get_assert(output: Any, context: Mapping[str, Any] | None) -> dict[str, Any]:
    """promptfoo entry point; never raises (a failure is a failed assertion with its reason)."""
    try:
        return _assert(output, context or {})
    except Exception as exc:  # promptfoo shows the reason; a traceback there shows nothing useful
        return {"pass": False, "score": 0.0, "reason": f"genlint eval could not run: {exc}"}


def _assert(output: Any, context: Mapping[str, Any]) -> dict[str, Any]:
    from ..eval import evaluate

    variables = context.get("vars") or {}
    if "facts" not in variables:
        return {
            "pass": False,
            "score": 0.0,
            "reason": "test vars hold no 'facts' (file path or JSON text)",
        }
    facts = _facts(variables["facts"])
    wiki, problem = _wiki(output)
    if problem:
        return {"pass": False, "score": 0.0, "reason": problem}
    from ..errors import SchemaError
    from ..eval.inputs import load_wiki

    try:
        pages, _ = load_wiki(wiki, "reply")
    except SchemaError as exc:
        return {"pass": False, "score": 0.0, "reason": f"the reply is not a wiki: {exc}"}
    config = context.get("config") or {}
    result = evaluate(facts, pages, config.get("thresholds"))
    metrics = result.metrics
    goodness = {
        "faithfulness": metrics.faithfulness,
        "hallucination_rate": 1 - metrics.hallucination_rate,
        "key_fact_recall": metrics.key_fact_recall,
        "redundancy_rate": 1 - metrics.redundancy_rate,
    }
    from ..eval.metrics import failures

    failed = failures(metrics, result.thresholds)
    components = []
    limits = result.thresholds.to_dict()
    for name in _METRICS:
        value = getattr(metrics, name)
        ok = not any(f.startswith(name) for f in failed)
        components.append(
            {
                "pass": ok,
                "score": round(goodness[name], 4),
                "reason": f"{name} {value:.2f} ({'≥' if name in ('faithfulness', 'key_fact_recall') else '≤'} "
                f"{limits[name]:.2f})",
                "assertion": {"type": "python", "value": f"genlint eval: {name}"},
            }
        )
    return {
        "pass": result.passed,
        "score": round(sum(goodness.values()) / len(goodness), 4),
        "reason": _reason(result, failed),
        "named_scores": {name: round(getattr(metrics, name), 4) for name in _METRICS},
        "component_results": components,
    }


def _reason(result: Any, failed: list[str]) -> str:
    head = "PASS" if result.passed else "FAIL: " + "; ".join(failed)
    parts = [head]
    for v in result.violations[:_MAX_LISTED]:
        parts.append(f"{v.page}#{v.claim_index + 1} {v.reason} {v.detail}")  # counted from 1
    if len(result.violations) > _MAX_LISTED:
        parts.append(f"… {len(result.violations) - _MAX_LISTED} more violation(s)")
    if result.uncovered_facts:
        parts.append("uncovered: " + ", ".join(result.uncovered_facts))
    return " | ".join(parts)


def _facts(value: Any) -> Any:
    """A facts var: already parsed, JSON text (promptfoo inlines file:// vars), or a path."""
    if isinstance(value, (Mapping, list)):
        return value
    text = str(value).strip()
    if text.startswith(("{", "[")):
        return json.loads(text)
    path = text[len("file://") :] if text.startswith("file://") else text
    from .._io import read_json

    return read_json(os.path.expanduser(path))


def _wiki(output: Any) -> tuple[Any, str | None]:
    """The reply as a wiki value, or the reason it is none."""
    if isinstance(output, (Mapping, list)):
        return output, None
    text = str(output)
    try:
        from ..parse import parse_json
    except ImportError:  # parse not installed in a trimmed build: strict JSON only
        try:
            return json.loads(text), None
        except ValueError as exc:
            return None, f"the reply is not JSON: {exc}"
    parsed = parse_json(text)
    if not parsed.ok:
        return None, "the reply holds no wiki JSON: " + "; ".join(parsed.errors[-2:])
    if not isinstance(parsed.value, (Mapping, list)):
        return None, "the reply's JSON is not a wiki page or a list of pages"
    return parsed.value, None
