"""Small I/O helpers shared by every command: reading input, writing atomically."""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
from pathlib import Path

from .errors import InputError


def atomic_write(path: str | os.PathLike[str], data: str | bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file in the same folder and a rename,
    so a reader never sees a half-written file and a crash never destroys the old one."""
    target = Path(path)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = target.parent if str(target.parent) else Path(".")
    if not directory.is_dir():
        raise InputError(f"{target}: folder {directory} does not exist")
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if target.exists():
            os.chmod(tmp, target.stat().st_mode & 0o7777)
        os.replace(tmp, target)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


def read_bytes(path: str | os.PathLike[str]) -> bytes:
    """Bytes of a file, or of standard input for ``-``; a clear InputError otherwise."""
    if str(path) == "-":
        return sys.stdin.buffer.read()
    p = Path(path)
    if not p.exists():
        raise InputError(f"{p}: no such file")
    if p.is_dir():
        raise InputError(f"{p}: is a folder, expected a file")
    try:
        return p.read_bytes()
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from exc


def read_text(path: str | os.PathLike[str]) -> str:
    """UTF-8 text (BOM stripped) of a file or of standard input for ``-``."""
    raw = read_bytes(path)
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from exc


def read_json(path: str | os.PathLike[str]) -> object:
    """Parse a JSON file strictly; the error names the file, line and column."""
    import json

    text = read_text(path)
    try:
        return json.loads(text)
    except json.JSONDecodeError as exc:
        raise InputError(f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}") from exc
