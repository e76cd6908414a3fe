"""Rule documentation: every rule documented, one source for `genlint rule` and the README."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from genlint.check.rules import all_rules
from genlint.check.rules.docs import all_docs, readme_table, replace_readme_table, rules_page

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"


@pytest.mark.parametrize("rule", all_rules(), ids=lambda r: r.id)
def test_every_rule_has_summary_why_and_examples(rule):
    doc = next(d for d in all_docs() if d.id == rule.id)
    assert doc.summary and doc.why, rule.id
    assert doc.bad and doc.good, rule.id


def test_readme_rule_table_is_generated_from_the_metadata():
    text = README.read_text(encoding="utf-8")
    expected = replace_readme_table(text, readme_table(all_docs()))
    assert text == expected, "README rule table drifted: run python -m genlint.check.rules.docs"


def test_docs_rule_reference_is_generated_from_the_metadata():
    page = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert page == rules_page(all_docs()), "docs/rules.md drifted: run python -m genlint.check.rules.docs"


def test_rule_command_shows_the_docs(run_cli):
    result = run_cli("rule", "placeholder/empty-slot")
    assert result.code == 0
    assert "placeholder/empty-slot" in result.out
    assert "Why it matters" in result.out
    assert "开户行：银行支行【】账号：" in result.out  # a bad example
    assert "调用 save() 方法" in result.out  # a good example
    assert "--ignore placeholder/empty-slot" in result.out


def test_rule_command_lists_and_prints_json(run_cli):
    listing = run_cli("rule")
    assert listing.code == 0
    assert {r.id for r in all_rules()} <= {line.split()[0] for line in listing.out.splitlines() if "/" in line.split(" ")[0]}
    data = json.loads(run_cli("rule", "sensitive", "--format", "json").out)
    ids = [r["id"] for r in data["rules"]]
    assert ids and all(i.startswith("sensitive/") for i in ids)
    assert all(r["why"] and r["silence"] for r in data["rules"])


def test_rule_command_unknown_rule_is_usage_error(run_cli):
    result = run_cli("rule", "placeholder/nope")
    assert result.code == 2
    assert result.err.startswith("genlint: error: unknown rule")


def test_rules_page_renders_every_silencing_way_as_code() -> None:
    # `<the phrase>` outside code was read as an HTML tag: every rule page said allowlist = [""]
    from genlint.check.rules.docs import all_docs, rules_page

    page = rules_page(all_docs())
    phrases = ignores = 0
    for line in page.splitlines():
        if "<the phrase>" in line:
            phrases += 1
            assert '`[check] allowlist = ["<the phrase>"]`' in line, line
        if line.startswith("- ") and "genlint: ignore" in line:
            ignores += 1
            assert line.endswith("`"), line
    # the page still lists these ways (else the loop above asserts nothing)
    assert phrases and ignores, (phrases, ignores)


def test_examples_with_backticks_stay_code() -> None:
    from genlint.check.rules.docs import _code

    assert _code("某某公司") == "`某某公司`"
    assert _code("see `x` <姓名>") == "`` see `x` <姓名> ``"
