"""The HTML report: self-contained, escaped, and showing what it should in a real browser."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest

from genlint.eval import evaluate
from genlint.eval.report_html import render

FIX = Path(__file__).parents[1] / "fixtures" / "eval"
FACTS = json.loads((FIX / "cases" / "requirement_example" / "facts.json").read_text("utf-8"))

HOSTILE = [
    "<script>document.body.setAttribute('data-pwned','script')</script>调用 AuthService.checkPermission",
    "<img src=x onerror=\"document.body.setAttribute('data-pwned','img')\">写入 HogosyaEntity",
    '"><svg onload=alert(1)> & 为了确保数据一致性',
]


def _hostile_result():
    wiki = {
        "method": "changeHogosyaJoho",
        "claims": [
            {"text": HOSTILE[0], "fact_refs": ["calls:AuthService.checkPermission"]},
            {"text": HOSTILE[1], "fact_refs": ["writes:HogosyaEntity", "calls:<b>x</b>"]},
            {"text": HOSTILE[2], "fact_refs": []},
            {"text": "该方法标注了 @Transactional。", "fact_refs": ["annotations:@Transactional"]},
            {
                "text": "它调用 AuthService.checkPermission。",
                "fact_refs": ["calls:AuthService.checkPermission"],
            },
        ],
    }
    return evaluate(FACTS, wiki)


class _Collect(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def test_report_is_self_contained_and_escaped() -> None:
    page = render(_hostile_result())
    parser = _Collect()
    parser.feed(page)
    names = [t for t, _ in parser.tags]
    assert "script" not in names and "img" not in names and "svg" in names  # gauges only
    assert not any(a.startswith("on") for _, attrs in parser.tags for a in attrs)
    assert not re.search(r"(?:src|href)\s*=\s*\"?(?:https?:)?//", page)
    assert "@import" not in page and "url(" not in page
    text = "".join(parser.text)
    for claim in HOSTILE:
        assert claim in text  # shown as text, verbatim
    assert "calls:<b>x</b>" in text


def _chromium() -> str:
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if os.environ.get("CI") == "true":
        pytest.fail("chromium is required in CI (make system-deps installs it)")
    pytest.skip("chromium not installed (make system-deps)")


def _run_chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    profile = tmp_path / "profile"
    profile.mkdir(exist_ok=True)
    cmd = [
        _chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-extensions",
        f"--user-data-dir={profile}", *args,
    ]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


@pytest.mark.slow
def test_chromium_shows_gauges_claims_and_no_injection(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.write_text(render(_hostile_result()), "utf-8")
    done = _run_chromium(tmp_path, "--dump-dom", report.as_uri())
    dom = done.stdout
    assert "<main>" in dom, done.stderr[-2000:]
    # nothing the model wrote became markup or ran
    assert "data-pwned" not in dom.split("<main>")[0].split("<body")[1].split(">")[0]
    assert "<img" not in dom and "<script" not in dom
    assert "&lt;script&gt;document.body.setAttribute" in dom
    # verdict and the four gauges with their states
    assert re.search(r'id="verdict">FAIL<', dom)
    states = dict(re.findall(r'data-metric="(\w+)" data-value="[\d.]+" data-state="(\w+)"', dom))
    assert states == {
        "faithfulness": "fail",
        "hallucination_rate": "fail",
        "key_fact_recall": "fail",
        "redundancy_rate": "fail",
    }
    # every claim is a row, colour-coded by its worst violation
    rows = re.findall(r'<tr class="claim (\w+)" data-index="(\d)" data-reasons="([\w ]*)"', dom)
    assert [(level, int(i)) for level, i, _ in rows] == [
        ("ok", 0),
        ("bad", 1),
        ("bad", 2),
        ("ok", 3),
        ("dull", 4),
    ]
    assert rows[2][2].split() == ["missing_ref", "over_inference"]
    assert rows[4][2].split() == ["redundant"]


@pytest.mark.slow
def test_chromium_screenshot(tmp_path: Path) -> None:
    report = tmp_path / "report.html"
    report.write_text(render(_hostile_result()), "utf-8")
    shot = tmp_path / "shot.png"
    _run_chromium(tmp_path, f"--screenshot={shot}", "--window-size=1200,900", report.as_uri())
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 20_000  # a rendered page, not blank
    out = os.environ.get("GENLINT_SCREENSHOT_DIR")
    if out:  # keep it for a human to look at
        shutil.copy(shot, Path(out) / "eval-report.png")
