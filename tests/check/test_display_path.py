"""Paths as reports show them: relative to the working directory when the file is below it,
through symlinks as the OS resolves them (the folder of many files is resolved once)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from genlint.check.report import _realpath, display_path


def _pathlib(path: str) -> str:
    try:
        return Path(path).resolve().relative_to(Path.cwd().resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / "work" / "docs" / "sub").mkdir(parents=True)
    (tmp_path / "outside").mkdir()
    for name in ("work/docs/a.txt", "work/docs/sub/b.txt", "outside/c.txt"):
        (tmp_path / name).write_text("x")
    os.symlink(tmp_path / "outside", tmp_path / "work" / "docs" / "to-outside")
    os.symlink(tmp_path / "outside" / "c.txt", tmp_path / "work" / "docs" / "c-link.txt")
    os.symlink(tmp_path / "work" / "docs" / "sub", tmp_path / "work" / "sub-link")
    monkeypatch.chdir(tmp_path / "work")
    return tmp_path


@pytest.mark.parametrize(
    "path",
    [
        "docs/a.txt", "./docs/a.txt", "docs//sub/b.txt", "docs/sub/../a.txt", "docs/sub/.",
        "docs/sub/..", "docs/", "docs", ".", "a-missing-file.txt", "docs/missing/x.txt",
        "docs/to-outside/c.txt", "docs/c-link.txt", "sub-link/b.txt", "sub-link/../docs/a.txt",
        "../outside/c.txt", "OUTSIDE_ABS", "WORK_ABS",
    ],
)  # fmt: skip
def test_the_same_answer_as_pathlib_and_realpath(tree: Path, path: str) -> None:
    path = {"OUTSIDE_ABS": str(tree / "outside" / "c.txt"), "WORK_ABS": str(tree / "work")}.get(
        path, path
    )
    assert _realpath(path, os.getcwd()) == os.path.realpath(path)
    assert display_path(path) == _pathlib(path)


def test_the_same_relative_spelling_after_a_chdir_is_resolved_again(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert display_path("sub-link/b.txt") == "docs/sub/b.txt"
    (tree / "other" / "sub-link").mkdir(parents=True)  # a plain folder of that name
    monkeypatch.chdir(tree / "other")
    assert display_path("sub-link/b.txt") == "sub-link/b.txt"
