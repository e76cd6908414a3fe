"""Every payload × defect × wrapper an LLM produces, from tests/fixtures/parse/reply_shapes.json.

The wrappers (fences, prose, reasoning blocks, a second JSON after the answer) are data; the
defects are small text transforms of the serialised payload.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from typing import Any

import pytest

from genlint import parse_json
from parse.helpers import FIXTURES, same_json

SHAPES = json.loads((FIXTURES / "reply_shapes.json").read_text(encoding="utf-8"))

DEFECTS: dict[str, Callable[[str], str]] = {
    "none": lambda t: t,
    "trailing-comma": lambda t: t[:-1].rstrip() + ",\n" + t[-1],
    "single-quotes": lambda t: t.replace('"', "'"),
    "python-literals": lambda t: (
        t.replace("true", "True").replace("false", "False").replace("null", "None")
    ),
    "fullwidth-syntax": lambda t: t.replace('": ', '"：').replace(', "', '，"'),
}

CASES = [
    pytest.param(payload, defect, wrapper, indent, id=f"p{p}-{defect}-{wrapper}-indent{indent}")
    for (p, payload), defect, wrapper, indent in itertools.product(
        enumerate(SHAPES["payloads"]), DEFECTS, SHAPES["wrappers"], (None, 2)
    )
]


@pytest.mark.parametrize(("payload", "defect", "wrapper", "indent"), CASES)
def test_reply_shape(payload: Any, defect: str, wrapper: str, indent: int | None) -> None:
    body = DEFECTS[defect](json.dumps(payload, ensure_ascii=False, indent=indent))
    reply = SHAPES["wrappers"][wrapper].replace("{json}", body)
    result = parse_json(reply)
    assert result.ok, result.errors
    assert same_json(result.value, payload), (reply, result.value)
