"""Finding and loading the configuration file.

``genlint.toml`` (its top level is genlint's table) or ``[tool.genlint]`` in ``pyproject.toml``,
found by walking up from the working directory; ``--config FILE`` overrides. Each command
validates its own section (``[check]``, ``[eval]``, ``[match]``, ``[generate]``…) with its own
model; this module only locates and reads the file.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import ConfigError

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - exercised on 3.10 only
    import tomli as tomllib


@dataclass(frozen=True)
class RawConfig:
    """The genlint table of a configuration file, and where it came from."""

    data: dict[str, Any] = field(default_factory=dict)
    path: Path | None = None

    def section(self, name: str) -> dict[str, Any]:
        value = self.data.get(name, {})
        if not isinstance(value, dict):
            raise ConfigError(f"{self.path}: [{name}] must be a table")
        return value


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
                if "genlint" in _read_toml(pyproject).get("tool", {}):
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
    data = _read_toml(p)
    if p.name == "pyproject.toml":
        data = data.get("tool", {}).get("genlint", {})
        if not isinstance(data, dict):
            raise ConfigError(f"{p}: [tool.genlint] must be a table")
    return RawConfig(data=data, path=p)


def _read_toml(path: Path) -> dict[str, Any]:
    try:
        with path.open("rb") as fh:
            return tomllib.load(fh)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from exc
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read ({exc.strerror or exc})") from exc
