"""Step 4: named fields read by pattern when no JSON can be recovered (CozeLoop's last resort).

Reads ``Score: 5``, ``"score": "0.8"``, ``<score>5</score>``, ``**评分**：5``, ``score = -1``;
a numeric field takes a number with its sign, a text field a quoted string or the rest of the
line. When some fields were found and one text field was not, that field gets the whole reply:
an evaluator that wrote a score and a free-form explanation still yields a reason.
"""

from __future__ import annotations

import heapq
import json
import re
from collections.abc import Iterator, Sequence
from typing import Any

from .candidates import reasoning_spans

# Names a judge model uses for the same field, in English and Chinese; looked up both ways.
SYNONYMS: tuple[frozenset[str], ...] = (
    frozenset({"score", "rating", "分数", "评分", "得分", "打分", "分值"}),
    frozenset(
        {"reason", "reasoning", "explanation", "rationale", "理由", "原因", "解释", "评分理由"}
    ),
    frozenset({"confidence", "置信度"}),
    frozenset({"label", "verdict", "标签", "结论", "判断"}),
    frozenset({"applicable", "适用"}),
)
NUMERIC_NAMES = frozenset(
    {
        "score",
        "rating",
        "grade",
        "points",
        "confidence",
        "probability",
        "分数",
        "评分",
        "得分",
        "打分",
        "分值",
        "置信度",
    }
)

_NUMBER = r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?"
_SEPARATOR = r"\s*(?:\*\*|__)?\s*[:：=]\s*(?:\*\*|__)?\s*"
_QUOTED = re.compile(r'"((?:[^"\\\n]|\\.)*)"|\'((?:[^\'\\\n]|\\.)*)\'|“([^”\n]*)”')
_SEPARATOR_AFTER_KEY = re.compile(rf"[\"'”]?{_SEPARATOR}")
_TRAILING_MARKUP = " \t\r\n*_#>•·-"
_CLOSING_TAG = re.compile(r"</[^>]*>")
_LEADING_NUMBER = re.compile(rf"[\"']?({_NUMBER})")
_WHOLE_NUMBER = re.compile(_NUMBER)
_INTEGER = re.compile(r"[+-]?\d+")
_QUOTED_NUMBER = re.compile(rf"[\"'“]?({_NUMBER})(?![0-9.]|[A-Za-z_])")
_LITERALS = {"true": True, "false": False, "null": None, "none": None}
_BOOLEANS = {"true": True, "yes": True, "是": True, "false": False, "no": False, "否": False}


# Bounds that keep a reply made of nothing but keys ("Score: Score: …") linear: the first
# occurrences of a key that hold a value are enough, and a free-text value longer than the
# window is cut there.
MAX_TRIES_PER_FIELD = 32
MAX_FINDS = 10_000
VALUE_WINDOW = 50_000


class FieldsNotFound(ValueError):
    """The reply does not hold the named fields; the message says which are missing."""


def extract_fields(
    text: str, names: Sequence[str], types: dict[str, str] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """``({name: value}, notes)`` for every name, or FieldsNotFound."""
    types = types or {}
    thinking = reasoning_spans(text)
    finder = _KeyFinder(text, names)
    values: dict[str, Any] = {}
    for name in names:
        kind = _kind_of(name, types)
        for tried, (start, end) in enumerate(finder.occurrences(name)):
            if tried >= MAX_TRIES_PER_FIELD:
                break
            if any(a <= start < b for a, b in thinking):
                continue
            found, value = _read_value(text, end, finder.next_key(end), kind)
            if found:
                values[name] = value
                break
    notes = [f"read field {name!r} by pattern" for name in names if name in values]
    missing = [name for name in names if name not in values]
    if not values:
        raise FieldsNotFound(f"no field {', '.join(map(repr, names))} found in the text")
    text_missing = [name for name in missing if _kind_of(name, types) in ("string", "")]
    if missing and (len(missing) > 1 or len(text_missing) != 1):
        raise FieldsNotFound(f"missing field {', '.join(map(repr, missing))}")
    if text_missing:
        values[text_missing[0]] = text
        notes.append(f"field {text_missing[0]!r} not found: took the whole reply")
    return {name: values[name] for name in names}, notes


def _kind_of(name: str, types: dict[str, str]) -> str:
    declared = types.get(name, "")
    if declared:
        return declared
    return "number" if name.lower() in NUMERIC_NAMES else ""


def _aliases(name: str) -> list[str]:
    lowered = name.lower()
    for group in SYNONYMS:
        if lowered in group:
            return [name, *sorted(group - {lowered}, key=len, reverse=True)]
    return [name]


class _KeyFinder:
    """Finds ``key:`` and ``<key>`` occurrences with str.find on a lower-cased copy.

    A case-insensitive regex over a megabyte takes ~0.2 s per field here; finding the literal
    names in C and checking the few characters around each hit takes milliseconds.
    """

    def __init__(self, text: str, names: Sequence[str]) -> None:
        self.text = text
        lowered = text.lower()
        # Lower-casing can change the length (İ -> i̇); offsets must stay those of the text.
        self.lowered = lowered if len(lowered) == len(text) else text
        self.aliases = {
            name: sorted({a.lower() for a in _aliases(name)}, key=len, reverse=True)
            for name in names
        }

    def occurrences(self, name: str) -> Iterator[tuple[int, int]]:
        """``(start, value_start)`` of each occurrence of the field's key, in text order."""
        streams = [self._hits(alias) for alias in self.aliases[name]]
        return heapq.merge(*streams)

    def next_key(self, pos: int) -> int:
        """Where the next key of any field starts after ``pos`` (a free-text value ends there)."""
        end = min(len(self.text), pos + VALUE_WINDOW)
        best = end
        for aliases in self.aliases.values():
            for alias in aliases:
                hit = next(self._hits(alias, pos, best), None)
                if hit is not None:
                    best = min(best, hit[0])
        return best

    def _hits(self, alias: str, pos: int = 0, end: int | None = None) -> Iterator[tuple[int, int]]:
        text, lowered = self.text, self.lowered
        stop = len(text) if end is None else end
        ascii_alias = alias.isascii()
        for _ in range(MAX_FINDS):
            found = lowered.find(alias, pos, stop)
            if found < 0:
                return
            pos = found + 1
            after = found + len(alias)
            if found and text[found - 1] == "<" and text.startswith(">", after):
                yield found - 1, after + 1
                continue
            # Word boundaries only for ASCII names: 最终评分 is one Chinese "word" yet holds 评分.
            if ascii_alias and (
                (found and _is_word(text[found - 1]))
                or (after < len(text) and _is_word(text[after]))
            ):
                continue
            separator = _SEPARATOR_AFTER_KEY.match(text, after)
            if separator:
                yield found, separator.end()


def _is_word(char: str) -> bool:
    return char.isalnum() or char == "_"


def _read_value(text: str, pos: int, limit: int, kind: str) -> tuple[bool, Any]:
    tag_value = text[pos - 1] == ">" if pos else False
    if tag_value:
        close = _CLOSING_TAG.search(text, pos, limit)
        raw = text[pos : close.start() if close else limit].strip()
        return _typed(raw, kind, quoted=False)
    if kind in ("number", "integer"):
        match = _QUOTED_NUMBER.match(text, pos)
        if not match:
            return False, None
        return True, _number(match.group(1), kind)
    quoted = _QUOTED.match(text, pos)
    if quoted:
        if quoted.group(1) is not None:
            try:
                return True, json.loads(f'"{quoted.group(1)}"')
            except ValueError:
                return True, quoted.group(1)
        return True, quoted.group(2) if quoted.group(2) is not None else quoted.group(3)
    end = _end_of_free_text(text, pos, limit)
    # The markup that introduces the next field ("\n**", "\n- ") is not part of this value.
    raw = text[pos:end].rstrip(_TRAILING_MARKUP).rstrip(",，;；").strip()
    if not raw:
        return False, None
    return _typed(raw, kind, quoted=False)


def _end_of_free_text(text: str, pos: int, limit: int) -> int:
    """A free-text value ends at the next field, a blank line, or a closing brace."""
    blank = text.find("\n\n", pos, limit)
    end = blank if blank >= 0 else limit
    brace = text.find("}", pos, end)
    return brace if brace >= 0 else end


def _typed(raw: str, kind: str, *, quoted: bool) -> tuple[bool, Any]:
    if kind in ("number", "integer"):
        match = _LEADING_NUMBER.match(raw)
        return (True, _number(match.group(1), kind)) if match else (False, None)
    if kind == "boolean":
        flag = _BOOLEANS.get(raw.strip("\"'").lower())
        return (flag is not None, flag)
    if not quoted and kind == "":
        lowered = raw.lower()
        if lowered in _LITERALS:
            return True, _LITERALS[lowered]
        if _WHOLE_NUMBER.fullmatch(raw):
            return True, _number(raw, "number")
    return True, raw


def _number(raw: str, kind: str) -> int | float:
    """``"4"`` -> 4, ``"+0.8"`` -> 0.8, ``"4.0"`` -> 4 for an integer field."""
    if _INTEGER.fullmatch(raw):
        return int(raw)
    value = float(raw)
    if kind == "integer" and value.is_integer():
        return int(value)
    return value
