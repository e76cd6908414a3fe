"""Identifiers to words: ``AuthService.checkPermission`` → auth, service, check, permission.

Also the tiny English stemmer that lets ``checks``/``checked``/``checking`` meet ``check``
(both sides are stemmed the same way, so the stems need not be real words).
"""

from __future__ import annotations

import re
from functools import lru_cache

_PARTS = re.compile(r"[A-Z]+(?=[A-Z][a-z])|[A-Z]?[a-z]+|[A-Z]+|[0-9]+")
_SEPARATORS = re.compile(r"[^A-Za-z0-9]+")

# Words too generic to say which fact a claim is about.
STOP_WORDS = frozenset(
    [
        "a",
        "an",
        "the",
        "of",
        "to",
        "is",
        "in",
        "on",
        "by",
        "and",
        "or",
        "not",
        "do",
        "get",
        "set",
        "new",
        "this",
        "that",
        "id",
        "impl",
        "null",
        "none",
        "true",
        "false",
    ]
)


@lru_cache(maxsize=8192)
def split_identifier(identifier: str) -> tuple[str, ...]:
    """camelCase, PascalCase, snake_case, dotted and annotation names → lowercase words."""
    words: list[str] = []
    for chunk in _SEPARATORS.split(identifier):
        words.extend(part.lower() for part in _PARTS.findall(chunk))
    return tuple(words)


@lru_cache(maxsize=16384)
def stem(word: str) -> str:
    """Strip one common English inflection; deliberately crude but symmetric."""
    w = word.lower()
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    for suffix in ("ing", "ed", "es", "s", "e"):
        if w.endswith(suffix) and len(w) - len(suffix) >= 3:
            if suffix == "s" and w.endswith("ss"):
                return w
            base = w[: -len(suffix)]
            # stopped → stop, dropping → drop
            if (
                suffix in ("ing", "ed")
                and len(base) > 3
                and base[-1] == base[-2]
                and base[-1] not in "ls"
            ):
                base = base[:-1]
            return base
    return w


def is_identifier(token: str) -> bool:
    """A code name rather than a plain English word (it names a fact, it is not wording)."""
    if token.startswith("@"):
        return True
    if any(c in token for c in "._$") or any(c.isdigit() for c in token):
        return True
    return any(c.isupper() for c in token[1:])
