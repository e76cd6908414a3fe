"""Reference entries per style, from tests/fixtures/cite/bibliography.toml."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import tomllib

from genlint.cite import load_sources, process_citations
from genlint.cite.bibliography import render_bibliography, style_name
from genlint.cite.csl import format_pages
from genlint.errors import InputError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cite"
DATA = tomllib.loads((FIXTURES / "bibliography.toml").read_text("utf-8"))
CASES: list[dict[str, Any]] = DATA["case"]


@pytest.mark.parametrize("case", CASES, ids=[f"{c['style']}-{c['source']}" for c in CASES])
def test_reference_entry(case: dict[str, Any]) -> None:
    (source,) = load_sources([DATA["sources"][case["source"]]]).sources
    assert render_bibliography([(source.id, source)], case["style"]) == case["expect"]


@pytest.mark.parametrize(
    ("pages", "fmt", "expect"),
    [
        ("1-20", "minimal-two", "1-20"),
        ("112-115", "minimal-two", "112-15"),
        ("1003-1005", "minimal-two", "1003-05"),
        ("321-328", "minimal", "321-8"),
        ("e101–e110", "minimal-two", "e101-e110"),
        ("12", "minimal-two", "12"),
        ("1-20", None, "1-20"),
    ],
)
def test_page_ranges(pages: str, fmt: str | None, expect: str) -> None:
    assert format_pages(pages, fmt) == expect


def test_only_cited_sources_listed_in_label_order() -> None:
    sources = [{"id": i, "title": f"Title {i}"} for i in range(1, 6)]
    text = "A<sources>[4]</sources>. B<sources>[2]</sources>."
    plain = process_citations(text, sources).bibliography.splitlines()
    assert [line.split("]")[0] for line in plain] == ["[2", "[4"]
    renumbered = process_citations(text, sources, renumber=True).bibliography.splitlines()
    assert renumbered[0].startswith("[1] ") and "Title 4" in renumbered[0]
    assert renumbered[1].startswith("[2] ") and "Title 2" in renumbered[1]


@pytest.mark.parametrize(
    ("given", "name"),
    [("APA", "apa"), ("mla9", "mla"), ("GB/T7714", "gb7714"), ("ieee", "numeric")],
)
def test_style_aliases(given: str, name: str) -> None:
    assert style_name(given) == name


def test_unknown_style_lists_the_choices() -> None:
    with pytest.raises(InputError, match="numeric, apa, mla, gb7714"):
        style_name("chicago")


def test_an_entry_citeproc_fails_on_falls_back_to_its_title(monkeypatch, caplog) -> None:  # type: ignore[no-untyped-def]
    from genlint.cite import bibliography

    real = bibliography._citeproc

    def failing_on_b(items, spec):  # type: ignore[no-untyped-def]
        if any(item["title"] == "B" for item in items):
            raise ValueError("citeproc bug")
        return real(items, spec)

    monkeypatch.setattr(bibliography, "_citeproc", failing_on_b)
    bibliography._cached_citeproc.cache_clear()
    sources = [{"id": 1, "title": "A", "year": 2020}, {"id": 2, "title": "B"}]
    result = process_citations("x<sources>[1, 2]</sources>", sources, style="apa")
    assert result.bibliography.splitlines() == ["[1] A. (2020).", "[2] B"]
    assert "title only" in caplog.text
