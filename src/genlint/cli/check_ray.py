"""``genlint check --engine ray``: the same check and output, run by a Ray cluster.

Without ``--out`` the results come back to this process and are rendered exactly as the local
engines render them. With ``--out FILE.parquet`` Ray's workers write the finding rows
themselves, as a Parquet dataset (a folder of parts, readable as one table); only a small
summary per file comes back here.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from ..errors import InputError

if TYPE_CHECKING:
    from ..check import CheckReport


def run_on_ray(
    paths: list[str],
    settings: tuple[Any, Any, Any, Any],
    *,
    fmt: str,
    out_path: str | None,
    address: str | None,
    jobs: int | None,
) -> tuple[CheckReport, int]:
    """The report of the files checked on a Ray cluster and the number of findings; the caller
    (cli/check.py) formats it, so this module does not import the command back."""
    from ..batch import ray_engine, ray_files
    from ..check import Checker, CheckReport
    from ..readers import expand_paths
    from .progress import progress_bar

    checker = Checker(*settings)  # an unknown rule fails here, before a cluster starts
    files = expand_paths(paths)
    if "-" in files:
        raise InputError("--engine ray reads files, not standard input")
    parts: str | None = None
    if fmt == "parquet":
        assert out_path is not None
        parts = _parts_folder(out_path, files)
    _quiet_ray()
    with _children_write_to_stderr():
        started = ray_engine.connect(address, jobs)
    try:
        with progress_bar("checking", len(files)) as advance:
            results, total = ray_files.run_files(files, settings, out_dir=parts, progress=advance)
        if parts is not None:
            assert out_path is not None
            ray_engine.publish_dir(parts, out_path)
            parts = None
    finally:
        if parts is not None:  # interrupted or failed: no half-written output stays behind
            import shutil

            shutil.rmtree(parts, ignore_errors=True)
        if started:
            import ray

            ray.shutdown()
    return CheckReport(files=results, rules=checker.rules), total


def _parts_folder(out_path: str, files: list[str]) -> str:
    """A new hidden folder beside ``out_path`` for the workers' parts (never a fixed name in a
    shared temporary folder), after the checks every output gets."""
    target = os.path.realpath(out_path)
    folder = os.path.dirname(target)
    if not os.path.isdir(folder):
        raise InputError(f"{out_path}: folder {folder} does not exist")
    for source in files:
        with contextlib.suppress(OSError):
            if os.path.exists(target) and os.path.samefile(source, target):
                raise InputError(f"{out_path}: is one of the inputs; refusing to overwrite it")
    if os.path.exists(target) and not (os.path.isdir(target) or os.path.isfile(target)):
        raise InputError(f"{out_path}: not a regular file; refusing to replace it")
    parts = tempfile.mkdtemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=folder)
    # mkdtemp makes it private; the published dataset gets the umask's mode, as a file would
    mask = os.umask(0o022)
    os.umask(mask)
    os.chmod(parts, 0o777 & ~mask)
    return parts


@contextlib.contextmanager
def _children_write_to_stderr() -> Iterator[None]:
    """Standard output (file descriptor 1) points at stderr while Ray starts or stops: the
    processes it starts (GCS, raylet, workers) inherit that descriptor and print their log lines
    there, also when Ctrl-C reaches them, and genlint's stdout stays the one report."""
    import sys

    sys.stdout.flush()
    try:
        saved = os.dup(1)
    except OSError:  # no standard output at all: nothing to keep clean
        yield
        return
    os.dup2(2, 1)
    try:
        yield
    finally:
        os.dup2(saved, 1)
        os.close(saved)


def _quiet_ray() -> None:
    """Ray logs its start-up and each run on stderr; genlint's stderr is for genlint's own
    lines (``--debug`` shows everything)."""
    import logging

    if logging.getLogger().level <= logging.DEBUG:
        return
    for name in ("ray", "ray.data", "ray._private", "ray.data._internal"):
        logging.getLogger(name).setLevel(logging.ERROR)
