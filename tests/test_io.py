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


@pytest.mark.parametrize("raw", ["abc", "nan", "inf", "-inf", "-5", "0", "1e400", "  "])
def test_a_bad_size_limit_in_the_environment_is_one_clear_error(
    raw: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    from genlint._io import env_megabytes
    from genlint.errors import InputError

    monkeypatch.setenv("GENLINT_MAX_FILE_MB", raw)
    if not raw.strip():  # empty: the default
        assert env_megabytes("GENLINT_MAX_FILE_MB", 256) == 256 * 1024 * 1024
        return
    with pytest.raises(InputError, match="GENLINT_MAX_FILE_MB must be a positive number"):
        env_megabytes("GENLINT_MAX_FILE_MB", 256)


@pytest.mark.parametrize(
    ("where", "error"),
    [("tempfile.mkstemp", PermissionError(13, "Permission denied")),
     ("os.replace", OSError(28, "No space left on device")),
     ("os.fsync", OSError(122, "Disk quota exceeded"))],
)
def test_a_write_the_system_refuses_is_input_error_and_leaves_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, where: str, error: OSError
) -> None:
    from genlint._io import atomic_write
    from genlint.errors import InputError

    def refuse(*args: object, **kwargs: object) -> None:
        raise error

    monkeypatch.setattr(where, refuse)
    target = tmp_path / "out.json"
    target.write_text("old", encoding="utf-8")
    with pytest.raises(InputError, match="cannot write"):
        atomic_write(target, "new")
    assert target.read_text(encoding="utf-8") == "old"
    assert [p.name for p in tmp_path.iterdir()] == ["out.json"], "no temporary file is left"


def test_json_numbers_are_bounded_not_a_value_error() -> None:
    from genlint._io import MAX_JSON_NUMBER_CHARS, loads_json
    from genlint.errors import InputError

    assert loads_json("[" + "9" * MAX_JSON_NUMBER_CHARS + "]") == [int("9" * MAX_JSON_NUMBER_CHARS)]
    with pytest.raises(InputError, match="5,000 digits"):
        loads_json("[" + "9" * 5000 + "]")
