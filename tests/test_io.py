"""``read_bytes``: a file is read whole, to the byte, whatever its stat said, and never past
the cap (genlint/_io.py; the reads of every command go through it)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from genlint import _io
from genlint._io import read_bytes
from genlint.errors import InputError


@settings(max_examples=60, deadline=None)
@given(data=st.binary(max_size=5000), extra=st.integers(min_value=0, max_value=3))
def test_a_file_is_read_to_the_byte_up_to_the_cap(
    tmp_path_factory: pytest.TempPathFactory, data: bytes, extra: int
) -> None:
    path = tmp_path_factory.mktemp("io") / "f.bin"
    path.write_bytes(data)
    assert read_bytes(path, limit=max(1, len(data) + extra)) == data
    if len(data) > 1:
        with pytest.raises(InputError, match="limit"):
            read_bytes(path, limit=len(data) - 1)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="/proc is Linux's")
def test_a_file_whose_stat_says_empty_is_read_whole() -> None:
    # /proc files report st_size 0 and hold text: the read must not stop at the stat's size
    got = read_bytes("/proc/self/status")
    assert got.startswith(b"Name:") and len(got) > 100


@pytest.mark.parametrize("stated", [0, 10, 99])
def test_a_file_that_grew_after_its_stat_is_read_on_to_the_cap(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, stated: int
) -> None:
    path = tmp_path / "grown.txt"
    path.write_bytes(b"x" * 100)
    real = os.stat(path)
    shrunk = os.stat_result((*real[:6], stated, *real[7:]))
    monkeypatch.setattr(_io.os, "stat", lambda p, *a, **k: shrunk)
    assert read_bytes(path, limit=100) == b"x" * 100
    with pytest.raises(InputError, match="limit"):
        read_bytes(path, limit=50)
