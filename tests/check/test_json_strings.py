"""The string values of a JSON file, as ``check`` reads them: every value (never a key), in
document order, with its JSON pointer and where its body lies in the text."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.readers.json_strings import string_values

_TEXT = st.text(alphabet=st.characters(codec="utf-8"), max_size=8)  # escapes, CJK, emoji, \x00
_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4),
    max_leaves=20,
)


def _pointer(token: str | int) -> str:
    return str(token).replace("~", "~0").replace("/", "~1")


def _expected(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _expected(item, f"{path}/{i}")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _expected(item, f"{path}/{_pointer(key)}")


@settings(max_examples=300, deadline=None)
@given(value=_JSON, ascii_only=st.booleans(), indent=st.sampled_from([None, 2]))
def test_every_string_value_with_its_pointer_and_span(
    value: Any, ascii_only: bool, indent: int | None
) -> None:
    raw = json.dumps(value, ensure_ascii=ascii_only, indent=indent)
    got = list(string_values(raw))
    assert [(pointer, text) for pointer, text, _, _ in got] == list(_expected(value))
    for _, text, start, end in got:
        assert raw[start - 1] == raw[end] == '"'
        assert json.loads(raw[start - 1 : end + 1]) == text
