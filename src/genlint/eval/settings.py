"""The ``[eval]`` configuration section and threshold overrides, validated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..config import Key, validate_section
from ..errors import ConfigError
from .models import Thresholds

_THRESHOLD_NAMES = tuple(f.name for f in fields(Thresholds))


@dataclass(frozen=True)
class EvalSettings:
    thresholds: Thresholds = field(default_factory=Thresholds)
    glossary: dict[str, list[str]] = field(default_factory=dict)
    lexicon: dict[str, list[str]] = field(default_factory=dict)
    disable: frozenset[str] = frozenset()


def thresholds_from(
    value: Thresholds | Mapping[str, Any] | None, base: Thresholds | None = None
) -> Thresholds:
    """Thresholds from a mapping of some of the four names (others keep ``base``)."""
    base = base or Thresholds()
    if value is None:
        return base
    if isinstance(value, Thresholds):
        return value
    if not isinstance(value, Mapping):
        raise ConfigError("thresholds must be a table of metric names to numbers")
    changes: dict[str, float] = {}
    for name, number in value.items():
        if name not in _THRESHOLD_NAMES:
            raise ConfigError(f"unknown threshold {name!r} (known: {', '.join(_THRESHOLD_NAMES)})")
        if isinstance(number, bool) or not isinstance(number, (int, float)) or not 0 <= number <= 1:
            raise ConfigError(f"threshold {name} must be a number between 0 and 1, got {number!r}")
        changes[name] = float(number)
    return replace(base, **changes)


def _word_lists(value: dict[str, Any]) -> str | None:
    bad = next((k for k, words in value.items() if not _is_str_list(words)), None)
    return None if bad is None else f"entry {bad!r} must be a list of strings"


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(w, str) for w in value)


def _thresholds(value: dict[str, Any]) -> str | None:
    try:
        thresholds_from(value)
    except ConfigError as exc:
        return f"has an {exc}"
    return None


# [eval] keys of genlint.toml (docs/configuration.md)
KEYS = {
    "thresholds": Key("table", _thresholds),
    "glossary": Key("table", _word_lists),
    "lexicon": Key("table", _word_lists),
    "ignore": Key("str_list"),
    "disable": Key("str_list"),  # the old name of `ignore`
}


def settings_from(section: Mapping[str, Any], where: str = "[eval]") -> EvalSettings:
    checked = validate_section(section, KEYS, where)
    return EvalSettings(
        thresholds_from(checked.get("thresholds")),
        {str(k): list(v) for k, v in checked.get("glossary", {}).items()},
        {str(k): list(v) for k, v in checked.get("lexicon", {}).items()},
        frozenset([*checked.get("ignore", []), *checked.get("disable", [])]),
    )
