"""The `citation` rule pack of `genlint check`, from tests/fixtures/cite/rules.toml."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tomllib

from genlint import check_text
from genlint.check.rules import load_pack

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cite"
CASES: list[dict[str, Any]] = tomllib.loads((FIXTURES / "rules.toml").read_text("utf-8"))["case"]
SOURCES = [{"id": i, "title": f"T{i}"} for i in (1, 2, 3)]


@pytest.mark.parametrize("case", CASES, ids=[c["text"][:30] for c in CASES])
def test_rule_case(case: dict[str, Any]) -> None:
    options = {"sources": SOURCES} if case.get("sources") else None
    found = check_text(case["text"], select="citation", options=options)
    assert [[f.rule, f.text] for f in found] == case["expect"]
    for f in found:
        assert case["text"][f.start : f.end] == f.text


def test_leftover_marker_fix_is_the_citation() -> None:
    (finding,) = check_text("装机<sources>［2，2 ，1］</sources>。", select="citation")
    assert finding.fix == "[2][1]"


@pytest.mark.parametrize("rule", load_pack("citation"), ids=lambda r: r.id)
def test_rule_docs_and_examples(rule) -> None:  # type: ignore[no-untyped-def]
    doc = rule.__doc__ or ""
    assert "Anti-pattern:" in doc and "Best practice:" in doc
    assert rule.description and "\n" not in rule.description
    options = {"sources": SOURCES}
    for bad in rule.bad:
        assert any(f.rule == rule.id for f in check_text(bad, select="citation", options=options))
    for good in rule.good:
        assert check_text(good, select="citation", options=options) == []


def test_check_cli_with_sources(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    doc = tmp_path / "report.md"
    doc.write_text(
        "第一段[1]。\n第二段<sources>[4]</sources>。\n三<sources>[2]</sources>\n", "utf-8"
    )
    sources = tmp_path / "sources.json"
    sources.write_text(json.dumps(SOURCES), "utf-8")
    result = run_cli(
        "check", str(doc), "--select", "citation", "--sources", str(sources), "--format", "json"
    )
    assert result.code == 1
    findings = json.loads(result.out)["files"][0]["findings"]
    assert [(f["rule"], f["line"], f["column"]) for f in findings] == [
        ("citation/unknown-id", 2, 4),
        ("citation/leftover-marker", 3, 2),
    ]
