"""Check many files in worker processes: ``genlint check --jobs N``.

A small pool of our own rather than ``concurrent.futures``: when a worker dies (killed by the
out-of-memory killer, a crash in a native PDF library) we must know *which* files it held, so
that only those are retried, once, and a file that kills a worker twice is reported for itself
while every other file keeps its findings. ``ProcessPoolExecutor`` fails every pending future
instead.

Workers start with ``spawn`` (never ``fork``: the driver may hold threads and locks) and build
their own :class:`Checker` once; the driver hands out chunks of paths and receives one
:class:`FileResult` per file, so the report is assembled in input order whatever order the
workers finish in. Workers ignore SIGINT: on Ctrl-C the driver alone stops them, so there is
no traceback per worker and nothing half-written.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import signal
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..errors import GenlintError, InputError
from .report import FileResult

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["check_files_parallel", "resolve_jobs"]

log = logging.getLogger(__name__)

# (select, ignore, config, options): everything a worker needs to build the same Checker
Settings = tuple[Any, Any, Any, Any]

# a worker that dies before it is ready this many times means workers cannot start at all
_MAX_START_FAILURES = 3


def resolve_jobs(value: str | int | None) -> int:
    """``--jobs`` as a number of processes: ``auto`` is one per usable CPU."""
    if value is None:
        return 1
    if isinstance(value, str):
        if value.strip().lower() == "auto":
            return _cpu_count()
        try:
            value = int(value)
        except ValueError:
            raise InputError(f"--jobs must be a number or 'auto', not {value!r}") from None
    if value < 1:
        raise InputError(f"--jobs must be at least 1, not {value}")
    return value


def _cpu_count() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # the CPUs this process may use
    except AttributeError:  # macOS, Windows
        return max(1, os.cpu_count() or 1)


@dataclass
class _Item:
    index: int
    path: str
    attempts: int = 0


@dataclass
class _Worker:
    process: Any
    conn: Connection
    ready: bool = False
    task: deque[_Item] = field(default_factory=deque)


def _serve(conn: Connection, settings: Settings) -> None:
    """Worker loop: build the Checker once, then check each chunk of paths it is sent."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver decides when to stop
    from .engine import Checker, check_file

    select, ignore, config, options = settings
    checker = Checker(select, ignore, config, options)
    conn.send(("ready", None, None))
    while True:
        try:
            chunk = conn.recv()
        except EOFError:
            return
        if chunk is None:
            return
        for index, path in chunk:
            conn.send(("file", index, check_file(checker, path)))


def check_files_parallel(
    files: Sequence[str],
    settings: Settings,
    jobs: int,
    *,
    progress: Callable[[int], None] | None = None,
    worker: Callable[[Connection, Settings], None] | None = None,
) -> list[FileResult]:
    """Each file's :class:`FileResult`, in the order of ``files``, checked by ``jobs`` worker
    processes. Standard input (``-``) is read here: a worker cannot read the driver's stdin.
    ``worker`` replaces the worker loop (tests use it to kill workers on purpose)."""
    results: list[FileResult | None] = [None] * len(files)
    queue = deque(_Item(i, path) for i, path in enumerate(files) if path != "-")
    local = [i for i, path in enumerate(files) if path == "-"]
    if local:
        from .engine import Checker, check_file

        checker = Checker(*settings)
        for i in local:
            results[i] = check_file(checker, files[i])
            if progress is not None:
                progress(1)
    # chunks small enough to balance uneven files (one big PDF), big enough to keep the
    # messages per file few: about four chunks per worker, at most 16 files each
    size = max(1, min(16, math.ceil(len(queue) / (jobs * 4))))
    pool = _Pool(settings, min(jobs, len(queue)), size, results, progress, worker or _serve)
    pool.run(queue)
    missing = [files[i] for i, r in enumerate(results) if r is None]
    if missing:  # a bug, not bad input: never return a report that silently lacks a file
        raise GenlintError(f"no result for {len(missing)} file(s), first {missing[0]}")
    return [r for r in results if r is not None]


class _Pool:
    def __init__(
        self,
        settings: Settings,
        size: int,
        chunk: int,
        results: list[FileResult | None],
        progress: Callable[[int], None] | None,
        serve: Callable[[Connection, Settings], None],
    ) -> None:
        import multiprocessing  # here, not at import: `genlint check` on one file needs none

        self.context = multiprocessing.get_context("spawn")
        self.serve = serve
        self.settings = settings
        self.size = size
        self.chunk = chunk
        self.results = results
        self.progress = progress
        self.workers: list[_Worker] = []
        self.start_failures = 0

    def _start(self) -> _Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(
            target=self.serve, args=(theirs, self.settings), name="genlint-check", daemon=True
        )
        # the child inherits an ignored SIGINT across exec, so a Ctrl-C while it is still
        # importing cannot print a traceback from it; only the main thread may set handlers
        import threading

        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            process.start()
        finally:
            if main and previous is not None:
                signal.signal(signal.SIGINT, previous)
        theirs.close()  # only the worker holds its end: its death then reads as EOF here
        return _Worker(process, ours)

    def run(self, queue: deque[_Item]) -> None:
        if not queue:
            return
        try:
            self.workers = [self._start() for _ in range(self.size)]
            self._loop(queue)
        except BaseException:
            self._stop(now=True)  # Ctrl-C or an error: no reason to let workers finish
            raise
        self._stop()

    def _loop(self, queue: deque[_Item]) -> None:
        from multiprocessing.connection import wait

        while queue or any(w.task for w in self.workers):
            for worker in self.workers:
                # the next chunk is sent before the current one ends, so a worker never waits
                # for the driver between chunks
                if worker.ready and len(worker.task) < self.chunk and queue:
                    chunk = [queue.popleft() for _ in range(min(self.chunk, len(queue)))]
                    # a file being retried goes alone, so it cannot take others down with it
                    if chunk[0].attempts:
                        queue.extendleft(reversed(chunk[1:]))
                        chunk = chunk[:1]
                    worker.task.extend(chunk)
                    # a worker that just died: wait() below sees its end closed and requeues
                    with contextlib.suppress(OSError):
                        worker.conn.send([(item.index, item.path) for item in chunk])
            ready = wait([w.conn for w in self.workers])
            for worker in list(self.workers):
                if worker.conn in ready:
                    self._receive(worker, queue)

    def _receive(self, worker: _Worker, queue: deque[_Item]) -> None:
        try:
            kind, index, result = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(worker, queue)
            return
        if kind == "ready":
            worker.ready = True
            return
        item = worker.task.popleft()
        if item.attempts:
            result.warnings.append(
                "a worker process died while checking this file; it was checked again"
            )
        self.results[index] = result
        if self.progress is not None:
            self.progress(1)

    def _replace(self, worker: _Worker, queue: deque[_Item]) -> None:
        """A worker died: report it, retry the file it was on once, requeue the files of its
        chunk that it never started, and start a new worker in its place."""
        worker.process.join(timeout=5)
        code = worker.process.exitcode
        how = f"signal {-code}" if code is not None and code < 0 else f"exit code {code}"
        self.workers.remove(worker)
        worker.conn.close()
        if not worker.ready:
            self.start_failures += 1
            if self.start_failures >= _MAX_START_FAILURES:
                raise GenlintError(f"worker processes cannot start ({how}); try --jobs 1")
        if worker.task:
            culprit = worker.task[0]
            culprit.attempts += 1
            if culprit.attempts >= 2:
                worker.task.popleft()
                self.results[culprit.index] = FileResult(
                    culprit.path,
                    error=f"{culprit.path}: a worker process died twice while checking this "
                    f"file ({how})",
                )
                if self.progress is not None:
                    self.progress(1)
            else:
                log.warning(
                    "a worker process died (%s) while checking %s; checking it again",
                    how,
                    culprit.path,
                )
            queue.extendleft(reversed(worker.task))
        if queue or any(w.task for w in self.workers) or len(self.workers) == 0:
            self.workers.append(self._start())

    def _stop(self, now: bool = False) -> None:
        """Every worker ends here, on success, error or Ctrl-C: none outlives the run."""
        for worker in self.workers:
            if now:
                worker.process.terminate()
                continue
            with contextlib.suppress(OSError):  # already gone: nothing to tell it
                worker.conn.send(None)
        for worker in self.workers:
            worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.terminate()
                worker.process.join(timeout=2)
            if worker.process.is_alive():
                worker.process.kill()
                worker.process.join()
            worker.conn.close()
        self.workers = []
