"""The manifest of public model-contract clauses (tests/data/match_zh_public.json) and the code
that turns the contracts' pages back into those clauses (benchmarks/bench_match_public.py).
The pages themselves are third-party text and not in the repository: these tests build their
own pages."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
MANIFEST = ROOT / "tests" / "data" / "match_zh_public.json"
DEV = ROOT / "tests" / "data" / "match_zh_dev.json"


@pytest.fixture(scope="module")
def public() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "bench_match_public", ROOT / "benchmarks" / "bench_match_public.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # Its dataclass looks its own module up by name while the class is made.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def manifest() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(MANIFEST.read_text("utf-8"))
    return data


def test_the_manifest_names_every_clause_and_labels_it_with_known_criteria(
    manifest: dict[str, Any],
) -> None:
    criteria = {c["criterion_id"] for c in json.loads(DEV.read_text("utf-8"))["criteria"]}
    clauses = manifest["clauses"]
    assert len(clauses) >= 100
    assert re.fullmatch(r"[0-9a-f]{40}", manifest["commit"]) and "/" in manifest["repository"]
    assert len({c["clause_id"] for c in clauses}) == len(clauses)
    paths = {d["path"] for d in manifest["documents"]}
    for c in clauses:
        assert c["path"] in paths
        assert re.fullmatch(r"第[一二三四五六七八九十百零〇两\d]+条", c["article"])
        assert re.fullmatch(r"[0-9a-f]{16}", c["sha256"]) and c["occurrence"] >= 1
        assert set(c["applicable"]) <= criteria
    # Both kinds are there: "nothing applies" is measured too.
    uncovered = sum(not c["applicable"] for c in clauses)
    assert 10 <= uncovered <= len(clauses) - 80
    # No text of the contracts is kept: only where it is and its digest.
    assert not any("text" in c for c in clauses)


PAGE = """<? include_once("inc/auth.inc.php"); ?>
<html><head><style>p { font-size: 9pt }</style></head><body>
<p align=center>租赁合同</p>
<p>第一条 租赁期限。自＿年＿月＿日起&nbsp;至＿年＿月＿日止。</p>
<p>　　第二条 租金按月支付，<b>每月五日前</b>付清。</p><p>续上一段。二、违约责任</p>
<p>第十二条 违约的，支付违约金。第八章 附则</p><br>第十二条 重复的一条。
</body></html>"""


def test_pages_become_articles_without_markup_or_chapter_headings(public: ModuleType) -> None:
    text = public.page_text(PAGE.encode("gb18030"), "gb18030")
    assert "include_once" not in text and "font-size" not in text and "<" not in text
    got = public.articles(text)
    assert [h for h, _ in got] == ["第一条", "第二条", "第十二条", "第十二条"]
    assert got[0][1] == "第一条 租赁期限。自＿年＿月＿日起 至＿年＿月＿日止。"
    # A paragraph without a heading belongs to the article before it; the chapter heading the
    # page runs onto its end ("二、违约责任") does not.
    assert got[1][1] == "第二条 租金按月支付，每月五日前付清。续上一段。"
    assert got[2][1] == "第十二条 违约的，支付违约金。"


def _write_corpus(root: Path, manifest: dict[str, Any], page: str) -> None:
    for doc in manifest["documents"]:
        target = root / doc["path"]
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(page.encode(doc["encoding"]))


def test_absent_files_are_reported_not_scored(public: ModuleType, tmp_path: Path) -> None:
    clauses, why = public.load(tmp_path)
    assert clauses is None
    assert str(tmp_path) in why and "is not there" in why


def test_a_page_that_is_not_the_labelled_text_is_refused(
    public: ModuleType, manifest: dict[str, Any], tmp_path: Path
) -> None:
    heading = manifest["clauses"][0]["article"]
    _write_corpus(tmp_path, manifest, f"<p>{heading} 另一份合同的文字。</p>")
    clauses, why = public.load(tmp_path)
    assert clauses is None and "not the text that was labelled" in why
    _write_corpus(tmp_path, manifest, "<p>没有条款的页面。</p>")
    clauses, why = public.load(tmp_path)
    assert clauses is None and "has no" in why


def test_the_labelled_text_is_found_by_heading_occurrence_and_digest(
    public: ModuleType, manifest: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A manifest of our own, over a page of our own: the second 第十二条 is the labelled one.
    page = PAGE
    text = "第十二条 重复的一条。"
    own = {
        "repository": "example/contracts",
        "commit": "0" * 40,
        "documents": [{"document": "租赁", "path": "a/lease.php", "encoding": "gb18030"}],
        "clauses": [
            {
                "clause_id": "X-1",
                "path": "a/lease.php",
                "article": "第十二条",
                "occurrence": 2,
                "sha256": public.digest(text),
                "applicable": ["RENT"],
            }
        ],
    }
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps(own, ensure_ascii=False), "utf-8")
    monkeypatch.setattr(public, "MANIFEST", path)
    (tmp_path / "corpus" / "a").mkdir(parents=True)
    (tmp_path / "corpus" / "a" / "lease.php").write_bytes(page.encode("gb18030"))
    clauses, why = public.load(tmp_path / "corpus")
    assert why == "1 clauses of 1 contracts"
    assert [(c.clause_id, c.text, c.applicable) for c in clauses] == [("X-1", text, ["RENT"])]
