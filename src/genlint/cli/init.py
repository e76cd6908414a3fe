"""``genlint init``: write a commented genlint.toml and a .pre-commit-config.yaml that pins
this genlint by commit (docs/commands/init.md). Refuses to overwrite either file."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import click

from .options import exit_codes, option

# what a profile changes in [check]; `judgment`: court judgments anonymise parties as 李某 on
# purpose, so the name placeholder would flag every party, while 某某公司 and personal data
# still must not be there
PROFILES: dict[str, str] = {
    "default": "",
    "judgment": (
        "# a published judgment anonymises its parties (李某, 张某1, 马XX) on purpose: they stay\n"
        "# quiet, real IDs, phones and unfilled slots still fail (docs/commands/check.md)\n"
        'profile = "judgment"\n'
    ),
}

GENLINT_TOML = """\
# genlint configuration (docs/configuration.md); `genlint rule ID` explains a rule and how to
# silence it. Written by `genlint init`{profile_note}.

[check]
# packs run by default: placeholder, sensitive, citation, document
# select = ["placeholder", "sensitive"]
{profile}
# phrases that are fine even though a rule flags them (blanks do not matter)
# allowlist = ["甲方（盖章）："]

# files never checked (globs relative to this file; a name without / matches at any depth)
exclude = [".git", ".venv", "node_modules"]

# reports mask personal values; true shows them (only where the report stays private)
show_values = false

# findings accepted today (genlint check . --write-baseline .genlint-baseline.json): every
# run here, pre-commit and CI included, then reports only new ones
# baseline = ".genlint-baseline.json"

# rules ignored in some files only
[check.per-file-ignores]
# "templates/**" = ["placeholder"]
# "tests/fixtures/*" = ["sensitive"]

# a severity per rule or pack: error, warning or info
[check.severity]
# "placeholder/blank-date" = "warning"
"""

PRE_COMMIT = """\
# pre-commit (https://pre-commit.com) hooks of genlint: `pre-commit install` once, then every
# commit is checked (docs/ci.md). Written by `genlint init`; rev pins the genlint commit.
repos:
  - repo: {repo}
    rev: {rev}
    hooks:
      - id: genlint-check           # text, DOCX, PDF (scanned pages too) and images (OCR)
      # - id: genlint-check-text    # the same without OCR: no images, a lighter install
"""


@click.command("init", epilog=exit_codes("never"))
@click.argument("folder", required=False, default=".", type=click.Path(file_okay=False))
@option(
    "--profile",
    type=click.Choice(list(PROFILES)),
    default="default",
    show_default=True,
    help="Settings for a kind of document (judgment: anonymised parties are not placeholders).",
)
@option(
    "--pre-commit/--no-pre-commit",
    "pre_commit",
    default=True,
    show_default=True,
    help="Also write .pre-commit-config.yaml.",
)
@option("--repo", default=None, metavar="URL", help="genlint's repository for pre-commit.")
@option("--rev", default=None, metavar="COMMIT", help="The genlint commit pre-commit pins.")
def command(folder: str, profile: str, pre_commit: bool, repo: str | None, rev: str | None) -> int:
    """Write genlint.toml (commented) and .pre-commit-config.yaml into FOLDER (else here)."""
    from .._io import atomic_write
    from ..errors import InputError

    root = Path(folder)
    if not root.is_dir():
        raise InputError(f"{folder}: no such folder")
    files = {root / "genlint.toml": _genlint_toml(profile)}
    if pre_commit:
        if repo is None or rev is None:
            found_repo, found_rev = _origin()
            repo, rev = repo or found_repo, rev or found_rev
        if not repo or not rev:
            wheel = _wheel()
            if wheel is not None:  # a wheel records neither: say which ones to give
                raise InputError(
                    f"genlint was installed from {wheel}, which records no repository or "
                    "commit: pass --repo URL --rev COMMIT (where your team keeps genlint, and "
                    "the commit the wheel was built from; docs/install.md), or --no-pre-commit"
                )
            raise InputError(
                "cannot tell which repository and commit this genlint comes from; "
                "pass --repo URL --rev COMMIT (or --no-pre-commit)"
            )
        files[root / ".pre-commit-config.yaml"] = PRE_COMMIT.format(repo=repo, rev=rev)
    for path in files:
        if path.exists() or path.is_symlink():
            raise InputError(f"{path}: already exists; genlint init does not overwrite it")
    for path, text in files.items():
        atomic_write(path, text)
        sys.stdout.write(f"wrote {path}\n")
    if pre_commit:
        sys.stdout.write("next: pre-commit install (docs/ci.md), then genlint check .\n")
    return 0


def _genlint_toml(profile: str) -> str:
    note = f", profile {profile}" if profile != "default" else ""
    return GENLINT_TOML.format(profile_note=note, profile=PROFILES[profile])


def _origin() -> tuple[str | None, str | None]:
    """Where the installed genlint came from (pip's direct_url.json): a git URL and commit,
    or a local checkout and its HEAD."""
    from importlib import metadata

    try:
        raw = metadata.distribution("genlint").read_text("direct_url.json")
    except metadata.PackageNotFoundError:
        raw = None
    if not raw:
        return None, None
    try:
        info = json.loads(raw)
    except ValueError:
        return None, None
    url = info.get("url")
    if not isinstance(url, str):
        return None, None
    vcs = info.get("vcs_info") or {}
    if vcs.get("vcs") == "git" and vcs.get("commit_id"):
        return url, str(vcs["commit_id"])
    if url.startswith("file://"):
        path = url.removeprefix("file://")
        try:
            done = subprocess.run(
                ["git", "-C", path, "rev-parse", "HEAD"],
                capture_output=True,
                text=True,
                timeout=10,
                env={**os.environ, "GIT_TERMINAL_PROMPT": "0"},
            )
        except (OSError, subprocess.SubprocessError):
            return None, None
        if done.returncode == 0 and done.stdout.strip():
            return path, done.stdout.strip()
    return None, None


def _wheel() -> str | None:
    """The wheel file this genlint was installed from (pip's direct_url.json), or None."""
    from importlib import metadata

    try:
        raw = metadata.distribution("genlint").read_text("direct_url.json")
        url = json.loads(raw or "{}").get("url")
    except (metadata.PackageNotFoundError, ValueError, AttributeError):
        return None
    if isinstance(url, str) and url.endswith(".whl"):
        return url.rsplit("/", 1)[-1]
    return None
