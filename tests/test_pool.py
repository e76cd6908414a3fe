"""The pool behind every `--jobs`: results in input order from the driver and its workers, log
records shown by the driver in input order, an error in a worker raised in the driver."""

from __future__ import annotations

import logging
import os

import pytest

from genlint import _pool
from support.pool_jobs import squarer
from support.signals import python_sigint_handler


@pytest.mark.parametrize("help_workers", [True, False])
def test_results_and_logs_in_input_order(
    help_workers: bool, caplog: pytest.LogCaptureFixture
) -> None:
    items = list(range(200))
    done: list[int] = []
    job: _pool.Job[int, tuple[int, int]] = _pool.Job(setup=squarer, settings=7)
    with caplog.at_level(logging.WARNING):
        results = _pool.run(items, job, 2, done=done.append, help_workers=help_workers)
    assert [square for square, _pid in results] == [i * i for i in items]
    assert sorted(done) == items
    assert [r.getMessage() for r in caplog.records] == [f"item {i}" for i in items[::7]]
    pids = {pid for _square, pid in results}
    if not help_workers:  # every item in a worker; else the driver took its share
        assert os.getpid() not in pids
    assert len(pids) >= 1


def test_driver_runs_only_what_it_may() -> None:
    job: _pool.Job[int, tuple[int, int]] = _pool.Job(
        setup=squarer, settings=1000, local=lambda item: item % 2 == 0
    )
    results = _pool.run(list(range(40)), job, 2)
    assert all(pid != os.getpid() for i, (_s, pid) in enumerate(results) if i % 2)


def test_an_error_in_a_worker_is_raised_here() -> None:
    job: _pool.Job[int, tuple[int, int]] = _pool.Job(setup=squarer, settings=0)
    with pytest.raises(ValueError, match="thirteen"):
        _pool.run(list(range(40)), job, 2, help_workers=False)


def test_settings_that_do_not_pickle_are_one_error() -> None:
    from genlint.errors import GenlintError

    job: _pool.Job[int, tuple[int, int]] = _pool.Job(setup=squarer, settings=lambda: 1)
    with pytest.raises(GenlintError, match="cannot send the settings"):
        _pool.run(list(range(10)), job, 2, help_workers=False)


class _SwallowsCtrlC:
    """Ctrl-C delivered inside a finaliser, where Python prints "Exception ignored" and drops
    the KeyboardInterrupt (as in a weakref callback of the pool's own objects)."""

    def __del__(self) -> None:
        import signal

        os.kill(os.getpid(), signal.SIGINT)
        for _ in range(1000):  # the handler runs between bytecodes, here
            pass


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_ctrl_c_swallowed_by_a_finaliser_still_stops_the_run() -> None:
    import psutil

    seen: list[int] = []

    def run_here(item: int) -> tuple[int, int]:
        seen.append(item)
        if len(seen) == 3:
            _SwallowsCtrlC()  # dropped at once: its __del__ swallows the interrupt
        return item * item, os.getpid()

    job: _pool.Job[int, tuple[int, int]] = _pool.Job(
        setup=squarer, settings=1000, run_local=run_here
    )
    before = {c.pid for c in psutil.Process().children()}
    with python_sigint_handler(), pytest.raises(KeyboardInterrupt):
        _pool.run(list(range(400)), job, 2)
    assert 3 <= len(seen) < 10  # stopped at the next item, not at the end of the run
    workers = [c for c in psutil.Process().children() if c.pid not in before]
    # multiprocessing's resource tracker, started by the first pool of the process, stays by design
    workers = [c for c in workers if "resource_tracker" not in " ".join(c.cmdline())]
    assert not [c for c in workers if c.is_running() and c.status() != psutil.STATUS_ZOMBIE]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_swallowed_ctrl_c_outside_a_pool_is_not_recorded() -> None:
    """The recording handler is only in place while a pool runs (asyncio needs the default)."""
    import signal

    job: _pool.Job[int, tuple[int, int]] = _pool.Job(setup=squarer, settings=1000)
    with python_sigint_handler():
        _pool.run(list(range(20)), job, 2)
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        _SwallowsCtrlC()
        _pool._interrupt.check()  # nothing recorded: no raise
