"""Docs that must agree with the code: the Python version pyproject.toml requires, the default
packs `genlint check --help` shows, and a docs list that links every command's page."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _read(name: str) -> str:
    return (ROOT / name).read_text("utf-8")


def test_python_version_is_the_one_pyproject_requires() -> None:
    found = re.search(r'^requires-python = ">=(3\.\d+)"', _read("pyproject.toml"), re.M)
    assert found is not None
    version = found.group(1)
    assert f"Python {version} or newer" in _read("docs/install.md")
    assert f"Python ≥ {version}" in _read("README.md")
    for name in ("docs/install.md", "README.md"):
        others = set(re.findall(r"Python (?:≥ ?)?(3\.\d+)", _read(name))) - {version}
        assert not others, f"{name} names Python {others}"


def test_configuration_default_packs_are_the_help_default(run_cli) -> None:  # type: ignore[no-untyped-def]
    from genlint.check.rules import DEFAULT_PACKS

    shown = re.search(r"\[default:\s*([a-z,\s]+)\]", run_cli("check", "--help").out)
    assert shown is not None
    help_packs = [p.strip() for p in re.sub(r"\s+", "", shown.group(1)).split(",")]
    assert help_packs == list(DEFAULT_PACKS)
    line = next(ln for ln in _read("docs/configuration.md").splitlines() if "# default:" in ln)
    assert [p.strip() for p in line.split("# default:")[1].split(",")] == help_packs


def test_docs_lists_link_every_command_page() -> None:
    pages = sorted(p.stem for p in (ROOT / "docs" / "commands").glob("*.md"))
    index, readme = _read("docs/index.md"), _read("README.md")
    for page in pages:
        assert f"(commands/{page}.md)" in index, f"docs/index.md does not link {page}"
        assert f"(docs/commands/{page}.md)" in readme, f"README's docs list does not link {page}"
