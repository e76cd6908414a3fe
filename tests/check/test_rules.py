"""Rules against the labelling rule of SPEC §1: every rule's own examples, a table of cases
(design cases, what is and what is not a placeholder, sensitive data), and rule metadata."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genlint import check_text
from genlint.check.rules import PACKS, all_rules

CASES = json.loads(
    (Path(__file__).parents[1] / "fixtures" / "check" / "cases.json").read_text("utf-8")
)
RULES = all_rules()


@pytest.mark.parametrize("case", CASES, ids=[f"{c['kind']}:{c['text'][:24]}" for c in CASES])
def test_case_table(case: dict) -> None:
    found = check_text(case["text"], select=case.get("select"))
    assert [[f.rule, f.text] for f in found] == case["expect"]
    for f in found:
        assert case["text"][f.start : f.end] == f.text


def test_case_table_covers_every_kind() -> None:
    kinds = {c["kind"] for c in CASES}
    assert kinds == {"design", "is", "not", "sens", "notsens"}
    # the "not" cases are the traps: each must be clean for the placeholder pack
    assert all(c["expect"] == [] for c in CASES if c["kind"] in ("not", "notsens"))


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("某某公司5签署合同", "某某公司"),
        ("按X4计算违约金", "X4"),
        ("华夏金融租赁有限公司签署合同", None),
        # SPEC §1: 账号： with nothing after it is an empty form field too
        ("开户行：银行支行【】账号：", ["【】", "账号："]),
    ],
)
def test_design_cases(text: str, expected: str | list[str] | None) -> None:
    found = check_text(text, select="placeholder")
    want = expected if isinstance(expected, list) else [expected] if expected else []
    assert [f.text for f in found] == want


# citation rules need sources and document rules a DOCX: tests/check/test_docx.py
@pytest.mark.parametrize(
    "rule", [r for r in RULES if r.pack not in ("citation", "document")], ids=lambda r: r.id
)
def test_rule_has_docs_and_its_examples_hold(rule) -> None:  # type: ignore[no-untyped-def]
    assert rule.id.count("/") == 1 and rule.pack in PACKS
    assert rule.description and "\n" not in rule.description
    assert rule.bad and rule.good, f"{rule.id} needs bad and good examples"
    # an opt-in rule (default = False) runs only when selected by its id
    select = rule.pack if rule.default else f"{rule.pack},{rule.id}"
    for bad in rule.bad:
        hits = [f for f in check_text(bad, select=select) if f.rule == rule.id]
        assert hits, f"{rule.id} misses its bad example {bad!r}"
    for good in rule.good:
        assert check_text(good, select=select) == [], (
            f"{rule.id} flags its good example {good!r}"
        )


def test_rule_ids_are_unique() -> None:
    ids = [r.id for r in RULES]
    assert len(ids) == len(set(ids))


@pytest.mark.parametrize(
    ("text", "select", "ignore", "rules"),
    [
        ("某某公司 13812345678", None, None, {"placeholder/mou-entity", "sensitive/mobile"}),
        ("某某公司 13812345678", "sensitive", None, {"sensitive/mobile"}),
        ("某某公司 13812345678", "placeholder/mou-entity", None, {"placeholder/mou-entity"}),
        ("某某公司 13812345678", None, "placeholder", {"sensitive/mobile"}),
        (
            "某某公司 13812345678",
            "placeholder,sensitive",
            "sensitive/mobile",
            {"placeholder/mou-entity"},
        ),
    ],
)
def test_select_and_ignore(text: str, select, ignore, rules: set[str]) -> None:  # type: ignore[no-untyped-def]
    assert {f.rule for f in check_text(text, select=select, ignore=ignore)} == rules


def test_unknown_rule_is_an_error() -> None:
    from genlint.errors import UnknownRuleError

    for bad in ("nopack", "placeholder/no-such-rule"):
        with pytest.raises(UnknownRuleError):
            check_text("x", select=bad)
