"""Reading the wiki argument: one JSON file, standard input, or a folder of page files."""

from __future__ import annotations

from pathlib import Path

from .._io import read_json
from ..errors import InputError
from .inputs import load_wiki, page_from_file
from .models import Page


def wiki_files(path: str) -> list[str] | None:
    """The ``*.json`` files of a wiki folder in name order (None: ``path`` is not a folder)."""
    p = Path(path)
    if path == "-" or not p.is_dir():
        return None
    files = sorted(f for f in p.rglob("*.json") if f.is_file())
    if not files:
        raise InputError(f"{p}: folder holds no .json wiki pages")
    return [str(f) for f in files]


def read_file_pages(file: str) -> list[Page]:
    """The pages of one file of a wiki folder, tagged with the file."""
    return page_from_file(read_json(file), file)


def read_pages(path: str) -> tuple[list[Page], bool]:
    """(pages, several): a folder is a batch, its ``*.json`` files read in name order."""
    files = wiki_files(path)
    if files is not None:
        pages: list[Page] = []
        for f in files:
            pages.extend(read_file_pages(f))
        return pages, True
    name = "<stdin>" if path == "-" else path
    return load_wiki(read_json(path), name)
