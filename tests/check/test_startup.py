"""`genlint check small.txt --format json` stays light: no heavy module on that path."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

HEAVY = ("pydantic", "pypdf", "docx", "rich", "numpy", "jsonschema", "openai", "charset_normalizer")


def test_text_check_imports_nothing_heavy(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("甲方：某某公司\n", "utf-8")
    code = (
        "import sys\n"
        "from genlint.cli.main import main\n"
        f"code = main(['check', {str(small)!r}, '--format', 'json'])\n"
        f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
        "sys.stderr.write(f'{code} {heavy}')\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stderr == "1 []"
    assert '"某某公司"' in out.stdout


def test_text_check_starts_fast(tmp_path: Path) -> None:
    small = tmp_path / "small.txt"
    small.write_text("甲方：某某公司\n", "utf-8")
    cmd = [sys.executable, "-m", "genlint", "check", str(small), "--format", "json"]
    best = float("inf")
    for _ in range(3):
        t = time.perf_counter()
        subprocess.run(cmd, capture_output=True, check=False)
        best = min(best, time.perf_counter() - t)
    # target 0.3 s; 3x margin for a loaded machine
    assert best < 0.9, f"genlint check took {best:.3f}s"
