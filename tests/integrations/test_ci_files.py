"""The CI files we ship validate against the schemas GitHub uses (check-jsonschema vendors them,
so this runs offline)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from support.action import ROOT, action_steps, run_action

CHECK_JSONSCHEMA = Path(sys.executable).with_name("check-jsonschema")
_KEY = {"GENLINT_FINGERPRINT_KEY": "action-test"}  # the key support.action's runner sets


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


def test_no_step_script_holds_an_expression() -> None:
    for step in action_steps():
        assert "${{" not in step.get("run", ""), f"{step['name']}: an input pasted into a script"


def test_the_steps_run_with_hostile_inputs(tmp_path: Path) -> None:
    work = tmp_path / "repo"
    (work / "dir with space").mkdir(parents=True)
    (work / "out dir").mkdir()
    (work / "dir with space" / "a.txt").write_text("电话13812345678\n", encoding="utf-8")
    (work / "b*.txt").write_text("甲方：某某公司\n", encoding="utf-8")
    (work / "bx.txt").write_text("clean\n", encoding="utf-8")  # a glob of b*.txt would add it
    steps, outputs, _ = run_action(
        work, tmp_path, paths="dir with space/a.txt\nb*.txt\n", select="sensitive,placeholder",
        sarif_file=HOSTILE_SARIF, extras="docs", format="sarif",
    )  # fmt: skip
    assert len(steps) == 3, steps[-1].stdout + steps[-1].stderr
    _install, check, fail = steps
    assert check.returncode == 0, check.stderr
    assert outputs["exit-code"] == "1", check.stderr
    assert fail.returncode == 1 and HOSTILE_SARIF in fail.stdout
    assert not list(work.glob("PWNED*")) and not list(tmp_path.glob("PWNED*")), "an input ran"
    import json

    sarif = json.loads((work / HOSTILE_SARIF).read_text(encoding="utf-8"))
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"]}
    assert any("dir with space/a.txt" in u or "dir%20with%20space/a.txt" in u for u in uris)
    assert any("b*.txt" in u or "b%2A.txt" in u for u in uris)
    assert not any("bx.txt" in u for u in uris), "the path was glob-expanded"


def test_baseline_config_and_args_reach_genlint_unpasted(tmp_path: Path) -> None:
    """The inputs a gate with a baseline needs: ``baseline`` (a name with spaces and shell
    syntax), ``config`` and ``args``, each an environment value, never a script's text."""
    work = tmp_path / "repo"
    (work / "ci dir").mkdir(parents=True)
    (work / "a.txt").write_text("电话13812345678\n", encoding="utf-8")
    (work / "ci dir" / "genlint.toml").write_text('[check]\nselect = "sensitive"\n', "utf-8")
    baseline = 'ci dir/base"; touch PWNED; echo "$(touch PWNED2).json'
    subprocess.run(
        [sys.executable, "-m", "genlint", "check", "a.txt", "--select",
         "sensitive", "--write-baseline", str(work / baseline)],
        cwd=work, check=True, capture_output=True, env={**os.environ, **_KEY},
        timeout=120,
    )  # fmt: skip
    (work / "a.txt").write_text("前言\n\n电话13812345678\n甲方：某某公司\n", encoding="utf-8")
    steps, outputs, _ = run_action(
        work, tmp_path, paths="a.txt", format="github", baseline=baseline,
        config="ci dir/genlint.toml", args="--ignore\ncitation\n--profile\njudgment\n",
    )  # fmt: skip
    check = steps[1]
    assert not list(work.glob("PWNED*")) and not list(tmp_path.glob("PWNED*")), "an input ran"
    # the config selects sensitive only, the baseline accepts the phone moved down two lines
    assert outputs["exit-code"] == "0", check.stdout + check.stderr
    assert "1 finding accepted by" in check.stderr
    assert steps[-1].returncode == 0
    hostile, _, _ = run_action(
        work, tmp_path, paths="a.txt", format="github", args="--ignore $(touch PWNED3) `touch P4`"
    )
    assert "'$(touch'" in hostile[1].stderr and hostile[-1].returncode == 2
    assert not list(work.glob("PWNED*")) and not list(work.glob("P4")), "an input ran"
def test_the_action_passes_isolated_and_no_inline_ignores(tmp_path: Path) -> None:
    # a checked repository's own genlint.toml and a document's own directive silence nothing
    work = tmp_path / "repo"
    work.mkdir()
    (work / "a.txt").write_text("电话13812345678 # genlint: ignore[sensitive]\n", "utf-8")
    (work / "genlint.toml").write_text('[check]\nexclude = ["**"]\n', "utf-8")
    _, outputs, _ = run_action(work, tmp_path, paths="a.txt", format="github")
    assert outputs["exit-code"] == "0"
    _, outputs, _ = run_action(
        work, tmp_path, paths="a.txt", format="github", isolated="true", no_inline_ignores="true"
    )
    assert outputs["exit-code"] == "1"
