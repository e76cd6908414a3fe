"""Check many files in several processes: ``genlint check --jobs N``.

The pool itself (workers, retries, Ctrl-C) is :mod:`genlint._pool`, shared with ``eval`` and
``mask``; this module says what a check of one file is, which files the driver may check
itself, and how a file that killed its worker is reported.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from .. import _pool
from .._pool import resolve_jobs
from .report import FileResult

__all__ = ["check_files_parallel", "resolve_jobs"]

# (select, ignore, config, options): everything a worker needs to build the same Checker
Settings = tuple[Any, Any, Any, Any]

# read by pure-Python readers: no native library to crash in them
_PLAIN = frozenset((".txt", ".text", ".md", ".markdown", ".json"))
# a bigger file is checked by a worker: a file that exhausts memory must not take the driver
# (and every result it holds) with it
_DRIVER_MAX_BYTES = 1 << 20


def driver_may_check(path: str) -> bool:
    """Plain text of a bounded size: safe to check in the driver itself."""
    if os.path.splitext(path)[1].lower() not in _PLAIN:
        return False
    try:
        return os.stat(path).st_size <= _DRIVER_MAX_BYTES
    except OSError:  # missing or unreadable: reported as such wherever it is read
        return True


def _died(path: str, how: str) -> FileResult:
    return FileResult(
        path, error=f"{path}: a worker process died twice while checking this file ({how})"
    )


def _retried(result: FileResult) -> FileResult:
    result.warnings.append("a worker process died while checking this file; it was checked again")
    return result


def check_files_parallel(
    files: Sequence[str],
    settings: Settings,
    jobs: int,
    *,
    setup: Callable[[Settings], Callable[[str], FileResult]],
    check_here: Callable[[str], FileResult] | None = None,
    progress: Callable[[int], None] | None = None,
    worker: _pool.Serve | None = None,
    help_workers: bool = True,
) -> list[FileResult]:
    """Each file's :class:`FileResult`, in the order of ``files``, checked by ``jobs``
    processes (this one among them). ``setup(settings)`` builds a worker's check of one path
    (a module-level function: it is sent to the workers by name); the engine passes it, so this
    module never imports the engine back (docs/architecture.md). ``check_here``: this process's
    check, for standard input (``-``, which a worker cannot read) and the small plain files the
    driver may check itself; without it every file goes to a worker and ``-`` is refused.
    ``worker`` replaces the worker loop (tests use it to kill workers on purpose)."""
    results: list[FileResult | None] = [None] * len(files)
    stdin = [i for i, path in enumerate(files) if path == "-"]
    if stdin and check_here is None:
        raise ValueError("standard input is checked in this process: pass check_here")
    for i in stdin:
        assert check_here is not None
        results[i] = check_here(files[i])
        if progress is not None:
            progress(1)
    rest = [i for i, path in enumerate(files) if path != "-"]
    job: _pool.Job[str, FileResult] = _pool.Job(
        setup=setup,
        settings=settings,
        noun="file",
        died=_died,
        retried=_retried,
        local=driver_may_check,
        run_local=check_here,
    )
    done = (lambda index: progress(1)) if progress is not None else None
    checked = _pool.run(
        [files[i] for i in rest], job, jobs, done=done, worker=worker, help_workers=help_workers
    )
    for i, result in zip(rest, checked, strict=True):
        results[i] = result
    return [r for r in results if r is not None]
