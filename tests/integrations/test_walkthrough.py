"""docs/ci.md, step by step, in a fresh git repository: accept today's findings with a
baseline, then the GitHub Action (its steps run as a runner runs them) and the GitLab job's
script (read from the docs) report only a finding added later."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
import yaml

from support.action import ROOT, run_action

PHONE = "13812345678"
KEY = {"GENLINT_FINGERPRINT_KEY": "action-test"}  # the key support.action's runner sets


def _git(repo: Path, *args: str) -> None:
    subprocess.run(
        ["git", "-C", str(repo), *args], check=True, capture_output=True, timeout=60,
        env={**os.environ, "GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
             "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org"},
    )  # fmt: skip


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.fail("git is missing")
    root = tmp_path / "contracts"
    (root / "drafts").mkdir(parents=True)
    (root / "drafts" / "a.md").write_text(f"# 合同\n\n联系电话：{PHONE}\n", "utf-8")
    _git(root, "init", "-q")
    # docs/configuration.md "Silencing findings": accept today's findings
    subprocess.run(
        [sys.executable, "-m", "genlint", "check", ".", "--write-baseline",
         ".genlint-baseline.json"],
        cwd=root, check=True, capture_output=True, timeout=120, env={**os.environ, **KEY},
    )  # fmt: skip
    # an edit above the accepted finding, and a new one below it
    (root / "drafts" / "a.md").write_text(
        f"# 合同\n\n新增的说明。\n\n联系电话：{PHONE}\n\n甲方：某某公司\n", "utf-8"
    )
    _git(root, "add", "-A")
    _git(root, "commit", "-qm", "drafts")
    return root


def test_github_action_with_a_baseline(repo: Path, tmp_path: Path) -> None:
    steps, outputs, _ = run_action(
        repo, tmp_path, paths=".", format="github,sarif", baseline=".genlint-baseline.json"
    )
    check = steps[1]
    assert outputs["exit-code"] == "1", check.stderr
    annotations = [ln for ln in check.stdout.splitlines() if ln.startswith("::")]
    assert len(annotations) == 1 and "placeholder/mou-entity" in annotations[0]
    assert "1 finding accepted by" in check.stderr
    sarif = json.loads((repo / "genlint.sarif").read_text("utf-8"))
    assert [r["ruleId"] for r in sarif["runs"][0]["results"]] == ["placeholder/mou-entity"]
    assert steps[-1].returncode == 1


def test_gitlab_job_script_from_the_docs(repo: Path) -> None:
    from check.test_gitlab_format import SCHEMA

    text = (ROOT / "docs" / "ci.md").read_text("utf-8")
    block = re.search(r"## GitLab CI.*?```yaml\n(.*?)```", text, re.S)
    assert block is not None
    job = yaml.safe_load(block.group(1))["genlint"]
    script = [line for line in job["script"] if line.startswith("genlint check")]
    assert len(script) == 1
    report = job["artifacts"]["reports"]["codequality"]
    done = subprocess.run(
        [sys.executable, "-m", "genlint", *script[0].split()[1:]],
        cwd=repo, capture_output=True, text=True, timeout=120, env={**os.environ, **KEY},
    )  # fmt: skip
    assert done.returncode == 1, done.stderr
    issues = json.loads((repo / report).read_text("utf-8"))
    jsonschema.validate(issues, SCHEMA)
    assert [i["check_name"] for i in issues] == ["placeholder/mou-entity"]
    assert issues[0]["location"] == {"path": "drafts/a.md", "lines": {"begin": 7}}
    assert PHONE not in json.dumps(issues)
