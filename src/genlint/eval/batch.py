"""Reading the wiki argument: one JSON file, standard input, or a folder of page files."""

from __future__ import annotations

from pathlib import Path

from .._io import read_json
from ..errors import InputError
from .inputs import load_wiki, page_from_file
from .models import Page


def read_pages(path: str) -> tuple[list[Page], bool]:
    """(pages, several): a folder is a batch, its ``*.json`` files read in name order."""
    p = Path(path)
    if path != "-" and p.is_dir():
        files = sorted(f for f in p.rglob("*.json") if f.is_file())
        if not files:
            raise InputError(f"{p}: folder holds no .json wiki pages")
        pages: list[Page] = []
        for f in files:
            name = str(f)
            pages.extend(page_from_file(read_json(f), name))
        return pages, True
    name = "<stdin>" if path == "-" else path
    return load_wiki(read_json(path), name)
