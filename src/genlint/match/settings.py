"""The ``[match]`` section of genlint.toml, validated; command-line flags override it."""

from __future__ import annotations

from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from ..config import load_config
from ..errors import ConfigError


class MatchSettings(BaseModel):
    model_config = ConfigDict(extra="forbid")

    embedder: str = "lexical"
    threshold: float | None = Field(default=None, ge=-1.0, le=1.0)
    top_k: int = Field(default=5, ge=1, le=100)
    max_results: int = Field(default=3, ge=1, le=100)
    llm: bool = False
    model: str | None = None
    base_url: str | None = None
    api_key_env: str = "OPENAI_API_KEY"
    timeout: float = Field(default=30.0, gt=0)
    cache_dir: str | None = None

    @classmethod
    def load(cls, path: str | Path | None = None) -> MatchSettings:
        raw = load_config(path)
        try:
            return cls.model_validate(raw.section("match"))
        except ValidationError as exc:
            err = exc.errors()[0]
            where = ".".join(str(p) for p in err["loc"])
            raise ConfigError(f"{raw.path}: [match] {where}: {err['msg'].lower()}") from None
