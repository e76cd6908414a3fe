"""Source list validation and duplicate merging."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
import tomllib

from genlint.cite import load_sources
from genlint.cite.sources import Author, normalise_url, parse_name
from genlint.errors import SchemaError

FIXTURES = Path(__file__).parents[1] / "fixtures" / "cite"
BAD: list[dict[str, Any]] = tomllib.loads((FIXTURES / "bad_sources.toml").read_text("utf-8"))[
    "case"
]
URLS = tomllib.loads((FIXTURES / "urls.toml").read_text("utf-8"))["pairs"]


@pytest.mark.parametrize("case", BAD, ids=[c["error"] for c in BAD])
def test_bad_sources_name_the_entry(case: dict[str, Any]) -> None:
    with pytest.raises(SchemaError) as info:
        load_sources(json.loads(case["json"]))
    assert str(info.value) == case["error"]


@pytest.mark.parametrize(("a", "b", "same"), URLS, ids=[f"{a} ~ {b}" for a, b, _ in URLS])
def test_url_normalisation(a: str, b: str, same: bool) -> None:
    assert (normalise_url(a) == normalise_url(b)) is same


def test_merged_duplicate_lends_missing_fields_to_the_kept_source() -> None:
    sources = load_sources(
        [
            {"id": 1, "title": "Dam", "url": "https://www.x.org/dam/"},
            {"id": 2, "title": "Dam (copy)", "url": "http://x.org/dam", "year": 2020},
            {"id": 3, "title": "DAM."},
        ]
    )
    assert sources.ids == [1]
    assert sources.aliases == {2: 1, 3: 1}
    kept = sources.get(3)
    assert kept is not None and kept.title == "Dam" and kept.year == "2020"
    assert sources.resolve(9) is None


@pytest.mark.parametrize(
    ("written", "author"),
    [
        ("李世民", Author(literal="李世民")),
        ("李 世民", Author(literal="李世民")),
        ("Smith, John", Author(family="Smith", given="John")),
        ("John Smith", Author(family="Smith", given="John")),
        ("World Bank", Author(literal="World Bank")),
        ("UNESCO", Author(literal="UNESCO")),
    ],
)
def test_parse_name(written: str, author: Author) -> None:
    assert parse_name(written) == author


def test_cjk_family_given_objects_become_one_literal_name() -> None:
    (source,) = load_sources(
        [{"id": 1, "title": "A", "authors": [{"family": "张", "given": "三"}]}]
    ).sources
    assert source.authors == (Author(literal="张三"),)
