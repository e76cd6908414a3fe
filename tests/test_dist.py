"""`make dist` builds the wheel and sdist the Install page installs, by PEP 517 in an isolated
environment (no development environment), and the wheel works on its own: installed into an
empty venv with the locked runtime dependencies, `genlint --help` and a `genlint check` run."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tarfile
import time
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# the venv's own uv, the version uv.lock pins (pyproject.toml's dev extra)
UV = Path(sys.executable).parent / "uv"


def _uv(*args: str, cwd: Path = ROOT, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never"}
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(
        [str(UV), *args], cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env
    )


def test_make_dist_builds_wheel_and_sdist_alone(tmp_path: Path) -> None:
    makefile = (ROOT / "Makefile").read_text("utf-8")
    recipe = re.search(r"^dist:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert recipe, "no dist target"
    # the recipe builds with uv's PEP 517 frontend and needs no development environment
    assert "$(UV) build" in recipe.group(1) and "$(STAMP)" not in recipe.group(0)
    start = time.monotonic()
    done = _uv("build", "--quiet", "--out-dir", str(tmp_path / "dist"))
    elapsed = time.monotonic() - start
    assert done.returncode == 0, done.stderr
    assert elapsed < 30, f"make dist took {elapsed:.0f} s"
    (wheel,) = (tmp_path / "dist").glob("genlint-*.whl")
    (sdist,) = (tmp_path / "dist").glob("genlint-*.tar.gz")
    with zipfile.ZipFile(wheel) as zf:
        names = set(zf.namelist())
        metadata = next(zf.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    assert "genlint/check/rules/placeholder/rules.toml" in names
    assert "genlint/check/rules/rule_docs.toml" in names
    assert "genlint/cli/init.py" in names
    assert not any(n.startswith(("tests/", "benchmarks/")) for n in names)
    with tarfile.open(sdist) as tf:
        members = {m.name.split("/", 1)[-1] for m in tf.getmembers()}
    assert "pyproject.toml" in members and "src/genlint/__init__.py" in members
    install = (ROOT / "docs" / "install.md").read_text("utf-8")
    extras = re.findall(r"\| `(\w[\w-]*)` \|$", install, re.MULTILINE)
    assert len(extras) >= 6, extras
    for extra in extras:
        assert f"Provides-Extra: {extra}" in metadata, extra
    # a tested range per dependency whose behaviour decides results (docs/install.md)
    assert re.search(r"^Requires-Dist: json-repair(?=.*<)(?=.*>=)", metadata, re.M), metadata

    # the wheel alone, in an empty venv, with the runtime dependencies the lock pins
    venv = tmp_path / "venv"
    assert _uv("venv", "--quiet", "--python", sys.executable, str(venv)).returncode == 0
    pins = tmp_path / "runtime.txt"
    exported = _uv(
        "export",
        "--frozen",
        "--quiet",
        "--no-dev",
        "--no-emit-project",
        "--no-header",
        "--output-file",
        str(pins),
    )
    assert exported.returncode == 0, exported.stderr
    python = venv / "bin" / "python"
    installed = _uv(
        "pip", "install", "--quiet", "--python", str(python), "-r", str(pins), str(wheel)
    )
    assert installed.returncode == 0, installed.stderr
    genlint = venv / "bin" / "genlint"
    shown = subprocess.run([str(genlint), "--help"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0 and "check" in shown.stdout, shown.stderr
    draft = tmp_path / "draft.md"
    draft.write_text("# 合同\n\n甲方：【公司名称】\n", encoding="utf-8")
    checked = subprocess.run(
        [str(genlint), "check", str(draft), "--no-color"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    # a finding, so exit 1, read from the wheel's own rule tables
    assert checked.returncode == 1, (checked.stdout, checked.stderr)
    assert "placeholder" in checked.stdout
