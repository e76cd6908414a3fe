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


# -- a fresh repository committing through the hook, as a team adopts it (issue 27) ----------
CJK_FONT = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")


def _picture(path: Path, *lines: str) -> None:
    from PIL import Image, ImageDraw, ImageFont

    if not CJK_FONT.exists():
        pytest.fail(f"{CJK_FONT} missing: run `make system-deps` (fonts-noto-cjk)")
    font = ImageFont.truetype(str(CJK_FONT), 28, index=2)
    image = Image.new("RGB", (700, 60 + 70 * len(lines)), "white")
    draw = ImageDraw.Draw(image)
    for i, line in enumerate(lines):
        draw.text((40, 30 + 70 * i), line, font=font, fill="black")
    image.save(path)


def _head() -> str:
    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


@pytest.fixture(scope="module")
def adopted(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new repository whose .pre-commit-config.yaml pins this genlint by commit, with the
    hooks installed into git."""
    if not PRE_COMMIT.exists():
        pytest.fail("pre-commit is missing: it is in the dev extra (make install)")
    if shutil.which("git") is None or not (ROOT / ".git").exists():
        pytest.skip("needs git and a git checkout of genlint")
    repo = tmp_path_factory.mktemp("adopting-team")
    _git(repo, "init", "-q")
    _git(repo, "config", "user.email", "t@example.com")
    _git(repo, "config", "user.name", "t")
    # as the Install page says: genlint init, then pre-commit install
    init = subprocess.run(
        [sys.executable, "-m", "genlint", "init", str(repo), "--repo", str(ROOT), "--rev", _head()],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        check=False,
    )
    assert init.returncode == 0, init.stderr
    subprocess.run([str(PRE_COMMIT), "install"], cwd=repo, check=True, capture_output=True)
    return repo


def _commit(repo: Path, *files: str) -> subprocess.CompletedProcess[str]:
    _git(repo, "add", *files)
    env = {**os.environ, "PRE_COMMIT_HOME": str(ROOT / ".cache" / "pre-commit")}
    env["PRE_COMMIT_COLOR"] = "never"
    return subprocess.run(
        ["git", "commit", "-m", "add " + " ".join(files)],
        cwd=repo,
        env=env,
        capture_output=True,
        text=True,
        timeout=1200,
    )


def _reset(repo: Path) -> None:
    _git(repo, "reset", "-q")


def test_commits_through_the_hook_with_and_without_images(adopted: Path) -> None:
    (adopted / "README.md").write_text("# 合同库\n\n本仓库存放已脱敏的合同。\n", "utf-8")
    done = _commit(adopted, ".pre-commit-config.yaml", "genlint.toml", "README.md")
    assert done.returncode == 0, done.stdout + done.stderr

    (adopted / "draft.md").write_text("甲方：某某公司\n", "utf-8")
    done = _commit(adopted, "draft.md")
    assert done.returncode != 0, "a placeholder was committed"
    assert "placeholder/" in done.stdout + done.stderr
    _reset(adopted)
    (adopted / "draft.md").unlink()

    _picture(adopted / "logo.png", "合同库")
    done = _commit(adopted, "logo.png")
    assert done.returncode == 0, done.stdout + done.stderr  # an image is read, not refused

    _picture(adopted / "id-card.png", "姓名：张三", "联系电话：13698765432")
    done = _commit(adopted, "id-card.png")
    out = done.stdout + done.stderr
    assert done.returncode != 0, "an ID-card photo was committed"
    assert "sensitive/mobile" in out and "13698765432" not in out, out
    log = subprocess.run(["git", "log", "--format=%s"], cwd=adopted, capture_output=True, text=True)
    assert log.stdout.split("\n")[:2] == [
        "add logo.png",
        "add .pre-commit-config.yaml genlint.toml README.md",
    ]


def test_hook_dependencies_are_the_extras_of_pyproject() -> None:
    import tomllib
    import yaml

    extras = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"][
        "optional-dependencies"
    ]
    docs = set(extras["docs"])
    ocr = {d for d in extras["ocr"] if not d.startswith("genlint[")} | docs
    for hook in yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text("utf-8")):
        deps = set(hook["additional_dependencies"])
        reads_images = "png" in hook["files"]
        assert deps == (ocr if reads_images else docs), hook["id"]
