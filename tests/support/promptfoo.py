"""The real promptfoo binary run offline on an example config (``make promptfoo`` installs it):
skipped where it is missing, a failure in CI."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def promptfoo_binary() -> str:
    for c in (
        os.environ.get("PROMPTFOO_BIN"),
        str(ROOT / ".cache/promptfoo/node_modules/.bin/promptfoo"),
    ):
        if c and Path(c).is_file():
            return c
    if os.environ.get("CI") == "true":
        pytest.fail("promptfoo is required in CI (make promptfoo installs it)")
    pytest.skip("promptfoo not installed (make promptfoo)")


def promptfoo_eval(
    example: Path, config: str, tmp_path: Path
) -> tuple[subprocess.CompletedProcess[str], Path]:
    """``promptfoo eval`` of ``config`` (a path inside ``example``) in a copy of ``example``, run
    from the config's folder, without cache, sharing, telemetry or updates: the finished
    process and the path of its JSON results."""
    binary = promptfoo_binary()
    if shutil.which("node") is None:
        pytest.fail("promptfoo is installed but node is missing")
    work = tmp_path / "example"
    shutil.copytree(example, work)
    where = (work / config).parent
    env = {
        **os.environ,
        "PROMPTFOO_DISABLE_TELEMETRY": "1",
        "PROMPTFOO_DISABLE_UPDATE": "1",
        "PROMPTFOO_CONFIG_DIR": str(tmp_path / "promptfoo-home"),
        "PROMPTFOO_PYTHON": sys.executable,
        "PYTHONPATH": str(ROOT / "src"),
        "NO_COLOR": "1",
    }
    results = tmp_path / "results.json"
    done = subprocess.run(
        [binary, "eval", "-c", str(work / config), "--no-cache", "--no-share",
         "--no-progress-bar", "-o", str(results)],
        cwd=where, env=env, capture_output=True, text=True, timeout=300, check=False,
    )  # fmt: skip
    return done, results
