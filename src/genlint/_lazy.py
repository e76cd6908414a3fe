"""Lazy re-exports for package ``__init__`` modules (PEP 562): a name is imported from its
module on first access, so ``import genlint`` and the start-up path stay light (README "Fast
start"). One implementation for every package that re-exports."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(
    package: str,
    exports: Mapping[str, str],
    namespace: dict[str, Any],
    also: tuple[str, ...] = (),
) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``: ``exports`` maps a name to the module that
    defines it (absolute, or relative to ``package``); a loaded name is cached in
    ``namespace`` (the package's globals). ``__dir__`` lists the exports and ``also``."""
    names = sorted([*exports, *also])

    def __getattr__(name: str) -> Any:
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module, package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:
        return names

    return __getattr__, __dir__
