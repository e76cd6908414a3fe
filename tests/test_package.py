"""The package surface: public API complete, CLI boundary, fast start."""

from __future__ import annotations

import importlib
import subprocess
import sys
import time

import pytest

import genlint


def test_all_is_sorted_and_every_name_resolves() -> None:
    assert genlint.__all__ == sorted(genlint.__all__)
    for name in genlint.__all__:
        assert getattr(genlint, name) is not None, name


@pytest.mark.parametrize(
    ("argv", "code", "stream", "needle"),
    [
        (["--version"], 0, "out", "genlint, version"),
        (["--help"], 0, "out", "check"),
        (["no-such-command"], 2, "err", "genlint: error:"),
    ],
)
def test_cli_boundary(run_cli, argv, code, stream, needle) -> None:  # type: ignore[no-untyped-def]
    result = run_cli(*argv)
    assert result.code == code
    assert needle in getattr(result, stream)
    if code == 2:
        assert result.err.count("\n") == 1 and "Traceback" not in result.err


def test_import_is_light() -> None:
    # Heavy optional dependencies must not be imported by `import genlint` or the CLI shell.
    code = (
        "import sys, genlint, genlint.cli.main;"
        "heavy = [m for m in ('numpy','pypdf','docx','openai','citeproc','jsonschema','pydantic') if m in sys.modules];"
        "print(','.join(heavy))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == ""


def test_help_starts_fast() -> None:
    best = min(_time_run([sys.executable, "-m", "genlint", "--help"]) for _ in range(3))
    assert best < 0.5, f"genlint --help took {best:.3f}s"


def _time_run(cmd: list[str]) -> float:
    t0 = time.perf_counter()
    subprocess.run(cmd, capture_output=True, check=True)
    return time.perf_counter() - t0


def test_version_matches_metadata() -> None:
    meta = importlib.import_module("importlib.metadata")
    assert meta.version("genlint") == genlint.__version__
