"""Exceptions raised by genlint.

    GenlintError                 every error genlint raises on purpose; the CLI prints it as
    │                            ``genlint: error: …`` and exits 2
    ├── InputError               a file or value given by the user cannot be used
    │   └── SchemaError          input JSON does not have the documented shape (names the path)
    ├── ConfigError              genlint.toml / [tool.genlint] is invalid
    ├── UnknownRuleError         --select/--ignore names no pack or rule
    └── MissingExtraError        an optional dependency is not installed (names the extra)
"""

from __future__ import annotations

from types import ModuleType


class GenlintError(Exception):
    """Base class: a known failure that the CLI reports in one line with exit code 2."""


class InputError(GenlintError):
    """A path, file or value supplied by the user cannot be used."""


class SchemaError(InputError):
    """Input JSON does not match the documented shape; the message names the JSON path."""


class ConfigError(GenlintError):
    """The configuration file is invalid."""


class UnknownRuleError(GenlintError):
    """A rule or pack id that no registered pack provides."""


class MissingExtraError(GenlintError):
    """An optional dependency is missing; the message says which extra installs it."""

    def __init__(self, module: str, extra: str) -> None:
        super().__init__(
            f"this feature needs the '{module}' package: pip install 'genlint[{extra}]'"
        )
        self.module = module
        self.extra = extra


def require(module: str, extra: str) -> ModuleType:
    """Import an optional dependency, or raise MissingExtraError naming the extra."""
    import importlib

    try:
        return importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(module.split(".")[0], extra) from exc


def failure_line(path: str, exc: BaseException) -> str:
    """The error line of one file whose reading or processing failed unexpectedly (a bug, a
    resource limit): the kind of failure and where it happened, never the exception's text (it
    may quote the file's personal data). The file is lost, never the run."""
    import os
    import traceback

    frames = traceback.extract_tb(exc.__traceback__)
    where = f" at {os.path.basename(frames[-1].filename)}:{frames[-1].lineno}" if frames else ""
    return f"{path}: could not be processed ({type(exc).__name__}{where}); the other files were"
