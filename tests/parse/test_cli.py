"""``genlint parse`` end to end: exit codes, the two output formats, one-line errors."""

from __future__ import annotations

import hashlib
import io
import json
import sys
from collections.abc import Callable
from typing import Any

import pytest

from parse.helpers import FIXTURES

CLI_DIR = FIXTURES / "cli"
CASES: list[dict[str, Any]] = json.loads((FIXTURES / "cli_cases.json").read_text("utf-8"))


def _digest() -> dict[str, str]:
    return {p.name: hashlib.sha256(p.read_bytes()).hexdigest() for p in CLI_DIR.iterdir()}


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_cli_case(case: dict[str, Any], run_cli: Callable[..., Any]) -> None:
    before = _digest()
    result = run_cli("parse", *(a.replace("{dir}", str(CLI_DIR)) for a in case["args"]))
    assert result.code == case["code"], result.err
    assert _digest() == before  # input files are never modified
    if "stdout" in case:
        assert result.out == case["stdout"]
    if "stdout_json" in case:
        document = json.loads(result.out)  # exactly one JSON document
        expected = case["stdout_json"]
        if isinstance(expected, dict) and "ok" in expected:
            assert {k: document[k] for k in expected} == expected
            assert set(document) == {"ok", "strategy", "value", "errors", "repairs"}
        else:
            assert document == expected
    if "stdout_contains" in case:
        assert case["stdout_contains"] in result.out  # CJK is written as is, not \\u-escaped
    if "errors_steps" in case:
        steps = [line.split(":", 1)[0] for line in json.loads(result.out)["errors"]]
        assert steps == case["errors_steps"]
    if "stderr_contains" in case:
        assert case["stderr_contains"] in result.err
    if "stderr_error" in case:
        lines = result.err.splitlines()
        assert len(lines) == 1 and lines[0].startswith("genlint: error: "), result.err
        assert case["stderr_error"] in lines[0]
        assert "Traceback" not in result.err


@pytest.mark.parametrize("arg", [[], ["-"]], ids=["no-file", "dash"])
def test_reads_standard_input(
    arg: list[str], run_cli: Callable[..., Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    reply = '<think>draft {"a": 0}</think>\n{"a": 1, "名": "值"}'.encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(reply), encoding="utf-8"))
    result = run_cli("parse", *arg, "--format", "json")
    assert result.code == 0, result.err
    document = json.loads(result.out)
    assert document["value"] == {"a": 1, "名": "值"} and document["strategy"] == "extracted"
