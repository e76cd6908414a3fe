"""The table of laws (``laws.toml``), read on first use so ``genlint --help`` never pays for it."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

__all__ = ["Law", "law_named", "laws"]

_PREFIX = "中华人民共和国"


@dataclass(frozen=True, slots=True)
class Law:
    title: str
    short: tuple[str, ...]
    articles: int | None
    in_force: dt.date | None
    repealed: dt.date | None
    replaced_by: str | None
    source: str
    # article number -> the replacing provision (the Civil Code's, for the laws it repealed)
    replacement: dict[int, str]


def _date(value: object) -> dt.date | None:
    return dt.date.fromisoformat(str(value)) if value else None


@lru_cache(maxsize=1)
def laws() -> dict[str, Law]:
    """Every law of the table by each name it is cited by (title, title without
    中华人民共和国, short names)."""
    from ....config import read_toml

    data = read_toml(Path(__file__).with_name("laws.toml"))
    replacements = data.get("replacement", {})
    out: dict[str, Law] = {}
    for row in data["law"]:
        short = tuple(row.get("short", ()))
        law = Law(
            row["title"],
            short,
            row.get("articles"),
            _date(row.get("in_force")),
            _date(row.get("repealed")),
            row.get("replaced_by"),
            row["source"],
            {int(k): v for name in short for k, v in replacements.get(name, {}).items()},
        )
        for name in (row["title"], row["title"].removeprefix(_PREFIX), *short):
            out[_key(name)] = law
    return out


def _key(name: str) -> str:
    # 〈〉 and 《》 inside a title are written either way
    return name.replace("〈", "《").replace("〉", "》").replace("(", "（").replace(")", "）")


def law_named(name: str) -> Law | None:
    return laws().get(_key(name.strip()))
