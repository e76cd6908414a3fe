"""The pre-commit hooks of .pre-commit-hooks.yaml, run by the real pre-commit from PyPI.

`pre-commit try-repo` installs this repository into its own virtualenv exactly as a user's
`.pre-commit-config.yaml` would, then runs the hook on a temporary git repository.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PRE_COMMIT = Path(sys.executable).with_name("pre-commit")

pytestmark = pytest.mark.slow


def _git(cwd: Path, *args: str) -> None:
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not PRE_COMMIT.exists():
        pytest.fail("pre-commit is missing: it is in the dev extra (make install)")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout of genlint")
    repo = tmp_path_factory.mktemp("user-project")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    (repo / "clean.md").write_text("本合同由北京星河科技有限公司签署。\n", encoding="utf-8")
    (repo / "draft.md").write_text("甲方：某某公司\n联系电话：13812345678\n", encoding="utf-8")
    (repo / "notes.py").write_text("x = '某某公司'\n", encoding="utf-8")  # not a checked kind
    _git(repo, "add", ".")
    return repo


def _try_repo(project: Path, hook: str, *files: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ)
    # pre-commit's own cache of hook environments, inside the ignored build folder
    env["PRE_COMMIT_HOME"] = str(ROOT / ".cache" / "pre-commit")
    return subprocess.run(
        [str(PRE_COMMIT), "try-repo", str(ROOT), hook, "--files", *files, "--color", "never"],
        cwd=project,
        env=env,
        capture_output=True,
        text=True,
        timeout=900,
    )


def test_check_hook_fails_on_a_draft_and_names_the_finding(project: Path) -> None:
    done = _try_repo(project, "genlint-check", "draft.md", "clean.md", "notes.py")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "placeholder/mou-mou" in out or "placeholder/mou-entity" in out, out
    assert "sensitive/mobile" in out, out


def test_check_hook_passes_clean_files(project: Path) -> None:
    done = _try_repo(project, "genlint-check", "clean.md", "notes.py")
    assert done.returncode == 0, done.stdout + done.stderr


def test_sensitive_hook_runs_only_the_sensitive_pack(project: Path) -> None:
    done = _try_repo(project, "genlint-check-sensitive", "draft.md")
    out = done.stdout + done.stderr
    assert done.returncode == 1, out
    assert "sensitive/mobile" in out
    assert "placeholder/" not in out
