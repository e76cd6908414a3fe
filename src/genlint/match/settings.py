"""The ``[match]`` section of genlint.toml, validated; command-line flags override it."""

from __future__ import annotations

from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from ..config import Key, load_config


def _between(low: float, high: float) -> Any:
    def check(value: float) -> str | None:
        return None if low <= value <= high else f"must be between {low:g} and {high:g}"

    return check


def _positive(value: float) -> str | None:
    return None if value > 0 else "must be greater than 0"


# [match] keys of genlint.toml (docs/configuration.md)
KEYS = {
    "embedder": Key("str"),
    "threshold": Key("number", _between(-1.0, 1.0)),
    "top_k": Key("int", _between(1, 100)),
    "max_results": Key("int", _between(1, 100)),
    "llm": Key("bool"),
    "model": Key("str"),
    "base_url": Key("str"),
    "api_key_env": Key("str"),
    "timeout": Key("number", _positive),
    "cache_dir": Key("str"),
}


@dataclass(frozen=True)
class MatchSettings:
    embedder: str = "lexical"
    threshold: float | None = None
    top_k: int = 5
    max_results: int = 3
    llm: bool = False
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = 30.0
    cache_dir: str | None = None

    @classmethod
    def load(cls, path: str | Path | None = None) -> MatchSettings:
        return cls(**load_config(path).validated("match", KEYS))


assert {f.name for f in fields(MatchSettings)} == set(KEYS), "every setting is a [match] key"
