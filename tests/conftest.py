"""Shared fixtures: run the CLI in-process and capture its streams."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass

import pytest
from hypothesis import settings

from genlint.cli.main import main

# CI runs every property test on the same examples (derandomised), so a run is repeatable and a
# red CI is never a coin toss; a developer's run explores new examples each time, and
# HYPOTHESIS_PROFILE=fuzz explores many more.
settings.register_profile("ci", derandomize=True, print_blob=True)
settings.register_profile("fuzz", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "default"))


@pytest.fixture(autouse=True)
def _fingerprint_key(monkeypatch: pytest.MonkeyPatch) -> None:
    """SARIF fingerprints of personal data are keyed; without this variable the first run would
    make a key file in the user's own cache folder, which no test may touch."""
    monkeypatch.setenv("GENLINT_FINGERPRINT_KEY", "genlint-tests")


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
