"""SOURCES.json in CSL-JSON names (as Zotero and pandoc export it) is read, and a field genlint
does not know is reported with the field meant, not dropped in silence."""

from __future__ import annotations

import json
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from genlint.cite.sources import load_sources


def test_csl_json_names_are_read() -> None:
    sources = load_sources(
        [
            {
                "id": 1,
                "title": "Deep learning",
                "container-title": "Nature",
                "issued": {"date-parts": [[2015, 5, 28]]},
                "author": [{"family": "LeCun", "given": "Yann"}, {"literal": "Hinton"}],
                "URL": "https://doi.org/10.1038/nature14539",
                "DOI": "10.1038/nature14539",
                "page": "436-444",
                "type": "article-journal",
                "accessed": {"date-parts": [[2024, 1, 5]]},
            },
            {"id": 2, "title": "raw date", "issued": {"raw": "2019-03"}},
        ]
    )
    s = sources.get(1)
    assert s is not None
    assert (s.container, s.year, s.doi, s.pages, s.source_type) == (
        "Nature",
        "2015",
        "10.1038/nature14539",
        "436-444",
        "article-journal",
    )
    assert [a.family or a.literal for a in s.authors] == ["LeCun", "Hinton"]
    assert s.url == "https://doi.org/10.1038/nature14539" and s.accessed == "2024-01-05"
    assert sources.get(2).year == "2019"  # type: ignore[union-attr]
    assert sources.warnings == []


def test_unknown_field_warns_with_a_suggestion() -> None:
    sources = load_sources(
        [{"id": 1, "title": "A", "journal": "Nature"}, {"id": 2, "title": "B", "publsher": "X"}]
    )
    assert sources.warnings == [
        'source 1: unknown field "journal" ignored (did you mean "container"?)',
        'source 2: unknown field "publsher" ignored (did you mean "publisher"?)',
    ]
    assert sources.get(1).container is None  # type: ignore[union-attr]


def test_cite_cli_prints_the_warning(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    src = tmp_path / "sources.json"
    src.write_text(json.dumps([{"id": 1, "title": "A", "journal": "Nature"}]), "utf-8")
    doc = tmp_path / "a.md"
    doc.write_text("正文<sources>[1]</sources>\n", "utf-8")
    result = run_cli("cite", str(doc), "--sources", str(src))
    assert result.code == 0, result.err
    assert (
        f'genlint: warning: {src}: source 1: unknown field "journal" ignored (did you mean "container"?)'
        in result.err
    )


@given(st.dictionaries(st.sampled_from(["url", "doi", "pages", "volume"]), st.text(max_size=8)))
def test_plain_entries_never_warn(fields: dict[str, str]) -> None:
    assert load_sources([{"id": 1, "title": "T", **fields}]).warnings == []


def test_the_warning_names_the_source_by_its_id() -> None:
    sources = load_sources(
        [
            {"id": 1, "title": "A"},
            {"id": 4, "title": "D", "journal": "N"},
            {"id": "7", "title": "x", "jornal": 1},
        ]
    )
    assert [w.split(":")[0] for w in sources.warnings] == ["source 4", "source 7"]
