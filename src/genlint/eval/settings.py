"""The ``[eval]`` configuration section and threshold overrides, validated."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from typing import Any

from ..errors import ConfigError
from .models import Thresholds

_THRESHOLD_NAMES = tuple(f.name for f in fields(Thresholds))
_KEYS = {"thresholds", "glossary", "lexicon", "disable"}


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


def settings_from(section: Mapping[str, Any], where: str = "[eval]") -> EvalSettings:
    unknown = sorted(set(section) - _KEYS)
    if unknown:
        raise ConfigError(
            f"{where}: unknown key {unknown[0]!r} (known: {', '.join(sorted(_KEYS))})"
        )
    try:
        thresholds = thresholds_from(section.get("thresholds"))
    except ConfigError as exc:
        raise ConfigError(f"{where}.thresholds: {exc}") from exc
    glossary = _word_lists(section.get("glossary", {}), f"{where}.glossary")
    lexicon = _word_lists(section.get("lexicon", {}), f"{where}.lexicon")
    disable = section.get("disable", [])
    if not isinstance(disable, list) or not all(isinstance(d, str) for d in disable):
        raise ConfigError(f"{where}.disable must be a list of reasons")
    return EvalSettings(thresholds, glossary, lexicon, frozenset(disable))


def _word_lists(value: Any, where: str) -> dict[str, list[str]]:
    if not isinstance(value, Mapping):
        raise ConfigError(f"{where} must be a table")
    out: dict[str, list[str]] = {}
    for key, words in value.items():
        if not isinstance(words, list) or not all(isinstance(w, str) for w in words):
            raise ConfigError(f"{where}.{key} must be a list of strings")
        out[str(key)] = list(words)
    return out
