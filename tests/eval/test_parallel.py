"""`genlint eval --jobs N`: the same report and warnings as one process, in the same order."""

from __future__ import annotations

import json
import logging
import shutil
from pathlib import Path
from typing import Any

import pytest

from genlint import _pool
from genlint.eval import evaluate
from genlint.eval.inputs import load_facts
from genlint.eval.parallel import Settings, _from_wire, page_scorer

EXAMPLES = Path(__file__).parents[2] / "examples" / "eval"
FACTS = str(EXAMPLES / "facts.json")


@pytest.fixture(scope="module")
def wiki(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("wiki")
    pages = sorted((EXAMPLES / "pages").glob("*.json"))
    for i in range(30):
        shutil.copy(pages[i % len(pages)], folder / f"{i:03d}-{pages[i % len(pages)].name}")
    # a page with no fact: a warning each run, in page order
    (folder / "015-orphan.json").write_text(
        json.dumps({"method": "orphanMethod", "claims": [{"text": "x", "fact_refs": []}]})
    )
    return folder


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_jobs_output_is_identical(
    run_cli: Any, wiki: Path, fmt: str, caplog: pytest.LogCaptureFixture
) -> None:
    runs = []
    for jobs in ("1", "2"):
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            result = run_cli("eval", "--facts", FACTS, "--wiki", str(wiki), "--format", fmt,
                             "--jobs", jobs)  # fmt: skip
        runs.append((result.code, result.out, result.err, [r.getMessage() for r in caplog.records]))
    assert runs[0] == runs[1]
    assert any("orphanMethod" in message for message in runs[0][3])


def test_pages_scored_in_workers_equal_one_process(wiki: Path) -> None:
    """The workers' scorer itself (the driver scores nothing here)."""
    from genlint.eval.batch import read_pages
    from genlint.eval.settings import thresholds_from

    facts = load_facts(json.loads(Path(FACTS).read_text("utf-8")), FACTS)
    pages, _ = read_pages(str(wiki))
    settings = Settings(facts, (), (), None, frozenset(), thresholds_from(None))
    job: _pool.Job[Any, Any] = _pool.Job(setup=page_scorer, settings=settings, noun="page")
    wires = _pool.run(pages, job, 2, help_workers=False)
    limits = thresholds_from(None)
    scored = [_from_wire(p, wire, limits) for p, wire in zip(pages, wires, strict=True)]
    alone = evaluate(facts, pages)
    assert scored == list(alone.pages)


def test_files_read_and_scored_in_workers_equal_one_process(wiki: Path) -> None:
    """A folder's files are read by the workers too (the driver reads and scores nothing)."""
    from genlint.eval.batch import wiki_files
    from genlint.eval.parallel import file_scorer
    from genlint.eval.settings import thresholds_from

    facts = load_facts(json.loads(Path(FACTS).read_text("utf-8")), FACTS)
    files = wiki_files(str(wiki))
    assert files is not None and len(files) == 31
    settings = Settings(facts, (), (), None, frozenset(), thresholds_from(None))
    job: _pool.Job[Any, Any] = _pool.Job(setup=file_scorer, settings=settings, noun="file")
    limits = thresholds_from(None)
    scored = []
    for pages, wires, error in _pool.run(files, job, 2, help_workers=False):
        assert error is None
        scored += [_from_wire(p, wire, limits) for p, wire in zip(pages, wires, strict=True)]
    alone = evaluate(facts, str(wiki))
    assert scored == list(alone.pages)
    orphans = [r.source for r in alone.pages if r.page == "orphanMethod"]
    assert orphans == [str(wiki / "015-orphan.json")]
    assert evaluate(facts, str(wiki), jobs=2) == alone


def test_a_bad_file_gives_the_error_of_one_process(
    run_cli: Any, wiki: Path, tmp_path: Path
) -> None:
    """Files read in several processes: the error is still the first bad file's in name
    order, whichever process read it first; nothing is written."""
    folder = tmp_path / "wiki"
    shutil.copytree(wiki, folder)
    (folder / "007-broken.json").write_text('{"method": "m", "claims": [', "utf-8")
    (folder / "025-not-a-page.json").write_text("[1]", "utf-8")
    out = tmp_path / "report.json"
    runs = []
    for jobs in ("1", "2"):
        result = run_cli("eval", "--facts", FACTS, "--wiki", str(folder), "--out", str(out),
                         "--jobs", jobs)  # fmt: skip
        runs.append((result.code, result.err))
    assert runs[0] == runs[1]
    assert runs[0][0] == 2 and "007-broken.json" in runs[0][1] and "025" not in runs[0][1]
    assert not out.exists()


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_the_folder_is_listed_once(
    run_cli: Any, wiki: Path, jobs: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from genlint.eval import batch, engine

    calls: list[str] = []
    real = batch.wiki_files

    def counted(path: str) -> list[str] | None:
        calls.append(path)
        return real(path)

    monkeypatch.setattr(batch, "wiki_files", counted)
    monkeypatch.setattr(engine, "wiki_files", counted)
    result = run_cli("eval", "--facts", FACTS, "--wiki", str(wiki), "--format", "json",
                     "--jobs", jobs)  # fmt: skip
    assert result.code in (0, 1)
    assert calls == [str(wiki)]
