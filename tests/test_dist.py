"""`make dist` builds the wheel the Install page installs: genlint with its data files (rule
tables, lexicons) and the extras the page names."""

from __future__ import annotations

import re
import subprocess
import sys
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_make_dist_recipe_builds_a_complete_wheel(tmp_path: Path) -> None:
    makefile = (ROOT / "Makefile").read_text("utf-8")
    recipe = re.search(r"^dist:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe, "no dist target"
    assert "pip wheel" in recipe.group(1) and "--no-deps" in recipe.group(1)
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "wheel",
            "--quiet",
            "--no-deps",
            "--wheel-dir",
            str(tmp_path),
            str(ROOT),
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    (wheel,) = tmp_path.glob("genlint-*.whl")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = next(zf.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert "genlint/check/rules/placeholder/rules.toml" in names
    assert "genlint/check/rules/rule_docs.toml" in names
    assert "genlint/cli/init.py" in names
    install = (ROOT / "docs" / "install.md").read_text("utf-8")
    extras = re.findall(r"\| `(\w[\w-]*)` \|$", install, re.MULTILINE)
    assert len(extras) >= 6, extras
    for extra in extras:
        assert f"Provides-Extra: {extra}" in metadata, extra
