"""The composite action (``action.yml``) run locally as a runner runs it: inputs pasted into
the ``env`` values as GitHub pastes every ``${{ … }}``, a fake ``GITHUB_*`` environment, bash,
each step in order until one fails; ``genlint`` is this tree's, the install step's
``python -m pip install …`` is recorded, not run."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
DEFAULTS = {
    "paths": ".",
    "packs": "",
    "select": "",
    "extras": "docs,ocr",
    "format": "github,sarif",
    "sarif-file": "genlint.sarif",
    "baseline": "",
    "config": "",
    "args": "",
    "no-inline-ignores": "false",
    "isolated": "false",
    "fail-on": "findings",
    "fail-on-findings": "true",
}


def action_steps() -> list[dict[str, Any]]:
    import yaml

    action = yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))
    assert set(action["inputs"]) == set(DEFAULTS)
    assert {k: v["default"] for k, v in action["inputs"].items()} == DEFAULTS
    steps: list[dict[str, Any]] = action["runs"]["steps"]
    return steps


def render(text: str, inputs: dict[str, str], outputs: dict[str, str]) -> str:
    def value(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr == "github.action_path":
            return str(ROOT)
        if expr.startswith("steps."):
            return outputs.get(expr.rsplit(".", 1)[-1], "")
        raise AssertionError(f"unexpected expression {expr}")

    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def run_action(
    repo: Path, tmp_path: Path, **overrides: str
) -> tuple[list[subprocess.CompletedProcess[str]], dict[str, str], Path]:
    """Run every step in order, stopping at the first that fails, as the runner does."""
    inputs = {**DEFAULTS, **{k.replace("_", "-"): v for k, v in overrides.items()}}
    shim = tmp_path / "bin"
    shim.mkdir(exist_ok=True)
    (shim / "genlint").write_text(
        f'#!/bin/sh\nPYTHONPATH={ROOT / "src"} exec {sys.executable} -m genlint "$@"\n', "utf-8"
    )
    # the install step's `python -m pip install …`: recorded, not run (the venv has the extras)
    (shim / "python").write_text(f'#!/bin/sh\necho "$@" >> {tmp_path / "pip.log"}\n', "utf-8")
    for tool in ("genlint", "python"):
        (shim / tool).chmod(0o755)
    bash = shutil.which("bash")
    assert bash is not None
    outputs: dict[str, str] = {}
    done: list[subprocess.CompletedProcess[str]] = []
    for step in action_steps():
        github_output = tmp_path / "github_output"
        github_output.write_text("", "utf-8")
        env = {
            "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}",
            "HOME": os.environ.get("HOME", str(tmp_path)),
            "GENLINT_FINGERPRINT_KEY": "action-test",
            "GITHUB_ACTIONS": "true",
            "GITHUB_WORKSPACE": str(repo),
            "GITHUB_OUTPUT": str(github_output),
            "GITHUB_ENV": str(tmp_path / "github_env"),
            "GITHUB_STEP_SUMMARY": str(tmp_path / "summary"),
            "GITHUB_REPOSITORY": "team/contracts",
            "GITHUB_SHA": "0" * 40,
            "RUNNER_TEMP": str(tmp_path),
        }
        env.update({k: render(v, inputs, outputs) for k, v in step.get("env", {}).items()})
        assert "${{" not in step["run"]
        result = subprocess.run(
            [bash, "-e", "-c", step["run"]],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            timeout=300,
        )
        done.append(result)
        for line in github_output.read_text("utf-8").splitlines():
            key, _, val = line.partition("=")
            outputs[key] = val
        if result.returncode != 0:
            break
    return done, outputs, tmp_path / "pip.log"
