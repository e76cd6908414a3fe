"""``genlint init``: a commented genlint.toml that loads, a pinned .pre-commit-config.yaml,
no overwriting, and the judgment profile."""

from __future__ import annotations

from pathlib import Path

import pytest

from genlint.check import CheckConfig, check_paths

REV = "a" * 40


def test_writes_both_files_that_load(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    import yaml

    result = run_cli(
        "init", str(tmp_path), "--repo", "https://git.example.org/genlint.git", "--rev", REV
    )
    assert result.code == 0, result.err
    toml = (tmp_path / "genlint.toml").read_text("utf-8")
    assert toml.count("\n# ") >= 5, "the file explains itself"
    config = CheckConfig.load(tmp_path / "genlint.toml")
    assert config.ignore == () and config.show_values is False
    hooks = yaml.safe_load((tmp_path / ".pre-commit-config.yaml").read_text("utf-8"))
    (entry,) = hooks["repos"]
    assert entry == {
        "repo": "https://git.example.org/genlint.git",
        "rev": REV,
        "hooks": [{"id": "genlint-check"}],
    }
    ids = {
        h["id"]
        for h in yaml.safe_load(
            (Path(__file__).resolve().parents[2] / ".pre-commit-hooks.yaml").read_text("utf-8")
        )
    }
    assert "genlint-check" in ids and "genlint-check-text" in ids


def test_refuses_to_overwrite_and_writes_nothing(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    (tmp_path / ".pre-commit-config.yaml").write_text("repos: []\n", "utf-8")
    result = run_cli("init", str(tmp_path), "--repo", "x", "--rev", REV)
    assert result.code == 2
    assert result.err == (
        f"genlint: error: {tmp_path / '.pre-commit-config.yaml'}: already exists; "
        "genlint init does not overwrite it\n"
    )
    assert not (tmp_path / "genlint.toml").exists()
    assert (tmp_path / ".pre-commit-config.yaml").read_text("utf-8") == "repos: []\n"


def test_no_pre_commit_writes_only_the_config(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    assert run_cli("init", str(tmp_path), "--no-pre-commit").code == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == ["genlint.toml"]


def test_judgment_profile(run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:  # type: ignore[no-untyped-def]
    text = "被告人李某在某某公司任职，电话13812345678。\n"
    (tmp_path / "judgment.txt").write_text(text, "utf-8")
    assert run_cli("init", str(tmp_path), "--no-pre-commit", "--profile", "judgment").code == 0
    config = CheckConfig.load(tmp_path / "genlint.toml")
    found = {f.rule for f in check_paths([tmp_path / "judgment.txt"], config=config).findings}
    assert found == {"placeholder/mou-entity", "sensitive/mobile"}
    plain = {f.rule for f in check_paths([tmp_path / "judgment.txt"]).findings}
    assert "placeholder/mou-name" in plain


def test_unknown_origin_says_what_to_pass(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from genlint.cli import init

    monkeypatch.setattr(init, "_origin", lambda: (None, None))
    result = run_cli("init", str(tmp_path))
    assert result.code == 2 and "pass --repo URL --rev COMMIT" in result.err
    assert list(tmp_path.iterdir()) == []


def test_profile_choices_are_the_config_profiles() -> None:
    """``genlint init --profile`` and ``genlint check --profile`` spell the profiles out (so
    ``--help`` imports no rule); they must stay the ones ``[check] profile`` accepts."""
    import click

    from genlint.check.config import PROFILES
    from genlint.cli import check, init

    for command in (init.command, check.command):
        (option,) = [p for p in command.params if p.name == "profile"]
        assert isinstance(option.type, click.Choice)
        assert tuple(option.type.choices) == PROFILES, command.name
    assert tuple(init.PROFILES) == PROFILES


def test_after_a_wheel_install_init_says_which_repo_and_rev(
    run_cli, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:  # type: ignore[no-untyped-def]
    from genlint.cli import init

    monkeypatch.setattr(init, "_origin", lambda: (None, None))
    monkeypatch.setattr(init, "_wheel", lambda: "genlint-0.1.0-py3-none-any.whl")
    result = run_cli("init", str(tmp_path))
    assert result.code == 2 and result.err.count("\n") == 1
    assert "installed from genlint-0.1.0-py3-none-any.whl" in result.err
    assert "the commit the wheel was built from" in result.err
    # the documented first method: the wheel, then init with --repo and --rev
    install = (Path(__file__).parents[2] / "docs" / "install.md").read_text("utf-8")
    assert "genlint init --repo" in install
    rev = "0" * 40
    done = run_cli("init", str(tmp_path), "--repo", "https://git.example.org/g.git", "--rev", rev)
    assert done.code == 0 and rev in (tmp_path / ".pre-commit-config.yaml").read_text("utf-8")


def test_the_written_config_offers_the_baseline_key(run_cli, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from genlint.check import CheckConfig

    assert run_cli("init", str(tmp_path), "--no-pre-commit").code == 0
    path = tmp_path / "genlint.toml"
    text = path.read_text("utf-8")
    line = next(ln for ln in text.splitlines() if ln.startswith("# baseline = "))
    path.write_text(text.replace(line, line[2:]), "utf-8")  # uncommented: a valid key
    config = CheckConfig.load(path)
    assert config.baseline_file == str(tmp_path.resolve() / ".genlint-baseline.json")
