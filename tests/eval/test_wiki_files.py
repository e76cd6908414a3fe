"""A wiki folder's files: the order and spelling of ``sorted(Path(p).rglob("*.json"))``,
which the reports show (each page's ``source``), found without pathlib's cost."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.errors import InputError
from genlint.eval.batch import wiki_files


def _pathlib(path: str) -> list[str]:
    return [str(f) for f in sorted(f for f in Path(path).rglob("*.json") if f.is_file())]


@pytest.fixture
def tree(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    for folder in ("w/a/b", "w/a-c", "w/.hidden", "w/x.json", "other"):
        os.makedirs(folder)
    for name in ("a/b/1.json", "a-c/2.json", "a.json", "a/z.json", ".hidden/h.json", ".json",
                 "B.json", "b.JSON", "a/b/é.json", "notes.txt"):  # fmt: skip
        (tmp_path / "w" / name).write_text("{}")
    (tmp_path / "other" / "o.json").write_text("{}")
    os.symlink(tmp_path / "other" / "o.json", tmp_path / "w" / "link.json")
    os.symlink(tmp_path / "missing", tmp_path / "w" / "broken.json")
    os.symlink(tmp_path / "other", tmp_path / "w" / "linked-folder")
    return tmp_path


@pytest.mark.parametrize("spelling", ["w", "w/", "./w", "w//a", "ABS", "."])
def test_same_files_order_and_spelling_as_pathlib(
    tree: Path, monkeypatch: pytest.MonkeyPatch, spelling: str
) -> None:
    if spelling == ".":
        monkeypatch.chdir(tree / "w")
    path = str(tree / "w") if spelling == "ABS" else spelling
    got = wiki_files(path)
    assert got == _pathlib(path)
    assert got and not any("other" in f or "broken" in f for f in got)


def test_not_a_folder_and_a_folder_without_pages(tree: Path) -> None:
    assert wiki_files("w/a.json") is None
    assert wiki_files("-") is None
    (tree / "empty").mkdir()
    (tree / "empty" / "notes.txt").write_text("{}")
    with pytest.raises(InputError, match=r"no \.json wiki pages"):
        wiki_files(str(tree / "empty"))


_NAME = st.text(alphabet="aB-._0é", min_size=1, max_size=4).filter(lambda n: n not in (".", ".."))


@settings(max_examples=40, deadline=None)
@given(paths=st.lists(st.lists(_NAME, min_size=1, max_size=3), min_size=1, max_size=12))
def test_random_trees_match_pathlib(
    tmp_path_factory: pytest.TempPathFactory, paths: list[list[str]]
) -> None:
    root = tmp_path_factory.mktemp("wiki")
    for parts in paths:
        target = root.joinpath(*parts[:-1], parts[-1] + ".json")
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            if not target.exists():
                target.write_text("{}")
        except (FileExistsError, NotADirectoryError, IsADirectoryError):
            continue  # a name taken by a file and a folder at once: not a tree
    expected = _pathlib(str(root))
    if not expected:
        return
    assert wiki_files(str(root)) == expected


def test_an_unreadable_folder_is_an_error_not_missing_pages(
    tree: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # (CI runs as root, which reads every folder: the refusal is simulated)
    real = os.scandir

    def scandir(path: str) -> object:
        if path.endswith("a-c"):
            raise PermissionError(13, "Permission denied")
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)
    with pytest.raises(InputError, match=r"a-c: cannot read this folder \(Permission denied\)"):
        wiki_files("w")
