"""Small jobs for the pool tests (importable by spawned workers: tests/ is on their path)."""

from __future__ import annotations

import logging
import os
from collections.abc import Callable

log = logging.getLogger("tests.pool_jobs")


def squarer(settings: int) -> Callable[[int], tuple[int, int]]:
    """Squares an item and says which process did it; every ``settings``-th item logs a
    warning, item 13 raises when ``settings`` is 0."""

    def run(item: int) -> tuple[int, int]:
        if settings == 0 and item == 13:
            raise ValueError("thirteen")
        if settings and item % settings == 0:
            log.warning("item %d", item)
        return item * item, os.getpid()

    return run
