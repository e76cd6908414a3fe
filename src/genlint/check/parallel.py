"""Check many files in several processes: ``genlint check --jobs N``.

The pool itself (workers, retries, Ctrl-C) is :mod:`genlint._pool`, shared with ``eval`` and
``mask``; this module says what a check of one file is, which files the driver may check
itself, and how a file that killed its worker is reported.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from .. import _pool
from .._pool import resolve_jobs
from .report import FileResult

if TYPE_CHECKING:
    from .engine import Checker

__all__ = ["check_files_parallel", "resolve_jobs"]

# (select, ignore, config, options): everything a worker needs to build the same Checker
Settings = tuple[Any, Any, Any, Any]

# read by pure-Python readers: no native library to crash in them
_PLAIN = frozenset((".txt", ".text", ".md", ".markdown", ".json"))
# a bigger file is checked by a worker: a file that exhausts memory must not take the driver
# (and every result it holds) with it
_DRIVER_MAX_BYTES = 1 << 20


def checker_for(settings: Settings) -> Callable[[str], FileResult]:
    """A worker's check of one path, its Checker built once (``_pool.Job.setup``)."""
    from . import engine  # looked up now, so a test can replace engine.check_file

    return functools.partial(engine.check_file, engine.Checker(*settings))


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
    progress: Callable[[int], None] | None = None,
    checker: Checker | None = None,
    worker: _pool.Serve | None = None,
    help_workers: bool = True,
) -> list[FileResult]:
    """Each file's :class:`FileResult`, in the order of ``files``, checked by ``jobs``
    processes (this one among them). Standard input (``-``) is read here: a worker cannot read
    the driver's stdin. ``checker``: this process's, when the caller built one already;
    ``worker`` replaces the worker loop (tests use it to kill workers on purpose)."""
    from .engine import Checker, check_file

    own = checker
    results: list[FileResult | None] = [None] * len(files)
    stdin = [i for i, path in enumerate(files) if path == "-"]
    if stdin:
        own = own or Checker(*settings)
        for i in stdin:
            results[i] = check_file(own, files[i])
            if progress is not None:
                progress(1)
    rest = [i for i, path in enumerate(files) if path != "-"]
    job: _pool.Job[str, FileResult] = _pool.Job(
        setup=checker_for,
        settings=settings,
        noun="file",
        died=_died,
        retried=_retried,
        local=driver_may_check,
        run_local=functools.partial(check_file, own) if own is not None else None,
    )
    done = (lambda index: progress(1)) if progress is not None else None
    checked = _pool.run(
        [files[i] for i in rest], job, jobs, done=done, worker=worker, help_workers=help_workers
    )
    for i, result in zip(rest, checked, strict=True):
        results[i] = result
    return [r for r in results if r is not None]
