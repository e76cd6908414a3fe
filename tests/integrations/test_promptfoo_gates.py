"""promptfoo assertions for check (findings per rule and pack) and parse (ok, lossy,
truncated): called directly, and through the real promptfoo offline (`make promptfoo`)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genlint.integrations.promptfoo_gates import check_assert, parse_assert, truncated
from support.promptfoo import promptfoo_eval

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "promptfoo"
PHONE = "13812345678"


def test_check_counts_per_rule_and_pack_and_masks() -> None:
    result = check_assert(
        f"甲方：某某公司，联系电话 {PHONE}。",
        {"config": {"max": {"sensitive": 0, "placeholder": 1}}},
    )
    assert result["pass"] is False
    assert result["reason"].startswith("FAIL: sensitive 1 > 0 | ")
    assert PHONE not in json.dumps(result, ensure_ascii=False) and "138****5678" in result["reason"]
    assert result["named_scores"] == {
        "placeholder": 1,
        "sensitive": 1,
        "placeholder/mou-entity": 1,
        "sensitive/mobile": 1,
    }
    assert [c["pass"] for c in result["component_results"]] == [False, True]


def test_check_defaults_to_no_finding_at_all() -> None:
    assert check_assert("甲方：华夏建设有限公司。", None)["pass"] is True
    assert check_assert("甲方：某某公司。", None)["pass"] is False
    assert check_assert("甲方：某某公司。", {"config": {"select": "sensitive"}})["pass"] is True


def test_check_bad_config_is_a_failed_assertion() -> None:
    result = check_assert("x", {"config": {"max": {"sensitive": -1}}})
    assert result["pass"] is False and "could not run" in result["reason"]
    assert check_assert("x", {"config": {"select": "nopack"}})["pass"] is False


def test_unexpected_failure_names_its_kind_not_its_text(monkeypatch: pytest.MonkeyPatch) -> None:
    # an exception of a bug may quote the reply; the reason is a report and never does
    def broken(text: str, *args: object, **kwargs: object) -> list[object]:
        raise RuntimeError(f"cannot read {text}")

    monkeypatch.setattr("genlint.check.check_text", broken)
    result = check_assert(f"call {PHONE}", None)
    assert result["pass"] is False and "RuntimeError" in result["reason"]
    assert PHONE not in json.dumps(result)


@pytest.mark.parametrize(
    ("reply", "config", "passed", "scores"),
    [
        ('{"score": 4, "reason": "引用准确"}', {"fields": ["score", "reason"]}, True, (1, 0, 0)),
        ('{"score": 4, "reason": "引用准', {"fields": ["score", "reason"]}, False, (1, 0, 1)),
        ('{"score": 4, "reason": "引用准', {"allow_truncated": True}, True, (1, 0, 1)),
        ('{"a": 1} then {"b": 2, "c": garbage garbage}', {}, False, (1, 1, 0)),
        ("no json here", {}, False, (0, 0, 0)),
        ('Sure: {"a": 1}', {"allow": ["direct"]}, False, (1, 0, 0)),
    ],
)
def test_parse(reply: str, config: dict, passed: bool, scores: tuple[int, int, int]) -> None:  # type: ignore[type-arg]
    result = parse_assert(reply, {"config": config})
    assert result["pass"] is passed, result["reason"]
    named = result["named_scores"]
    assert (named["ok"], named["lossy"], named["truncated"]) == scores
    json.dumps(result)


def test_truncated_notes() -> None:
    assert truncated(["closed 2 open brackets"]) and truncated(["closed a truncated string"])
    assert not truncated(["took the fragment at chars 0-8"])


def test_example_files_expose_get_assert() -> None:
    import importlib.util

    for name, func in (("genlint_check.py", check_assert), ("genlint_parse.py", parse_assert)):
        spec = importlib.util.spec_from_file_location(name[:-3], EXAMPLE / name)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        assert module.get_assert is func


@pytest.mark.slow
def test_real_promptfoo_runs_the_gates(tmp_path: Path) -> None:
    done, results = promptfoo_eval(EXAMPLE, "gates/promptfooconfig.yaml", tmp_path)
    assert done.returncode == 100, done.stdout[-3000:] + done.stderr[-3000:]  # some must fail
    rows = json.loads(results.read_text("utf-8"))["results"]["results"]
    outcome = {r["testCase"]["description"]: r["success"] for r in rows}
    assert outcome == {
        "a filled contract clause passes check": True,
        "a placeholder and a phone number fail check": False,
        "a complete verdict parses": True,
        "a verdict cut off mid-string is truncated": False,
        "a reply whose JSON keeps less than it says is lossy": False,
    }
    reasons = {r["testCase"]["description"]: r["gradingResult"]["reason"] for r in rows}
    assert "truncated" in reasons["a verdict cut off mid-string is truncated"]
    assert "lossy" in reasons["a reply whose JSON keeps less than it says is lossy"]
