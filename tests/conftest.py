"""Shared fixtures: run the CLI in-process and capture its streams."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest

from genlint.cli.main import main


@dataclass
class CliResult:
    code: int
    out: str
    err: str


@pytest.fixture
def run_cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., CliResult]:
    """``run_cli("check", "a.txt")`` -> CliResult(code, stdout, stderr)."""

    def run(*args: str) -> CliResult:
        capsys.readouterr()
        code = main(list(args))
        captured = capsys.readouterr()
        return CliResult(code, captured.out, captured.err)

    return run
