"""An unreachable --ray-address is one clear line and exit 2, fast."""

from __future__ import annotations

import socket
import time
from pathlib import Path

import pytest

from genlint.cli.main import main

pytest.importorskip("ray", reason="the ray extra is not installed")


def test_unreachable_ray_address(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    with socket.socket() as s:  # a port nothing listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    doc = tmp_path / "a.txt"
    doc.write_text("某某公司\n", "utf-8")
    t = time.monotonic()
    code = main(["check", str(doc), "--engine", "ray", "--ray-address", f"127.0.0.1:{port}"])
    err = capsys.readouterr().err
    assert code == 2 and time.monotonic() - t < 30
    assert err.count("\n") == 1 and f"cannot reach the Ray cluster at 127.0.0.1:{port}" in err


def test_ray_address_needs_ray_engine(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    doc = tmp_path / "a.txt"
    doc.write_text("x\n", "utf-8")
    assert main(["check", str(doc), "--ray-address", "127.0.0.1:1"]) == 2
    assert "--engine ray" in capsys.readouterr().err
