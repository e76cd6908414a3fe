"""The shortcuts taken for the common spellings give what the general paths give."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from genlint.cite.markers import parse_any_body, parse_body


@settings(max_examples=500, deadline=None)
@given(st.text(alphabet="0123456789, ", max_size=30))
def test_plain_marker_body_parses_as_any_body(inner: str) -> None:
    body = f"[{inner}]"
    assert parse_body(body) == parse_any_body(body)
