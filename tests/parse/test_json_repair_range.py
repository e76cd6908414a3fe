"""The boundary of json-repair's tested range (pyproject.toml, docs/install.md "Tested ranges"):
every reply of the peer corpus and of the hand-labelled replies gets the same answer from
genlint with the lowest release of the range as with the locked one. A release inside the
range that changed an answer would make the range a lie; this test is what keeps it true."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from parse.helpers import FIXTURES, PEER_CASES, load_jsonl

ROOT = Path(__file__).resolve().parents[2]
UV = Path(sys.executable).parent / "uv"

# parse every reply with the json-repair found first on sys.path; one JSON line per reply
ANSWERS = r"""
import importlib.metadata, json, sys
from genlint import parse_json
out = {"version": importlib.metadata.version("json-repair"), "answers": []}
for text in json.load(sys.stdin):
    r = parse_json(text, schema={})
    out["answers"].append([r.ok, json.dumps(r.value, sort_keys=True, default=repr),
                           r.truncated, r.guessed, r.lossy])
print(json.dumps(out))
"""


def _declared_range() -> tuple[str, str]:
    pyproject = (ROOT / "pyproject.toml").read_text("utf-8")
    found = re.search(r'"json-repair>=([\d.]+),<=([\d.]+)"', pyproject)
    assert found, "json-repair's range in pyproject.toml has no lower and upper bound"
    return found.group(1), found.group(2)


def _answers(texts: list[str], path: Path | None) -> dict[str, object]:
    env = {**os.environ}
    if path is not None:  # the other release first on the path, before the venv's own
        env["PYTHONPATH"] = os.pathsep.join([str(path), str(ROOT / "src")])
    done = subprocess.run(
        [sys.executable, "-c", ANSWERS],
        input=json.dumps(texts),
        capture_output=True,
        text=True,
        timeout=600,
        env=env,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


def test_lowest_release_of_the_range_gives_the_locked_answers(tmp_path: Path) -> None:
    lowest, highest = _declared_range()
    texts = [case["input"] for case in load_jsonl(PEER_CASES)]
    texts += [case["input"] for case in load_jsonl(FIXTURES / "llm_replies.jsonl")]
    assert len(texts) > 800
    target = tmp_path / "json-repair-lowest"
    installed = subprocess.run(
        [
            str(UV),
            "pip",
            "install",
            "--quiet",
            "--no-deps",
            "--target",
            str(target),
            "--python",
            sys.executable,
            f"json-repair=={lowest}",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert installed.returncode == 0, installed.stderr
    locked = _answers(texts, None)
    low = _answers(texts, target)
    assert low["version"] == lowest

    def release(v: object) -> tuple[int, ...]:
        return tuple(int(part) for part in str(v).split("."))

    assert release(lowest) < release(locked["version"]) <= release(highest)
    differ = [
        (texts[i][:60], a, b)
        for i, (a, b) in enumerate(zip(locked["answers"], low["answers"], strict=True))  # type: ignore[call-overload]
        if a != b
    ]
    assert not differ, differ[:5]
