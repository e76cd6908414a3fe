"""Test helpers of the gate tests: a small placeholder check and scripted replies from JSON."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import regex

from genlint.findings import Finding
from genlint.llm.testing import Reply

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "generate"

# Enough of the placeholder labelling rule to script scenarios without depending on the check
# engine's progress: 某某, X年/X月/X日, TBD.
_PLACEHOLDER = regex.compile(r"某某|X[年月日]|TBD")
_RULE = {"某某": "placeholder/mou", "TBD": "placeholder/tbd"}


def placeholder_check(text: str) -> list[Finding]:
    out = []
    for m in _PLACEHOLDER.finditer(text):
        line = text.count("\n", 0, m.start()) + 1
        column = m.start() - (text.rfind("\n", 0, m.start()) + 1) + 1
        out.append(
            Finding(
                _RULE.get(m.group(), "placeholder/x-date"),
                f"unfilled placeholder '{m.group()}'",
                m.group(),
                m.start(),
                m.end(),
                line,
                column,
            )
        )
    return out


def load(name: str) -> Any:
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


def replies(specs: list[dict[str, Any]]) -> list[Reply]:
    return [Reply(**spec) for spec in specs]
