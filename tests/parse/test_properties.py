"""Properties: the funnel never raises on a string, and valid JSON comes back unchanged."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from genlint import parse_json
from genlint.parse.fullwidth import normalise
from parse.helpers import same_json

JSON_VALUES = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda children: (
        st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5)
    ),
    max_leaves=25,
)
# Text built from the characters the funnel reacts to, so the steps past direct are exercised.
REPLY_ALPHABET = st.sampled_from(
    list("{}[]\",:'\\` \n0123456789.-+eE")
    + list("“”：，｛｝［］")
    + [
        "```",
        "```json\n",
        "<think>",
        "</think>",
        "true",
        "None",
        "score",
        "Score: ",
        "reason",
        "理由：",
        "...",
        "undefined",
        "//",
        "/*",
        "*/",
        "<score>",
        "</score>",
        "**",
        "a",
        "好",
    ]
)
REPLIES = st.lists(REPLY_ALPHABET, max_size=40).map("".join)
SCHEMA = {"type": "object", "properties": {"score": {"type": "number"}}, "required": ["score"]}


class Verdict(BaseModel):
    score: int
    reason: str


@settings(max_examples=300, deadline=None)
@given(st.text() | REPLIES)
def test_never_raises_on_any_string(text: str) -> None:
    for kwargs in (
        {},
        {"fields": ["score", "reason"]},
        {"schema": SCHEMA},
        {"schema": {}},
        {"schema": Verdict},
    ):
        result = parse_json(text, **kwargs)  # type: ignore[arg-type]
        assert result.ok == (result.strategy != "none")
        if not result.ok:
            assert result.value is None and len(result.errors) == 4


@settings(max_examples=300, deadline=None)
@given(JSON_VALUES)
def test_any_json_document_comes_back_directly(value: Any) -> None:
    for text in (json.dumps(value), json.dumps(value, ensure_ascii=False, indent=1)):
        result = parse_json(text)
        assert result.strategy == "direct" and result.ok
        assert same_json(result.value, value)
        assert result.errors == [] and result.repairs == []


@settings(max_examples=200, deadline=None)
@given(JSON_VALUES)
def test_fullwidth_normalising_keeps_valid_json(value: Any) -> None:
    # Full-width marks inside strings are content, never syntax.
    text = json.dumps(value, ensure_ascii=False)
    assert same_json(json.loads(normalise(text)[0]), value)


@settings(max_examples=150, deadline=None)
@given(
    st.dictionaries(
        st.text(max_size=6), st.integers() | st.text(max_size=6), min_size=1, max_size=4
    ),
    st.booleans(),
)
def test_fullwidth_syntax_reads_like_ascii_syntax(value: dict[str, Any], wide_quotes: bool) -> None:
    def string(s: str) -> str:
        plain = json.dumps(s, ensure_ascii=False)
        # “…” delimit a string only when its content has no quote marks of its own.
        if wide_quotes and not any(ch in s for ch in '"“”\\') and s.isprintable():
            return f"“{s}”"
        return plain

    def scalar(v: Any) -> str:
        return string(v) if isinstance(v, str) else json.dumps(v)

    wide = "｛" + "，".join(f"{string(k)}：{scalar(v)}" for k, v in value.items()) + "｝"
    result = parse_json(wide)
    assert same_json(result.value, value), (wide, result.errors)


@settings(max_examples=200, deadline=None)
@given(
    st.dictionaries(st.text(max_size=5), JSON_VALUES, min_size=1, max_size=4),
    st.floats(min_value=0.05, max_value=0.99),
)
def test_a_truncated_object_is_still_an_object(value: dict[str, Any], fraction: float) -> None:
    # A reply cut off by the token limit: whatever survives, it keeps the object's shape.
    text = json.dumps(value, ensure_ascii=False)
    cut = text[: max(1, int(len(text) * fraction))]
    result = parse_json(cut)
    assert result.ok and isinstance(result.value, dict), (cut, result.errors)
