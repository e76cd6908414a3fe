"""Finding and loading the configuration file.

``genlint.toml`` (its top level is genlint's table) or ``[tool.genlint]`` in ``pyproject.toml``,
found by walking up from the working directory; ``--config FILE`` overrides (see
docs/configuration.md). Every command validates its section (``[check]``, ``[eval]``,
``[match]``, ``[generate]``…) the same way: a table of :class:`Key` specs given to
:func:`validate_section`, so every configuration error reads alike
(``genlint.toml: [cite] 'style' must be a string, got a number``). Plain Python, not pydantic:
pydantic costs ~0.1 s to import, as much as the whole start of ``genlint check``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ._describe import json_kind
from .errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


#: the tables a configuration file may hold (docs/configuration.md); another name is a typo
#: (``[chek]``) that would otherwise leave its settings silently unused
TABLES: tuple[str, ...] = ("check", "parse", "cite", "eval", "match", "generate", "mask", "serve")
#: the deepest nesting of tables and arrays a configuration may have: genlint's own is 3 deep
MAX_DEPTH = 32
#: the largest configuration file read (a configuration is a few kilobytes)
MAX_BYTES = 4 * 1024 * 1024


@dataclass(frozen=True)
class RawConfig:
    """The genlint table of a configuration file, and where it came from."""

    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self.where(name)} must be a table, got {json_kind(value)}")
        return value

    def where(self, name: str) -> str:
        """How errors name the section: ``genlint.toml: [check]``."""
        return f"{self.path}: [{name}]" if self.path else f"[{name}]"

    def validated(self, name: str, keys: Mapping[str, Key]) -> dict[str, Any]:
        """The section ``name``, checked against ``keys`` (see :func:`validate_section`)."""
        return validate_section(self.section(name), keys, self.where(name))


def _is_str_list(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(v, str) for v in value)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


# kind -> (test, how the message names what is expected)
_KINDS: dict[str, tuple[Callable[[Any], bool], str]] = {
    "str": (lambda v: isinstance(v, str), "a string"),
    "bool": (lambda v: isinstance(v, bool), "true or false"),
    "int": (lambda v: isinstance(v, int) and not isinstance(v, bool), "a whole number"),
    "number": (_is_number, "a number"),
    "str_list": (_is_str_list, "a list of strings"),
    "str_or_list": (lambda v: isinstance(v, str) or _is_str_list(v), "a string or a list of strings"),
    "table": (lambda v: isinstance(v, dict), "a table"),
    "table_list": (
        lambda v: isinstance(v, list) and all(isinstance(t, dict) for t in v),
        "an array of tables",
    ),
}


@dataclass(frozen=True)
class Key:
    """One allowed key of a section: its kind (a key of ``_KINDS``) and, optionally, a check
    that returns why an otherwise well-typed value is wrong (``"must be between 0 and 1"``)."""

    kind: str
    check: Callable[[Any], str | None] | None = None


def validate_section(
    section: Mapping[str, Any], keys: Mapping[str, Key], where: str
) -> dict[str, Any]:
    """``section`` with every key known and every value of its kind, or ConfigError naming the
    section and the key. Returns only the keys present (defaults belong to the caller)."""
    unknown = sorted(set(section) - set(keys))
    if unknown:
        raise ConfigError(f"{where} unknown key {unknown[0]!r} (known: {', '.join(sorted(keys))})")
    for name, value in section.items():
        spec = keys[name]
        test, expected = _KINDS[spec.kind]
        if not test(value):
            raise ConfigError(f"{where} {name!r} must be {expected}, got {json_kind(value)}")
        if spec.check is not None:
            why = spec.check(value)
            if why:
                raise ConfigError(f"{where} {name!r} {why}")
    return dict(section)


def find_config(start: Path | None = None) -> Path | None:
    """The nearest genlint.toml, or pyproject.toml holding [tool.genlint], walking up."""
    here = (start or Path.cwd()).resolve()
    for folder in (here, *here.parents):
        candidate = folder / "genlint.toml"
        if candidate.is_file():
            return candidate
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                if "genlint" in read_toml(pyproject).get("tool", {}):
                    return pyproject
            except ConfigError:
                continue
    return None


def load_config(path: str | Path | None = None, start: Path | None = None) -> RawConfig:
    """Load the explicit ``path`` or the discovered file; no file gives an empty config."""
    if path is not None:
        p = Path(path)
        if not p.is_file():
            raise ConfigError(f"{p}: configuration file not found")
    else:
        found = find_config(start)
        if found is None:
            return RawConfig()
        p = found
    data = read_toml(p)
    if p.name == "pyproject.toml":
        data = data.get("tool", {}).get("genlint", {})
        if not isinstance(data, dict):
            raise ConfigError(f"{p}: [tool.genlint] must be a table")
    unknown = sorted(set(data) - set(TABLES))
    if unknown:
        raise ConfigError(
            f"{p}: unknown table [{unknown[0]}] (known: {', '.join(f'[{t}]' for t in TABLES)})"
        )
    return RawConfig(data=data, path=p)


def read_toml(path: Path) -> dict[str, Any]:
    """A TOML file as a dict; ConfigError names the file on a syntax error (also used for the
    rule data files, so every TOML genlint reads is read one way)."""
    try:
        with path.open("rb") as fh:
            raw = fh.read(MAX_BYTES + 1)
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from exc
    if len(raw) > MAX_BYTES:
        raise ConfigError(f"{path}: over {MAX_BYTES // (1024 * 1024)} MB; not a configuration file")
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); TOML is UTF-8") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    except RecursionError:
        raise ConfigError(f"{path}: nested too deeply (more than {MAX_DEPTH} levels)") from None
    if _depth(data) > MAX_DEPTH:
        raise ConfigError(f"{path}: nested too deeply (more than {MAX_DEPTH} levels)")
    return data


def _depth(value: Any) -> int:
    """Nesting depth of parsed TOML, without recursion."""
    deepest = 0
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, level = stack.pop()
        deepest = max(deepest, level)
        if level > MAX_DEPTH:
            break
        if isinstance(item, dict):
            stack.extend((v, level + 1) for v in item.values())
        elif isinstance(item, list):
            stack.extend((v, level + 1) for v in item)
    return deepest
