"""Strings exactly as RFC 8259 says, also through json-repair.

json-repair decodes string escapes its own way: it drops a ``\\n`` at the end of a string, keeps
``\\f`` and ``\\/`` as two characters, and leaves escaped surrogate pairs as two lone surrogates.
So before it sees the text, every well-formed string token that holds an escape is swapped for a
short stand-in, and after it the stand-ins are replaced by the tokens decoded by the standard
library (pairs joined, a lone surrogate kept only where the input has one). A token counts only
where a JSON string can stand (after ``{ [ , :`` and before ``: , ] }``), so a quote the model
forgot to escape does not make the swap cut a string in two; such strings stay json-repair's.
"""

from __future__ import annotations

import json
import re
from typing import Any

# A string token with at least one escape, every escape valid, no raw control character.
_ESCAPED_STRING = re.compile(
    r'(?<=[{\[,:])(\s*)("(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*'
    r'\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4})(?:[^"\\\x00-\x1f]|\\["\\/bfnrt]|\\u[0-9a-fA-F]{4})*")'
    r"(?=\s*(?:[:,\]}]|\Z))"
)
_OPEN, _CLOSE = "\ue000", "\ue001"
_STAND_IN = re.compile(f"{_OPEN}([0-9]+){_CLOSE}")


def protect(text: str) -> tuple[str, list[str]]:
    """``text`` with escaped string tokens swapped for stand-ins, and the decoded originals."""
    if "\\" not in text or _OPEN in text:
        return text, []
    originals: list[str] = []

    def swap(match: re.Match[str]) -> str:
        originals.append(json.loads(match.group(2)))
        return f'{match.group(1)}"{_OPEN}{len(originals) - 1}{_CLOSE}"'

    return _ESCAPED_STRING.sub(swap, text), originals


def restore(value: Any, originals: list[str]) -> Any:
    """``value`` with every stand-in (as a whole string or inside one) replaced by its original."""
    if not originals:
        return value

    def put_back(text: str) -> str:
        if _OPEN not in text:
            return text
        return _STAND_IN.sub(lambda m: originals[int(m.group(1))], text)

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            return put_back(node)
        if isinstance(node, dict):
            return {put_back(k) if isinstance(k, str) else k: walk(v) for k, v in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    return walk(value)
