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
