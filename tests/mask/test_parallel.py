"""`genlint mask --jobs N`: the same report, the same written files and the same errors as one
process; a missing file is reported for itself and the others are masked."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from support.corpus import make_corpus


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("corpus")
    # DOCX files go to a worker (the driver masks only plain text), so both kinds of process
    # mask files in the run with --jobs 2
    make_corpus(folder, 40, docx=3, pdf=0, lines=20)
    return folder


def files_of(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


@pytest.mark.parametrize("fmt", ["json", "text"])
def test_jobs_output_is_identical(run_cli: Any, corpus: Path, tmp_path: Path, fmt: str) -> None:
    missing = str(corpus / "missing.txt")
    runs = []
    for jobs in ("1", "2"):
        out = tmp_path / f"out{jobs}"
        result = run_cli("mask", str(corpus), missing, "--out", str(out), "--format", fmt,
                         "--jobs", jobs)  # fmt: skip
        runs.append((result.code, result.out.replace(str(out), "OUT"), result.err))
    assert runs[0] == runs[1]
    code, _out, err = runs[0]
    assert code == 2 and "missing.txt: no such file" in err
    one, two = files_of(tmp_path / "out1"), files_of(tmp_path / "out2")
    assert one == two and len(one) == 40
    assert any(name.endswith(".docx") for name in one)


def test_token_style_stays_in_one_process(run_cli: Any, corpus: Path, tmp_path: Path) -> None:
    """One vault numbers the tokens: --jobs does not split it."""
    runs = []
    for jobs in ("1", "2"):
        out, vault = tmp_path / f"out{jobs}", tmp_path / f"vault{jobs}.json"
        # one vault id for both runs: a new vault's id is random, and its tokens carry it
        vault.write_text('{"version": 2, "id": "abcdef", "tokens": {}}', encoding="utf-8")
        result = run_cli("mask", str(corpus), "--out", str(out), "--style", "token",
                         "--vault", str(vault), "--jobs", jobs)  # fmt: skip
        assert result.code == 0, result.err
        runs.append(result.out.replace(str(out), "OUT"))
    assert runs[0] == runs[1]
    assert files_of(tmp_path / "out1") == files_of(tmp_path / "out2")
