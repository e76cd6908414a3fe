"""Ctrl-C in tests that start from a background job.

A process started from a background job of a non-interactive shell (``nohup make test &``)
inherits SIGINT as *ignored*, and Python then installs no KeyboardInterrupt handler: a test
that delivers SIGINT would see nothing happen. Children get the default disposition back
(:func:`sigint_default`, as ``preexec_fn``); a test that signals its own process installs
Python's handler for its duration (:func:`python_sigint_handler`).
"""

from __future__ import annotations

import contextlib
import signal
from collections.abc import Iterator


def sigint_default() -> None:
    """``preexec_fn`` of a child that must die of (or handle) Ctrl-C: SIGINT to its default,
    so that Python installs its KeyboardInterrupt handler there."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def python_sigint_handler() -> Iterator[None]:
    """This process raises KeyboardInterrupt on SIGINT while the block runs, even when it was
    started with SIGINT ignored."""
    before = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)
