"""Headless Chromium and LibreOffice for the tests of what people open (the HTML report, the
review copies). ``make system-deps`` installs both; without them a test is skipped locally and
fails in CI."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest


def _tool(*names: str) -> str:
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("CI") == "true":
        pytest.fail(f"{names[0]} is required in CI (make system-deps installs it)")
    pytest.skip(f"{names[0]} not installed (make system-deps)")


def chromium(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run headless Chromium with a fresh profile and no network chatter (NOTES.md "Browsers")."""
    profile = tmp_path / "chromium-profile"
    profile.mkdir(exist_ok=True)
    cmd = [
        _tool("chromium", "chromium-browser"), "--headless", "--no-sandbox", "--disable-gpu",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--no-first-run", "--disable-extensions", f"--user-data-dir={profile}", *args,
    ]  # fmt: skip
    return subprocess.run(cmd, capture_output=True, text=True, timeout=120, check=False)


def libreoffice_pdf(source: Path, out_dir: Path) -> Path:
    """``source`` converted to PDF by headless LibreOffice, comments exported as PDF notes."""
    profile = out_dir / "lo-profile"
    cmd = [
        _tool("soffice", "libreoffice"), "--headless", "--norestore",
        f"-env:UserInstallation={profile.as_uri()}",
        '--convert-to', 'pdf:writer_pdf_Export:{"ExportNotes":{"type":"boolean","value":"true"}}',
        "--outdir", str(out_dir), str(source),
    ]  # fmt: skip
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=180, check=False)
    target = out_dir / (source.stem + ".pdf")
    assert done.returncode == 0 and target.is_file(), done.stderr[-2000:]
    return target
