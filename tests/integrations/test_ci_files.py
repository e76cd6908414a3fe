"""The CI files we ship validate against the schemas GitHub uses (check-jsonschema vendors them,
so this runs offline)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHECK_JSONSCHEMA = Path(sys.executable).with_name("check-jsonschema")


@pytest.mark.parametrize(
    ("schema", "path"),
    [
        ("vendor.github-actions", "action.yml"),
        ("vendor.github-workflows", "docs/examples/github-workflow.yml"),
    ],
)
def test_ci_file_validates(schema: str, path: str) -> None:
    if not CHECK_JSONSCHEMA.exists():
        pytest.fail("check-jsonschema is missing: it is in the dev extra (make install)")
    done = subprocess.run(
        [str(CHECK_JSONSCHEMA), "--builtin-schema", schema, str(ROOT / path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_broken_action_fails_validation(tmp_path: Path) -> None:
    # the validator really validates: an action without `runs` is refused
    broken = tmp_path / "action.yml"
    broken.write_text("name: x\ndescription: y\n", encoding="utf-8")
    done = subprocess.run(
        [str(CHECK_JSONSCHEMA), "--builtin-schema", "vendor.github-actions", str(broken)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0


# -- the composite action, rendered as GitHub renders it, with hostile inputs (issue 25) ------
HOSTILE_SARIF = 'out dir/r"; touch PWNED; echo "$(touch PWNED2)`touch PWNED3`.sarif'


def _action() -> dict:
    import yaml

    return yaml.safe_load((ROOT / "action.yml").read_text(encoding="utf-8"))


def _render(text: str, inputs: dict[str, str], action_path: str, outputs: dict[str, str]) -> str:
    """What GitHub does to a step's text before any shell runs: paste every ``${{ … }}``."""
    import re

    def value(m: re.Match[str]) -> str:
        expr = m.group(1).strip()
        if expr.startswith("inputs."):
            return inputs[expr.removeprefix("inputs.")]
        if expr == "github.action_path":
            return action_path
        if expr.startswith("steps."):
            return outputs.get(expr.rsplit(".", 1)[-1], "")
        return "true"  # an `if:` condition: taken, so its step runs
    return re.sub(r"\$\{\{(.*?)\}\}", value, text)


def test_no_step_script_holds_an_expression() -> None:
    for step in _action()["runs"]["steps"]:
        assert "${{" not in step.get("run", ""), f"{step['name']}: an input pasted into a script"


def test_the_steps_run_with_hostile_inputs(tmp_path: Path) -> None:
    import os
    import shutil

    work = tmp_path / "repo"
    (work / "dir with space").mkdir(parents=True)
    (work / "out dir").mkdir()
    (work / "dir with space" / "a.txt").write_text("电话13812345678\n", encoding="utf-8")
    (work / "b*.txt").write_text("甲方：某某公司\n", encoding="utf-8")
    (work / "bx.txt").write_text("clean\n", encoding="utf-8")  # a glob of b*.txt would add it
    shim = tmp_path / "bin"
    shim.mkdir()
    (shim / "genlint").write_text(
        f'#!/bin/sh\nPYTHONPATH={ROOT / "src"} exec {sys.executable} -m genlint "$@"\n',
        encoding="utf-8",
    )
    (shim / "genlint").chmod(0o755)
    inputs = {"paths": "dir with space/a.txt\nb*.txt\n", "select": "sensitive,placeholder",
              "sarif-file": HOSTILE_SARIF, "fail-on-findings": "true", "packs": "",
              "extras": "docs", "format": "sarif", "fail-on": "findings"}
    outputs: dict[str, str] = {}
    bash = shutil.which("bash")
    assert bash is not None
    for step in _action()["runs"]["steps"][1:]:  # not the pip install
        output_file = tmp_path / "github_output"
        output_file.write_text("", encoding="utf-8")
        env = {**os.environ, "PATH": f"{shim}{os.pathsep}{os.environ['PATH']}",
               "GITHUB_OUTPUT": str(output_file)}
        env.update({k: _render(v, inputs, str(ROOT), outputs) for k, v in step.get("env", {}).items()})
        script = _render(step["run"], inputs, str(ROOT), outputs)
        done = subprocess.run([bash, "-e", "-c", script], cwd=work, env=env, capture_output=True,
                              text=True, timeout=120)
        for line in output_file.read_text(encoding="utf-8").splitlines():
            key, _, val = line.partition("=")
            outputs[key] = val
        if step.get("id") == "check":
            assert done.returncode == 0, done.stderr
            assert outputs["exit-code"] == "1", done.stderr
        else:
            assert done.returncode == 1 and HOSTILE_SARIF in done.stdout
    assert not list(work.glob("PWNED*")) and not list(tmp_path.glob("PWNED*")), "an input ran"
    import json

    sarif = json.loads((work / HOSTILE_SARIF).read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert any("dir with space/a.txt" in u or "dir%20with%20space/a.txt" in u for u in uris)
    assert any("b*.txt" in u or "b%2A.txt" in u for u in uris)
    assert not any("bx.txt" in u for u in uris), "the path was glob-expanded"
