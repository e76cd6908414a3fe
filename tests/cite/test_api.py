"""The Python API: process_citations / process_document as the package exports them."""

from __future__ import annotations

import genlint
from genlint.cite import DocumentResult

SOURCES = [
    {"id": 1, "title": "A", "url": "https://a.org/x"},
    {"id": 2, "title": "B"},
    {"id": 3, "title": "C", "url": "https://www.a.org/x/?utm_campaign=z"},
    {"id": 4, "title": "D"},
]


def test_process_document_numbers_across_chapters_with_one_reference_list() -> None:
    doc = genlint.process_document(
        ["一<sources>[4]</sources>。", "二<sources>[2, 4, 8]</sources>。", "三[3]。"],
        SOURCES,
        renumber=True,
    )
    assert isinstance(doc, DocumentResult)
    assert doc.texts == ["一[1]。", "二[2][1]。", "三[3]。"]
    assert doc.cited == [4, 2, 1]  # [3] is source 1's duplicate
    assert doc.numbers == {4: 1, 2: 2, 1: 3}
    assert doc.invalid_ids == [8]
    assert doc.uncited == []
    assert doc.counts == {1: 1, 2: 1, 4: 2}
    assert [line[:4] for line in doc.bibliography.splitlines()] == ["[1] ", "[2] ", "[3] "]
    assert all(c.bibliography == "" for c in doc.chapters)
    assert doc.coverage.sentences == 3 and doc.coverage.cited == 3
    assert doc.to_dict()["chapters"] == doc.texts


def test_process_citations_result_and_json_shape() -> None:
    result = genlint.process_citations("<sources>[2, x]</sources>\n正文。", SOURCES, style="apa")
    data = result.to_dict()
    assert data["text"] == "[2]正文。"
    assert (data["cited"], data["invalid_ids"], data["uncited"]) == ([2], ["x"], [1, 4])
    assert data["counts"] == {"1": 0, "2": 1, "4": 0}
    assert data["bibliography"] == "[2] B. (n.d.)."  # APA: no author, no date
    assert {"coverage", "numbers", "merged", "style"} <= set(data)
    assert data["merged"] == {"3": 1}


def test_a_string_is_one_chapter() -> None:
    doc = genlint.process_document("x<sources>[1]</sources>", SOURCES)
    assert doc.texts == ["x[1]"]


def test_stdin_is_read_for_dash(run_cli, monkeypatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    import io
    import json

    sources = tmp_path / "s.json"
    sources.write_text(json.dumps(SOURCES), "utf-8")
    stdin = io.TextIOWrapper(io.BytesIO("甲<sources>[2]</sources>。".encode()), encoding="utf-8")
    monkeypatch.setattr("sys.stdin", stdin)
    result = run_cli("cite", "-", "--sources", str(sources), "--format", "json")
    assert result.code == 0 and json.loads(result.out)["text"] == "甲[2]。"
