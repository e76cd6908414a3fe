"""Regular expressions compiled on first use.

``genlint check small.txt`` must start in about 0.1 s, and compiling every rule's patterns at
import took longer than the rest of the start-up: most rules never run on a small text (their
trigger is absent), so their patterns need never be compiled. :func:`compile` returns a
stand-in with the ``re.Pattern`` methods the rules use; ``pattern`` and ``flags`` are known
without compiling (the engine keys its caches on them).
"""

from __future__ import annotations

import re
from typing import Any, cast

__all__ = ["compile", "compiled"]


class LazyPattern:
    __slots__ = ("_compiled", "flags", "pattern")

    def __init__(self, pattern: str, flags: int = 0) -> None:
        self.pattern = pattern
        self.flags = flags
        self._compiled: re.Pattern[str] | None = None

    def _get(self) -> re.Pattern[str]:
        compiled = self._compiled
        if compiled is None:
            compiled = self._compiled = re.compile(self.pattern, self.flags)
        return compiled

    # the methods rules call in their loops, delegated without a __getattr__ round trip
    def search(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self._get()).search(*args)

    def match(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self._get()).match(*args)

    def fullmatch(self, *args: Any) -> re.Match[str] | None:
        return (self._compiled or self._get()).fullmatch(*args)

    def finditer(self, *args: Any) -> Any:
        return (self._compiled or self._get()).finditer(*args)

    def findall(self, *args: Any) -> list[Any]:
        return (self._compiled or self._get()).findall(*args)

    def sub(self, *args: Any) -> str:
        return (self._compiled or self._get()).sub(*args)

    def subn(self, *args: Any) -> tuple[str, int]:
        return (self._compiled or self._get()).subn(*args)

    def split(self, *args: Any) -> list[Any]:
        return (self._compiled or self._get()).split(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._get(), name)

    def __repr__(self) -> str:
        return f"lazy_re.compile({self.pattern!r})"


def compiled(pattern: re.Pattern[str]) -> re.Pattern[str]:
    """The compiled pattern behind a stand-in (compiling it now), for a loop that calls one of
    its methods many times: each call through the stand-in costs a Python-level call more."""
    lazy: Any = pattern
    return lazy._get() if type(lazy) is LazyPattern else pattern


def compile(pattern: str, flags: int = 0) -> re.Pattern[str]:
    """A pattern compiled when first used (typed as ``re.Pattern`` for its callers)."""
    return cast("re.Pattern[str]", LazyPattern(pattern, flags))
