"""A wall-clock budget shared by the slow steps of one parse."""

from __future__ import annotations

import time

# The bound is "1 MB of garbage answers within 1 s"; the slow steps get a little over
# half of that so the cheap steps and the caller's overhead fit in the rest on a loaded machine.
DEFAULT_BUDGET_S = 0.5


class Deadline:
    __slots__ = ("_end", "seconds")

    def __init__(self, seconds: float = DEFAULT_BUDGET_S) -> None:
        self.seconds = seconds
        self._end = time.perf_counter() + seconds

    def expired(self) -> bool:
        return time.perf_counter() >= self._end
