"""Step 4: named fields read by pattern when no JSON can be recovered (CozeLoop's last resort).

Reads ``Score: 5``, ``"score": "0.8"``, ``<score>5</score>``, ``**评分**：5``, ``score = -1``;
a numeric field takes a number with its sign, a text field a quoted string or the rest of the
line. When some fields were found and one text field was not, that field gets the whole reply:
an evaluator that wrote a score and a free-form explanation still yields a reason.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
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
_LITERALS = {"true": True, "false": False, "null": None, "none": None}
_BOOLEANS = {"true": True, "yes": True, "是": True, "false": False, "no": False, "否": False}


class FieldsNotFound(ValueError):
    """The reply does not hold the named fields; the message says which are missing."""


def extract_fields(
    text: str, names: Sequence[str], types: dict[str, str] | None = None
) -> tuple[dict[str, Any], list[str]]:
    """``({name: value}, notes)`` for every name, or FieldsNotFound."""
    types = types or {}
    thinking = reasoning_spans(text)
    keys = {name: _key_pattern(name) for name in names}
    # Every key occurrence, so a free-text value can stop where the next field begins.
    occurrences = sorted(
        (m.start(), m.end(), name)
        for name, pattern in keys.items()
        for m in pattern.finditer(text)
        if not any(a <= m.start() < b for a, b in thinking)
    )
    starts = [start for start, _, _ in occurrences]
    values: dict[str, Any] = {}
    for start, end, name in occurrences:
        if name in values:
            continue
        kind = _kind_of(name, types)
        next_key = next((s for s in starts if s > start), len(text))
        found, value = _read_value(text, end, next_key, kind)
        if found:
            values[name] = value
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


def _key_pattern(name: str) -> re.Pattern[str]:
    alternatives = []
    for alias in _aliases(name):
        escaped = re.escape(alias)
        # Word boundaries only for ASCII names: 最终评分 is one Chinese "word" yet holds 评分.
        ascii_name = alias.isascii()
        before = r"(?<![\w])" if ascii_name else ""
        after = r"(?![\w])" if ascii_name else ""
        alternatives.append(
            rf"<{escaped}>"  # <score>5</score>
            rf"|(?:\*\*|__)?[\"'“]?{before}{escaped}{after}[\"'”]?{_SEPARATOR}"
        )
    return re.compile("|".join(alternatives), re.IGNORECASE)


def _read_value(text: str, pos: int, limit: int, kind: str) -> tuple[bool, Any]:
    tag_value = text[pos - 1] == ">" if pos else False
    if tag_value:
        close = re.compile(r"</[^>]*>").search(text, pos)
        raw = text[pos : close.start() if close else limit].strip()
        return _typed(raw, kind, quoted=False)
    if kind in ("number", "integer"):
        match = re.compile(rf"[\"'“]?({_NUMBER})(?![\w.])").match(text, pos)
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
    raw = text[pos:end].strip().rstrip(",，;；").strip()
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
        match = re.compile(rf"[\"']?({_NUMBER})").match(raw)
        return (True, _number(match.group(1), kind)) if match else (False, None)
    if kind == "boolean":
        flag = _BOOLEANS.get(raw.strip("\"'").lower())
        return (flag is not None, flag)
    if not quoted and kind == "":
        lowered = raw.lower()
        if lowered in _LITERALS:
            return True, _LITERALS[lowered]
        if re.fullmatch(_NUMBER, raw):
            return True, _number(raw, "number")
    return True, raw


def _number(raw: str, kind: str) -> int | float:
    value = float(raw)
    if kind == "integer" or (re.fullmatch(r"[+-]?\d+", raw) and kind != "number"):
        return int(value) if value.is_integer() else value
    if re.fullmatch(r"[+-]?\d+", raw):
        return int(raw)
    return value
