"""The public API: ``genlint.evaluate`` takes plain JSON values or paths, returns typed data."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import genlint
from genlint import EvaluationResult, evaluate
from genlint.errors import ConfigError, SchemaError

CASE = Path(__file__).parents[1] / "fixtures" / "eval" / "cases" / "requirement_example"


def test_top_level_exports() -> None:
    assert genlint.evaluate is evaluate
    result = evaluate(CASE / "facts.json", CASE / "wiki.json")
    assert isinstance(result, EvaluationResult)
    assert result.passed is False
    assert result.metrics.key_fact_recall == 0.5
    assert result.uncovered_facts == ("calls:HogosyaService.update", "annotations:@Transactional")
    assert json.loads(json.dumps(result.to_dict()))["pass"] is False


@pytest.mark.parametrize(
    ("thresholds", "passed"),
    [({"key_fact_recall": 0.5}, True), ({"key_fact_recall": 0.51}, False), (None, False)],
)
def test_thresholds_argument(thresholds: dict | None, passed: bool) -> None:
    facts = json.loads((CASE / "facts.json").read_text("utf-8"))
    wiki = json.loads((CASE / "wiki.json").read_text("utf-8"))
    result = evaluate(facts, wiki, thresholds)
    assert result.passed is passed
    assert result.to_dict()["thresholds"]["faithfulness"] == 0.95


@pytest.mark.parametrize(
    ("facts", "wiki", "error", "message"),
    [
        (
            {"facts": []},
            {"method": "m", "claims": [{"text": "x", "fact_refs": "calls:A"}]},
            SchemaError,
            "wiki.json: claims[0].fact_refs must be a list",
        ),
        (
            {"facts": [{"id": ""}]},
            {"method": "m", "claims": []},
            SchemaError,
            "facts.json: facts[0].id must be a non-empty string",
        ),
        ({"facts": []}, 42, SchemaError, "top level must be a page object or a list of pages"),
    ],
)
def test_bad_shapes_raise_schema_errors(
    facts: object, wiki: object, error: type, message: str
) -> None:
    with pytest.raises(error, match=message.replace("[", r"\[").replace("]", r"\]")):
        evaluate(facts, wiki)  # type: ignore[arg-type]


def test_bad_threshold_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="unknown threshold 'recall'"):
        evaluate({"facts": []}, {"method": "m", "claims": []}, {"recall": 0.5})


def test_metrics_and_thresholds_list_every_field_in_order() -> None:
    """Their to_dict names every field, in order (the JSON report shows them so)."""
    from dataclasses import fields

    from genlint.eval.models import Metrics, Thresholds

    limits = Thresholds(0.9, 0.1, 0.8, 0.2)
    assert limits.to_dict() == {f.name: getattr(limits, f.name) for f in fields(limits)}
    assert list(limits.to_dict()) == [f.name for f in fields(limits)]
    metrics = Metrics(0.123456, 0.5, 1 / 3, 0.0)
    assert metrics.to_dict() == {
        f.name: round(getattr(metrics, f.name), 4) for f in fields(metrics)
    }
    assert list(metrics.to_dict()) == [f.name for f in fields(metrics)]
