from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

FIXTURES = Path(__file__).parents[1] / "fixtures" / "match"


@pytest.fixture
def criteria() -> list[dict[str, Any]]:
    data: list[dict[str, Any]] = json.loads((FIXTURES / "criteria.json").read_text("utf-8"))
    return data
