"""The pool behind every `--jobs`: results in input order from the driver and its workers, log
records shown by the driver in input order, an error in a worker raised in the driver."""

from __future__ import annotations

import logging
import os

import pytest

from genlint import _pool
from support.pool_jobs import squarer


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
