"""A time budget shared by the slow steps of one parse.

It counts the parsing thread's CPU time, not the wall clock: a reply must parse the same way
whatever else the machine is doing. With the wall clock, a pause of the process (a loaded CI
machine) used up the budget of a reply that parses in milliseconds, and the same reply then
failed. On an idle machine the two clocks agree.
"""

from __future__ import annotations

import time

# The bound is "1 MB of garbage answers within 1 s"; the slow steps get a little over
# half of that so the cheap steps and the caller's overhead fit in the rest on a loaded machine.
DEFAULT_BUDGET_S = 0.5


class Deadline:
    __slots__ = ("_end", "seconds")

    def __init__(self, seconds: float = DEFAULT_BUDGET_S) -> None:
        self.seconds = seconds
        self._end = time.thread_time() + seconds

    def expired(self) -> bool:
        return time.thread_time() >= self._end
