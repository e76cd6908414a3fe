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
from genlint.eval.parallel import _from_wire, page_scorer

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
    settings = (facts, (), (), None, frozenset(), thresholds_from(None))
    job: _pool.Job[Any, Any] = _pool.Job(setup=page_scorer, settings=settings, noun="page")
    wires = _pool.run(pages, job, 2, help_workers=False)
    limits = thresholds_from(None)
    scored = [_from_wire(p, wire, limits) for p, wire in zip(pages, wires, strict=True)]
    alone = evaluate(facts, pages)
    assert scored == list(alone.pages)
