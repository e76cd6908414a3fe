"""Small I/O helpers shared by every command: reading input, writing atomically."""

from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import BinaryIO

from .errors import InputError


def atomic_write(
    path: str | os.PathLike[str],
    data: str | bytes,
    *,
    inputs: Iterable[str | os.PathLike[str]] = (),
    mode: int | None = None,
) -> None:
    """The one way genlint writes an output file.

    Writes through a temporary file in the same folder and a rename, so a reader never sees a
    half-written file and a crash never destroys the old one. Refuses (InputError) to replace
    anything that is not a regular file (a device, a FIFO, a folder) and a file that is one of
    ``inputs``. A symbolic link is followed: the file it points to is replaced and the link
    stays. A replaced file keeps its mode; a new one gets the umask's mode, as ``open`` would.
    ``mode`` (e.g. ``0o600`` for a token vault) is the file's mode from its first byte on: the
    temporary file is created 0600 and only widened to ``mode``.
    """
    target = Path(os.path.realpath(path))  # a link: write where it points
    payload = data.encode("utf-8") if isinstance(data, str) else data
    directory = target.parent
    if not directory.is_dir():
        raise InputError(f"{path}: folder {directory} does not exist")
    try:
        st = target.stat()
    except FileNotFoundError:
        st = None
    if st is not None and not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise InputError(f"{path}: {kind}; refusing to replace it")
    if st is not None and any(_same_file(source, target) for source in inputs):
        raise InputError(f"{path}: is one of the inputs; refusing to overwrite it")
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=directory)
    except OSError as exc:  # a folder we may not write in, a read-only or full file system
        raise InputError(f"{path}: cannot write ({exc.strerror or exc})") from None
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(payload)
            fh.flush()
            os.fsync(fh.fileno())
        if mode is not None:
            os.chmod(tmp, mode)
        else:
            os.chmod(tmp, stat.S_IMODE(st.st_mode) if st is not None else 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError):  # the disk filled up, the file system turned read-only
            raise InputError(f"{path}: cannot write ({exc.strerror or exc}); "
                             "nothing was replaced") from None
        raise


def _same_file(a: str | os.PathLike[str], b: Path) -> bool:
    return str(a) != "-" and os.path.exists(a) and os.path.samefile(a, b)


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def to_json(value: object, *, pretty: bool = True) -> str:
    """The one JSON writer of every command: UTF-8 text with CJK as it is, a final newline;
    ``pretty`` indents by two spaces."""
    import orjson

    option = orjson.OPT_INDENT_2 if pretty else 0
    try:
        return orjson.dumps(value, option=option).decode("utf-8") + "\n"
    except TypeError:
        # a lone surrogate (half an emoji from a model) is no UTF-8: write it as its \u escape,
        # which JSON allows, instead of losing the whole document
        import json
        import re

        text = json.dumps(value, ensure_ascii=False, indent=2 if pretty else None, default=str)
        return re.sub("[\ud800-\udfff]", lambda m: f"\\u{ord(m.group()):04x}", text) + "\n"


def env_megabytes(name: str, default: float) -> int:
    """A size limit in bytes from the environment variable ``name`` (megabytes, e.g. ``256``
    or ``0.5``; ``default`` when unset or empty); InputError for anything that is not a finite
    positive number (``abc``, ``nan``, ``inf``, ``-5``, ``1e400``)."""
    import math

    raw = os.environ.get(name, "").strip()
    try:
        megabytes = float(raw) if raw else float(default)
    except ValueError:
        megabytes = math.nan
    if not math.isfinite(megabytes) or megabytes <= 0 or megabytes > 1 << 30:
        raise InputError(
            f"{name} must be a positive number of megabytes (at most {1 << 30}), got {raw[:40]!r}"
        )
    return max(1, int(megabytes * 1024 * 1024))


def max_file_bytes() -> int:
    """The most genlint reads from one input: ``GENLINT_MAX_FILE_MB`` (default 256) MiB."""
    return env_megabytes("GENLINT_MAX_FILE_MB", 256)


def read_bytes(path: str | os.PathLike[str], limit: int | None = None) -> bytes:
    """Bytes of a regular file, or of standard input for ``-``, at most ``limit`` bytes
    (default :func:`max_file_bytes`); a clear InputError otherwise.

    Only regular files are opened: a device (``/dev/zero``), a FIFO or a socket would block or
    never end, so it is refused without being opened."""
    cap = max_file_bytes() if limit is None else limit
    if str(path) == "-":
        return _capped(sys.stdin.buffer, cap, "standard input")
    p = Path(path)  # for the messages; os.stat and open take the path as given (cheaper)
    try:
        st = os.stat(path)
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from None
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{p}: is a folder, expected a file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{p}: not a regular file (a device, FIFO or socket); skipped")
    if st.st_size > cap:
        raise InputError(
            f"{p}: {st.st_size:,} bytes is over the {cap:,}-byte limit (GENLINT_MAX_FILE_MB)"
        )
    try:
        with open(path, "rb") as fh:
            return _capped(fh, cap, str(p), st.st_size)
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror or exc})") from exc


def _capped(stream: BinaryIO, cap: int, name: str, size: int | None = None) -> bytes:
    """At most ``cap`` bytes of ``stream``; ``size``: what the file's stat said it holds."""
    if size is None or size >= cap:
        data = stream.read(cap + 1)
    else:
        # read(cap + 1) would allocate the whole cap (256 MB) for every small file, which
        # cost more than reading it; a file that grew since its stat (or a /proc file, whose
        # stat says 0) is read on up to the cap
        data = stream.read(size + 1)
        if len(data) > size:
            data += stream.read(cap + 1 - len(data))
    if len(data) > cap:
        raise InputError(f"{name}: more than the {cap:,}-byte limit (GENLINT_MAX_FILE_MB)")
    return data


def read_text(path: str | os.PathLike[str]) -> str:
    """UTF-8 text (BOM stripped) of a file or of standard input for ``-``."""
    return utf8_text(path, read_bytes(path))


def utf8_text(path: str | os.PathLike[str], raw: bytes) -> str:
    """``raw`` (read from ``path``) as UTF-8 text, BOM stripped; InputError when it is not."""
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text (byte {exc.start})") from exc


#: the longest number a JSON input may hold: Python refuses to convert an integer of more than
#: 4,300 digits (and converting one is quadratic), which would be an internal error
MAX_JSON_NUMBER_CHARS = 4000


def _bounded_int(text: str) -> int:
    if len(text) > MAX_JSON_NUMBER_CHARS:
        raise InputError(f"a number of {len(text):,} digits (at most {MAX_JSON_NUMBER_CHARS:,})")
    return int(text)


def loads_json(text: str | bytes) -> object:
    """``json.loads`` with every input-driven cost bounded: numbers of at most
    :data:`MAX_JSON_NUMBER_CHARS` digits (InputError), nesting within the recursion limit
    (RecursionError for the caller to name)."""
    import json

    return json.loads(text, parse_int=_bounded_int)


def read_json(path: str | os.PathLike[str]) -> object:
    """Parse a JSON file strictly; the error names the file, line and column."""
    import json

    text = read_text(path)
    try:
        return loads_json(text)
    except json.JSONDecodeError as exc:
        raise InputError(
            f"{path}: invalid JSON at line {exc.lineno} column {exc.colno}: {exc.msg}"
        ) from exc
    except RecursionError:
        raise InputError(f"{path}: JSON nested too deeply to read") from None
    except InputError as exc:
        raise InputError(f"{path}: {exc}") from None
