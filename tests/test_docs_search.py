"""The docs site's search finds Chinese words: the built site, its real lunr and search worker,
queried in headless Chromium (Debian chromium, installed by `make test`'s system-deps)."""

from __future__ import annotations

import functools
import http.server
import json
import re
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MKDOCS = Path(sys.executable).with_name("mkdocs")
HARNESS = ROOT / "tests" / "support" / "search_harness.html"


def _build(site: Path, hooks: bool) -> Path:
    import yaml

    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text("utf-8"))
    config["docs_dir"] = str(ROOT / "docs")
    if hooks:
        config["hooks"] = [str(ROOT / h) for h in config["hooks"]]
    else:
        config.pop("hooks")
    config_file = site.with_suffix(".yml")
    config_file.write_text(yaml.safe_dump(config, allow_unicode=True), "utf-8")
    done = subprocess.run(
        [str(MKDOCS), "build", "--quiet", "-f", str(config_file), "-d", str(site)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    shutil.copy(HARNESS, site / "search-harness.html")
    return site


@pytest.fixture(scope="module")
def sites(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    if shutil.which("chromium") is None:
        pytest.fail("chromium is missing: run `make system-deps`")
    root = tmp_path_factory.mktemp("sites")
    _build(root / "with", hooks=True)
    _build(root / "without", hooks=False)
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(root))
    handler.log_message = lambda *a: None  # type: ignore[method-assign]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield {"with": f"{base}/with", "without": f"{base}/without", "profile": str(root)}
    finally:
        server.shutdown()


def _search(site: str, profile: str, query: str) -> list[str]:
    from urllib.parse import quote

    done = subprocess.run(
        [
            "chromium",
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            f"--user-data-dir={profile}/chromium",
            "--dump-dom",
            f"{site}/search-harness.html?q={quote(query)}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    m = re.search(r"RESULTS:(\[.*?\])</pre>", done.stdout)
    assert m, done.stdout[-2000:] + done.stderr[-2000:]
    found: list[str] = json.loads(m.group(1))
    return found


@pytest.mark.parametrize(
    ("query", "page"),
    [
        ("身份证", "rules/#sensitiveresident-id"),
        ("盖章", "commands/check/"),
        ("某某", "rules/#placeholdermou-mou"),
        ("placeholder", "commands/check/#what-a-placeholder-is"),
    ],
)
def test_search_finds_chinese_words(sites: dict[str, str], query: str, page: str) -> None:
    assert page in _search(sites["with"], sites["profile"], query)


def test_without_the_hook_chinese_finds_nothing(sites: dict[str, str]) -> None:
    # the test can fail: lunr alone trims Chinese away
    assert _search(sites["without"], sites["profile"], "身份证") == []
    assert _search(sites["without"], sites["profile"], "placeholder")
