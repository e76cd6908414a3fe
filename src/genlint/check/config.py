"""The ``[check]`` table of the configuration file, validated (docs/configuration.md)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..config import Key, validate_section
from ..errors import ConfigError
from ..findings import Severity
from .rules import PACKS, Rule, pattern_rule_from_table

if TYPE_CHECKING:
    from ..config import RawConfig

__all__ = ["PROFILES", "CheckConfig", "as_config"]


def _no_empty(value: str | list[str]) -> str | None:
    items = [value] if isinstance(value, str) else value
    return "must not hold an empty string" if any(not item for item in items) else None


# what a document is, for the rules that read it differently (SPEC §1 "Review copies and
# reports"): a published judgment anonymises parties on purpose (李某, 张某1, 马XX)
PROFILES = ("default", "judgment")


def _known_profile(value: str) -> str | None:
    return None if value in PROFILES else f"must be one of {', '.join(PROFILES)}"


# [check] keys of genlint.toml (docs/configuration.md); `disable` is another name for `ignore`
KEYS = {
    "select": Key("str_or_list", _no_empty),
    "ignore": Key("str_or_list", _no_empty),
    "disable": Key("str_or_list", _no_empty),
    "allowlist": Key("str_or_list", _no_empty),
    "severity": Key("table"),
    "patterns": Key("table_list"),
    "profile": Key("str", _known_profile),
}


@dataclass(frozen=True)
class CheckConfig:
    """The validated ``[check]`` section of the configuration file."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    allowlist: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    patterns: tuple[Rule, ...] = ()
    profile: str = "default"

    @classmethod
    def from_section(cls, section: Mapping[str, Any], where: str = "[check]") -> CheckConfig:
        """Validate a ``[check]`` table; any mistake raises ConfigError naming the key."""
        section = validate_section(section, KEYS, where)

        def str_list(key: str) -> tuple[str, ...]:
            value = section.get(key, [])
            return (value,) if isinstance(value, str) else tuple(value)

        severity_table = section.get("severity", {})
        severity: dict[str, Severity] = {}
        for key, level in severity_table.items():
            try:
                severity[key] = Severity(level)
            except ValueError:
                raise ConfigError(
                    f"{where}.severity: {key!r} must be error, warning or info, not {level!r}"
                ) from None
            _check_rule_name(key, where + ".severity")

        raw_patterns = section.get("patterns", [])
        patterns: list[Rule] = []
        for i, table in enumerate(raw_patterns):
            rule_id = table.get("id")
            here = f"{where}.patterns[{i}]"
            if not isinstance(rule_id, str) or "/" not in rule_id:
                raise ConfigError(f"{here}: 'id' must be 'PACK/NAME'")
            pack = rule_id.split("/", 1)[0]
            if pack not in PACKS:
                raise ConfigError(f"{here}: unknown pack {pack!r} (packs: {', '.join(PACKS)})")
            patterns.append(pattern_rule_from_table(pack, table, here, user=True))
        return cls(
            select=str_list("select"),
            ignore=str_list("ignore") + str_list("disable"),
            allowlist=str_list("allowlist"),
            severity=severity,
            patterns=tuple(patterns),
            profile=str(section.get("profile", "default")),
        )

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> CheckConfig:
        """The ``[check]`` section of the given or discovered configuration file."""
        from ..config import load_config

        raw: RawConfig = load_config(None if path is None else Path(path))
        return cls.from_section(raw.section("check"), raw.where("check"))


def _check_rule_name(name: str, where: str) -> None:
    if name.split("/", 1)[0] not in PACKS:
        raise ConfigError(f"{where}: {name!r} names no pack or rule (packs: {', '.join(PACKS)})")


def as_config(config: CheckConfig | Mapping[str, Any] | None) -> CheckConfig:
    if config is None:
        return CheckConfig()
    if isinstance(config, CheckConfig):
        return config
    return CheckConfig.from_section(config)
