"""Shared helpers of the parse tests: fixture paths and exact JSON comparison."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import orjson

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "parse"
# Vendored with its origin and licences in tests/data/README.md; GENLINT_PEER_CASES points
# elsewhere.
PEER_CASES = Path(
    os.environ.get(
        "GENLINT_PEER_CASES",
        Path(__file__).resolve().parents[1] / "data" / "json_peer_cases.jsonl",
    )
)


def same_json(a: Any, b: Any) -> bool:
    """Exact equality as JSON: 1 != 1.0 != True, key order ignored."""
    opt = orjson.OPT_SORT_KEYS
    try:
        return orjson.dumps(a, option=opt) == orjson.dumps(b, option=opt)
    except TypeError:  # integers beyond 64 bits: the stdlib writes them exactly
        return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def load_jsonl(path: Path) -> list[dict[str, Any]]:
    with path.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]
