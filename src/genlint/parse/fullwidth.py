"""Full-width punctuation used as JSON syntax: ｛“score”：5，“reason”：“好”｝.

Chinese input methods produce “ ” ： ， ｛ ｝ ［ ］ where JSON needs ASCII. They are rewritten
only outside ASCII-quoted strings, so a reason that says "好，但是：" keeps its punctuation.
"""

from __future__ import annotations

import re

_SYNTAX = {"：": ":", "，": ",", "｛": "{", "｝": "}", "［": "[", "］": "]"}

# A full-width closing quote ends a string only where JSON syntax follows it, so quoted words
# inside a value (“使用了“麦肯锡”等词”) stay part of the value.
_FOLLOWED_BY_SYNTAX = r"\s*(?:[:,}\]：，｝］]|\Z)"
_TOKENS = re.compile(
    r'"[^"\\]*(?:\\.[^"\\]*)*"'  # an ASCII string: left alone
    r"|“((?:[^”]|”(?!" + _FOLLOWED_BY_SYNTAX + r"))*)”(?=" + _FOLLOWED_BY_SYNTAX + r")"
    r"|[：，｛｝［］]",
    re.DOTALL,
)
_ANY = re.compile(r"[“”：，｛｝［］]")


def has_fullwidth(text: str) -> bool:
    return _ANY.search(text) is not None


def normalise(text: str) -> tuple[str, int]:
    """``(text with full-width syntax made ASCII, number of marks changed)``."""
    if not has_fullwidth(text):
        return text, 0
    changed = 0

    def replace(match: re.Match[str]) -> str:
        nonlocal changed
        token = match.group(0)
        if token[0] == '"':
            return token
        changed += 1 if token[0] != "“" else 2
        if token[0] == "“":
            inner = match.group(1).replace("\\", "\\\\").replace('"', '\\"')
            return f'"{inner}"'
        return _SYNTAX[token]

    return _TOKENS.sub(replace, text), changed
