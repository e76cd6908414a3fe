"""The ``[check]`` table of the configuration file, validated (docs/configuration.md)."""

from __future__ import annotations

import os
import re
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


# what a document is, for the rules that read it differently (docs/commands/check.md "Review in Word and
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
    "show_values": Key("bool"),
    # the language of messages and fixes in human reports and review copies (--lang)
    "lang": Key("str", lambda v: None if v in ("zh", "en") else "must be zh or en"),
    "exclude": Key("str_or_list", _no_empty),
    "per-file-ignores": Key("table"),
    "profile": Key("str", _known_profile),
    # the --baseline of every run that reads this file (pre-commit, CI), relative to its folder
    "baseline": Key("str", _no_empty),
}


@dataclass(frozen=True)
class CheckConfig:
    """The validated ``[check]`` section of the configuration file."""

    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    allowlist: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    patterns: tuple[Rule, ...] = ()
    # reports show personal values as found; off: keep-ends masked (docs/commands/check.md)
    show_values: bool = False
    # zh or en; None: each document's own language
    lang: str | None = None
    # globs of files never checked, and glob -> rules ignored in the files it matches; both
    # relative to ``root`` (the configuration file's folder) (genlint.check.suppress)
    exclude: tuple[str, ...] = ()
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    root: str | None = None
    profile: str = "default"
    # a baseline file as written in [check] (relative to ``root``): :attr:`baseline_file`
    baseline: str | None = None

    @property
    def baseline_file(self) -> str | None:
        """The ``baseline`` key as a path from the working directory (None when unset)."""
        if self.baseline is None:
            return None
        return os.path.join(self.root or ".", os.path.expanduser(self.baseline))
    # False (--no-inline-ignores): directives written in the checked documents silence nothing
    # (docs/configuration.md "Silencing findings")
    inline_ignores: bool = True
    # the configuration file read, for the report; None: defaults (none found, or --isolated)
    source: str | None = None

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
        seen: dict[str, str] = {}
        for i, table in enumerate(raw_patterns):
            rule_id = table.get("id")
            here = f"{where}.patterns[{i}]"
            if not isinstance(rule_id, str) or "/" not in rule_id:
                raise ConfigError(f"{here}: 'id' must be 'PACK/NAME'")
            pack = rule_id.split("/", 1)[0]
            if pack not in PACKS:
                raise ConfigError(f"{here}: unknown pack {pack!r} (packs: {', '.join(PACKS)})")
            for key in ("pattern", "trigger"):
                for source in _strings(table.get(key)):
                    bound_pattern(source, f"{here}: '{key}'")
            rule = pattern_rule_from_table(pack, table, here, user=True)
            if rule.id in seen:
                raise ConfigError(f"{here}: id {rule.id!r} is already {seen[rule.id]}")
            if rule.id in _builtin_ids(pack):
                raise ConfigError(
                    f"{here}: id {rule.id!r} is a built-in rule; give the pattern its own name"
                )
            seen[rule.id] = f"{where}.patterns[{i}]'s"
            patterns.append(rule)
        per_file: dict[str, tuple[str, ...]] = {}
        for glob, rules in section.get("per-file-ignores", {}).items():
            here = f"{where}.per-file-ignores"
            names = [rules] if isinstance(rules, str) else rules
            if not isinstance(names, list) or not all(isinstance(n, str) and n for n in names):
                raise ConfigError(f"{here}: {glob!r} must be a rule or a list of rules")
            for name in names:
                _check_rule_name(name, here)
            per_file[glob] = tuple(names)
        return cls(
            select=str_list("select"),
            ignore=str_list("ignore") + str_list("disable"),
            allowlist=str_list("allowlist"),
            severity=severity,
            patterns=tuple(patterns),
            show_values=section.get("show_values", False),
            lang=section.get("lang"),
            exclude=str_list("exclude"),
            per_file_ignores=per_file,
            profile=str(section.get("profile", "default")),
            baseline=section.get("baseline"),
        )

    @classmethod
    def load(
        cls, path: str | os.PathLike[str] | None = None, *, isolated: bool = False
    ) -> CheckConfig:
        """The ``[check]`` section of the given or discovered configuration file;
        ``isolated``: none is read (the defaults), so a checked repository's own
        genlint.toml cannot exclude itself (docs/configuration.md)."""
        from dataclasses import replace

        from ..config import load_config

        if isolated:
            return cls()
        raw: RawConfig = load_config(None if path is None else Path(path))
        config = cls.from_section(raw.section("check"), raw.where("check"))
        if raw.path is not None:
            config = replace(config, root=str(raw.path.resolve().parent), source=str(raw.path))
        return config


#: the largest repetition count a user pattern may write (``a{1000}``); ``a{1000000000}`` made the
#: trigger prefilter expand it into gigabytes before any text was read
MAX_REPEAT = 1000
#: the most characters one match of a user pattern may be built from once its counted
#: repetitions are multiplied out (``(a{1000}){1000}`` is a million)
MAX_EXPANDED = 100_000
#: the longest user pattern, in characters
MAX_PATTERN_CHARS = 10_000
_COUNT = re.compile(r"(?<!\\)\{\s*(\d*)\s*(?:,\s*(\d*)\s*)?\}")


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [v for v in value if isinstance(v, str)]
    return []


def bound_pattern(pattern: str, where: str) -> None:
    """Refuse (ConfigError) a user pattern whose size is not bounded: too long, a repetition
    count over :data:`MAX_REPEAT`, or nested counts that multiply past :data:`MAX_EXPANDED`.
    Checked on the pattern's text, before anything is compiled or derived from it."""
    if len(pattern) > MAX_PATTERN_CHARS:
        raise ConfigError(f"{where} is {len(pattern):,} characters (at most {MAX_PATTERN_CHARS:,})")
    for m in _COUNT.finditer(pattern):
        for count in m.groups():
            if count and (len(count) > 6 or int(count) > MAX_REPEAT):
                raise ConfigError(
                    f"{where}: repetition count {{{count[:12]}}} is over {MAX_REPEAT} "
                    "(a pattern that size would be compiled into gigabytes)"
                )
    size = _expanded_size(pattern)
    if size > MAX_EXPANDED:
        raise ConfigError(
            f"{where}: nested repetition counts multiply to over {MAX_EXPANDED:,} characters "
            "per match; simplify the pattern"
        )


def _expanded_size(pattern: str) -> int:
    """Characters one match spans at most, counted repeats multiplied out (an unbounded one
    counts its minimum); 0 for syntax only the ``regex`` module reads (the counts were bounded
    one by one already)."""
    from re import _parser  # type: ignore[attr-defined]

    try:
        parsed = _parser.parse(pattern, 0)
    except Exception:  # re.error, or an overflow on a huge count
        return 0
    repeats = {"MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"}

    def size(items: Any, depth: int = 0) -> int:
        if depth > 100:
            return MAX_EXPANDED + 1
        total = 0
        for op, av in items:
            name = str(op)
            if name in repeats:
                lo, hi, sub = av
                factor = hi if hi != _parser.MAXREPEAT else lo
                total += max(1, factor) * size(sub, depth + 1)
            elif name in ("SUBPATTERN", "ATOMIC_GROUP", "ASSERT", "ASSERT_NOT"):
                total += size(av[-1], depth + 1)
            elif name == "BRANCH":
                total += max((size(b, depth + 1) for b in av[1]), default=0)
            else:
                total += 1
            if total > MAX_EXPANDED:
                return total
        return total

    return size(parsed)


def _builtin_ids(pack: str) -> set[str]:
    from .rules import load_pack

    return {rule.id for rule in load_pack(pack)}


def _check_rule_name(name: str, where: str) -> None:
    if name.split("/", 1)[0] not in PACKS:
        raise ConfigError(f"{where}: {name!r} names no pack or rule (packs: {', '.join(PACKS)})")


def as_config(config: CheckConfig | Mapping[str, Any] | None) -> CheckConfig:
    if config is None:
        return CheckConfig()
    if isinstance(config, CheckConfig):
        return config
    return CheckConfig.from_section(config)
