"""The DOCX leak audit (issue 22, item 7): values planted in every place a package keeps text
are all found by check, and after mask, in every style, an independent extractor recovers
none of them, check finds nothing, and unmask (token style) restores every place."""

from __future__ import annotations

import io
import zipfile
from functools import lru_cache

import pytest

pytest.importorskip("docx")

from genlint.check import Checker
from genlint.mask import Masker, Vault
from genlint.mask.docx import mask_docx, unmask_docx
from genlint.readers.docx import read
from support.docx_leaks import LeakFile, corpus, leaked, normal

STYLES = ("keep-ends", "stars", "label", "token")
FILES = 26


@lru_cache(maxsize=1)
def _corpus() -> tuple[LeakFile, ...]:
    return tuple(corpus(FILES))


def test_the_corpus_is_big_and_distinct() -> None:
    files = _corpus()
    values = [p.value for f in files for p in f.planted]
    assert len(files) >= 25 and len(values) >= 100
    assert len(set(values)) == len(values)
    places = {p.place for f in files for p in f.planted}
    assert places >= {"body", "properties", "deleted", "field-code", "link", "alt-text",
                      "settings", "glossary", "custom-xml", "author", "embedded-html"}
    # the extractor is not blind: every planted value is recoverable from its input
    for f in files:
        assert leaked(f.data, [p.value for p in f.planted]) == [p.value for p in f.planted]


def _found(f: LeakFile) -> list[tuple[str, str]]:
    doc = read(f.name, f.data)
    findings = Checker("sensitive").check_document(doc)
    seen = [(normal(x.text), (x.location or {}).get("part", "")) for x in findings]
    return [(p.value, p.place) for p in f.planted
            if not any(normal(p.value) in text and part == p.place for text, part in seen)]


@pytest.mark.parametrize("index", range(FILES))
def test_check_finds_every_planted_value_in_its_place(index: int) -> None:
    assert _found(_corpus()[index]) == []


def _texts(data: bytes) -> list[str]:
    return [seg.text for seg in read("x.docx", data).segments]


def _runs(data: bytes) -> list[str]:
    """Every w:t, w:delText and w:instrText of the main part, in order (formatting lives in
    the runs, so the same list means each run got its own characters back)."""
    from lxml import etree

    with zipfile.ZipFile(io.BytesIO(data)) as z:
        root = etree.fromstring(z.read("word/document.xml"))
    return [el.text or "" for el in root.iter() if isinstance(el.tag, str)
            and el.tag.rpartition("}")[2] in ("t", "delText", "instrText")]


@pytest.mark.parametrize("index", range(FILES))
def test_mask_leaves_nothing_any_extractor_finds_and_unmask_restores(index: int) -> None:
    f = _corpus()[index]
    values = [p.value for p in f.planted]
    for style in STYLES:
        vault = Vault() if style == "token" else None
        masked = mask_docx(f.name, f.data, Masker(style, vault=vault))
        assert leaked(masked.data, values) == [], style
        again = Checker("sensitive").check_document(read(f.name, masked.data))
        assert again == [], style
        assert len(masked.replacements) >= len(values)
        if vault is not None:
            restored = unmask_docx(f.name, masked.data, vault)
            assert restored.unplaced == []
            assert _texts(restored.data) == _texts(f.data)
            assert _runs(restored.data) == _runs(f.data)
