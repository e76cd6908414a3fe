"""Run one function over many items in several processes: ``--jobs N`` of ``check``,
``eval`` and ``mask``.

A pool of our own rather than ``concurrent.futures``: when a worker dies (the out-of-memory
killer, a crash in a native PDF library) we must know *which* item it held, so that only that
item is retried, once, and an item that kills a worker twice is reported for itself while every
other item keeps its result. ``ProcessPoolExecutor`` fails every pending future instead.

The driver is one of the ``N``: it starts ``N - 1`` workers and runs items itself between
reading their results, so a worker's start-up (a new interpreter importing genlint, ~0.3 s of
CPU) is not time lost, and N processes share N cores rather than N + 1. It takes only items it
may run safely (``Job.local``: for files, plain text of a bounded size); a file that might crash
a native library or exhaust memory goes to a worker, where the damage is contained. When few
items are of that kind it starts N workers.

Workers start with ``spawn`` (never ``fork``: the driver may hold threads and locks) and run
``Job.setup(Job.settings)`` once (a Checker with its compiled rules); chunks are guided (a share
of what is left, so the processes finish together) and each item's result comes back on its
own, so results are returned in input order whatever order the processes finish in. Workers
ignore SIGINT: on Ctrl-C the driver alone stops them, with no traceback per worker.
"""

from __future__ import annotations

import contextlib
import logging
import math
import os
import pickle
import signal
from collections import deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from . import _interrupt
from .errors import GenlintError, InputError

if TYPE_CHECKING:
    from multiprocessing.connection import Connection

__all__ = ["Job", "resolve_jobs", "run", "serve"]

log = logging.getLogger(__name__)

T = TypeVar("T")
R = TypeVar("R")

#: settings -> the function of one item; a module-level function, so it pickles by name
Setup = Callable[[Any], Callable[[Any], Any]]
#: the worker loop (tests replace it to kill workers on purpose)
Serve = Callable[["Connection", Setup, Any, int], None]

# a worker that dies before it is ready this many times means workers cannot start at all
_MAX_START_FAILURES = 3
# the most items in one message to a worker; more would only unbalance the end of a run
_MAX_CHUNK = 16


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
class Job(Generic[T, R]):
    """What to run: ``setup(settings)`` in every process (both pickled to each worker), then
    the function it returns on each item; the other fields stay in the driver."""

    setup: Callable[[Any], Callable[[T], R]]
    settings: Any
    #: what an item is called in messages ("file", "page")
    noun: str = "item"
    describe: Callable[[T], str] = str
    #: the result of an item that killed a worker twice (None: raise a GenlintError)
    died: Callable[[T, str], R] | None = None
    #: a result that needed a second worker, marked as such (None: kept as it is)
    retried: Callable[[R], R] | None = None
    #: items the driver may run itself (None: every item)
    local: Callable[[T], bool] | None = None
    #: the driver's own function of one item, when the caller has one already
    run_local: Callable[[T], R] | None = None


@dataclass
class _Item:
    index: int
    value: Any
    attempts: int = 0


@dataclass
class _Worker:
    process: Any
    conn: Connection
    ready: bool = False
    task: deque[_Item] = field(default_factory=deque)


class _Capture(logging.Handler):
    """Keeps the log records of one item, so they are shown in input order, by the driver,
    through its own handlers (a worker has none: `genlint: warning: …` is the CLI's format)."""

    def __init__(self) -> None:
        super().__init__()
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)

    def take(self, picklable: bool = False) -> list[logging.LogRecord]:
        records, self.records = self.records, []
        if picklable:  # as logging.handlers.QueueHandler prepares a record for another process
            for record in records:
                record.msg = record.getMessage()
                record.args = None
                if record.exc_info:
                    record.exc_text = logging.Formatter().formatException(record.exc_info)
                    record.exc_info = None
        return records


def serve(conn: Connection, setup: Setup, settings: Any, level: int = logging.WARNING) -> None:
    """Worker loop: set up once, then run each item of each chunk it is sent; ``level`` is the
    driver's logging level (records at or above it go back with the item's result)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the driver decides when to stop
    capture = _Capture()
    root = logging.getLogger()
    root.handlers = [capture]
    root.setLevel(level)
    run_one = setup(settings)
    conn.send(("ready", None, None, capture.take(picklable=True)))
    while True:
        try:
            chunk = conn.recv()
        except EOFError:
            return
        if chunk is None:
            # every result is sent and nothing is buffered: skip the interpreter's teardown
            # (a tenth of a second freeing modules, which the driver would wait for)
            conn.close()
            os._exit(0)
        for index, value in chunk:
            try:
                result = run_one(value)
                conn.send(("done", index, result, capture.take(picklable=True)))
            except Exception as exc:  # about the run (an unknown rule), not a dead worker
                try:
                    conn.send(("raised", index, exc, capture.take(picklable=True)))
                except Exception:  # an exception that does not pickle: its words
                    error = GenlintError(f"{type(exc).__name__}: {exc}")
                    conn.send(("raised", index, error, []))


def run(
    items: Sequence[T],
    job: Job[T, R],
    jobs: int,
    *,
    done: Callable[[int], None] | None = None,
    worker: Serve | None = None,
    help_workers: bool = True,
) -> list[R]:
    """Each item's result, in the order of ``items``, from ``jobs`` processes (the driver and
    ``jobs - 1`` workers; ``help_workers=False``: ``jobs`` workers and an idle driver).
    ``done(index)`` is called as each item finishes; ``worker`` replaces the worker loop."""
    if not items:
        return []
    results: list[Any] = [None] * len(items)
    finished = [False] * len(items)
    pool = _Pool(job, results, finished, done, worker or serve)
    local = job.local or (lambda item: True)
    for i, value in enumerate(items):
        if help_workers and local(value):
            pool.mine.append(_Item(i, value))
        else:
            pool.theirs.append(_Item(i, value))
    # the driver is one of the processes when it has its share of work to do
    helping = help_workers and len(pool.mine) * jobs >= len(items)
    size = jobs - 1 if helping else jobs
    with _interrupt.recording():
        pool.run(max(1, min(size, len(items))))
    missing = [job.describe(items[i]) for i, ok in enumerate(finished) if not ok]
    if missing:  # a bug, not bad input: never return results that silently lack an item
        raise GenlintError(f"no result for {len(missing)} {job.noun}(s), first {missing[0]}")
    return results


class _Pool:
    def __init__(
        self,
        job: Job[Any, Any],
        results: list[Any],
        finished: list[bool],
        done: Callable[[int], None] | None,
        serve: Serve,
    ) -> None:
        import multiprocessing  # here, not at import: one file needs no pool

        self.context = multiprocessing.get_context("spawn")
        self.job = job
        self.serve = serve
        self.results = results
        self.finished = finished
        self.done = done
        self.mine: deque[_Item] = deque()  # the driver takes from the back, workers the front
        self.theirs: deque[_Item] = deque()
        self.retry: deque[_Item] = deque()  # items whose worker died: never in the driver
        self.workers: list[_Worker] = []
        self.start_failures = 0
        self.run_local = job.run_local
        self.level = logging.getLogger().getEffectiveLevel()
        self.records: dict[int, list[logging.LogRecord]] = {}
        self.capture = _Capture()
        self.shown = 0  # the records of items before this one have been shown

    def _start(self) -> _Worker:
        ours, theirs = self.context.Pipe()
        process = self.context.Process(
            target=self.serve,
            args=(theirs, self.job.setup, self.job.settings, self.level),
            name=f"genlint-{self.job.noun}",
            daemon=True,
        )
        # the child inherits an ignored SIGINT across exec, so a Ctrl-C while it is still
        # importing cannot print a traceback from it; only the main thread may set handlers
        import threading

        main = threading.current_thread() is threading.main_thread()
        previous = signal.signal(signal.SIGINT, signal.SIG_IGN) if main else None
        try:
            process.start()
        except (pickle.PicklingError, AttributeError, TypeError) as exc:  # e.g. a lambda rule
            ours.close()
            theirs.close()
            raise GenlintError(
                f"cannot send the settings to a worker process ({exc}); run in one process"
            ) from None
        finally:
            if main and previous is not None:
                signal.signal(signal.SIGINT, previous)
        theirs.close()  # only the worker holds its end: its death then reads as EOF here
        return _Worker(process, ours)

    def run(self, size: int) -> None:
        try:
            self.workers = [self._start() for _ in range(size)]
            self._loop()
        except BaseException:
            self._stop(now=True)  # Ctrl-C or an error: no reason to let workers finish
            raise
        self._stop()

    def _left(self) -> int:
        return len(self.mine) + len(self.theirs) + len(self.retry)

    def _loop(self) -> None:
        from multiprocessing.connection import wait

        while self._left() or any(w.task for w in self.workers):
            _interrupt.check()  # a Ctrl-C swallowed by a callback still stops the run
            self._dispatch()
            conns = [w.conn for w in self.workers]
            # with work of its own the driver only looks at the pipes between items: a
            # result never waits longer than the item the driver is on
            ready = wait(conns, timeout=0 if self.mine else None)
            for worker in list(self.workers):
                if worker.conn in ready:
                    self._receive(worker)
            if self.mine:
                self._run_here(self.mine.pop())

    def _dispatch(self) -> None:
        """Top up each ready worker: the next chunk is sent before the current one ends, so a
        worker never waits for the driver between chunks."""
        busy = len(self.workers) + (1 if self.mine else 0)
        size = max(1, min(_MAX_CHUNK, math.ceil(self._left() / (4 * max(1, busy)))))
        for worker in self.workers:
            if not worker.ready or len(worker.task) >= size:
                continue
            if self.retry:  # a retried item goes alone, so it cannot take others down with it
                chunk = [self.retry.popleft()]
            else:
                chunk = []
                for source in (self.theirs, self.mine):
                    while source and len(chunk) < size:
                        chunk.append(source.popleft())
            if not chunk:
                return
            worker.task.extend(chunk)
            # a worker that just died: wait() sees its end closed and requeues the chunk
            with contextlib.suppress(OSError):
                worker.conn.send([(item.index, item.value) for item in chunk])

    def _run_here(self, item: _Item) -> None:
        if self.run_local is None:
            self.run_local = self.job.setup(self.job.settings)
        # the driver's own records wait their turn too, so they show in input order (a
        # record another thread logs meanwhile waits with them)
        root = logging.getLogger()
        capture = self.capture  # one for the run: take() empties it after each item
        handlers, root.handlers = root.handlers, [capture]
        try:
            result = self.run_local(item.value)
        except BaseException:
            root.handlers = handlers
            for record in capture.take():  # what led up to the error, shown before it
                logging.getLogger(record.name).handle(record)
            raise
        root.handlers = handlers
        self._finish(item.index, result, capture.take())

    def _finish(self, index: int, result: Any, records: list[logging.LogRecord]) -> None:
        self.results[index] = result
        self.finished[index] = True
        if records:
            self.records[index] = records
        while self.shown < len(self.finished) and self.finished[self.shown]:
            for record in self.records.pop(self.shown, ()):
                logging.getLogger(record.name).handle(record)
            self.shown += 1
        if self.done is not None:
            self.done(index)

    def _receive(self, worker: _Worker) -> None:
        try:
            kind, index, result, records = worker.conn.recv()
        except (EOFError, OSError):
            self._replace(worker)
            return
        if kind == "ready":
            worker.ready = True
            for record in records:  # from its set-up: about the run, not an item
                logging.getLogger(record.name).handle(record)
            return
        item = worker.task.popleft()
        if kind == "raised":
            for record in records:
                logging.getLogger(record.name).handle(record)
            raise result
        if item.attempts and self.job.retried is not None:
            result = self.job.retried(result)
        self._finish(index, result, records)

    def _replace(self, worker: _Worker) -> None:
        """A worker died: report it, retry the item it was on once, requeue the items of its
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
            culprit = worker.task.popleft()
            culprit.attempts += 1
            name = self.job.describe(culprit.value)
            if culprit.attempts >= 2:
                if self.job.died is None:
                    raise GenlintError(
                        f"{name}: a worker process died twice on this {self.job.noun} ({how})"
                    )
                self._finish(culprit.index, self.job.died(culprit.value, how), [])
            else:
                log.warning("a worker process died (%s) on %s; trying it again", how, name)
                self.retry.append(culprit)
            self.theirs.extendleft(reversed(worker.task))
        # what only the driver may run, it runs: a new worker is for what a worker must run
        if self.theirs or self.retry:
            self.workers.append(self._start())

    def _stop(self, now: bool = False) -> None:
        """Every worker ends here, on success, error or Ctrl-C: none outlives the run."""
        for worker in self.workers:
            if now or not worker.ready:  # still importing: it holds nothing, no need to wait
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
