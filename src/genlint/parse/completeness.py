"""How much of what a text evidently holds a parsed value kept.

A repair or an extraction can succeed and still lose data: a fragment taken from the middle
of a broken 600-record array is valid JSON. The text's scalar tokens (strings, numbers,
literals) are counted with one regular-expression pass and compared with the keys and scalars
of the value; a value that keeps far fewer is reported in ``repairs`` (never a silent success),
and among candidate repairs the one that keeps the most structure wins.
"""

from __future__ import annotations

import re
from typing import Any

# A string cut off by the end of the text is one value: its digits and escapes are not numbers.
_SCALAR = re.compile(
    r'"(?:[^"\\]|\\.)*(?:"|\\?\Z)|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|\b(?:true|false|null)\b',
    re.DOTALL,
)
# A value keeping fewer than this share of the text's scalars (and at least _MIN_LOST fewer)
# has lost data, not just dropped an incomplete last element or a stray token.
_KEPT_SHARE = 0.8
_MIN_LOST = 3


def evident_scalars(text: str) -> int:
    return len(_SCALAR.findall(text))  # findall's list is faster than counting an iterator


def size(value: Any, *, nulls: bool = False) -> tuple[int, int]:
    """(keys and scalars, containers) of a value, without recursion (any depth).

    Unless ``nulls``, a null and the key holding it count for nothing: a repair that gives a
    cut-off key the value null has not kept more of the text than one that drops the key."""
    scalars = containers = 0
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            containers += 1
            scalars += len(node) if nulls else sum(1 for v in node.values() if v is not None)
            stack.extend(node.values())
        elif isinstance(node, list):
            containers += 1
            stack.extend(node)
        elif nulls or node is not None:
            scalars += 1
    return scalars, containers


def loss_note(text: str, value: Any) -> str | None:
    """A repair note when ``value`` evidently lost part of ``text``, else None."""
    evident = evident_scalars(text)
    kept = size(value, nulls=True)[0]
    if kept < evident * _KEPT_SHARE and evident - kept >= _MIN_LOST:
        return (
            f"lost data: the value keeps {kept} of the {evident} keys and values the text holds"
        )
    return None
