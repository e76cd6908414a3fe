"""Ctrl-C that is never lost in a ``--jobs`` run.

Python raises KeyboardInterrupt wherever the main thread is when SIGINT arrives. Inside a
weakref callback or a ``__del__`` it is printed as "Exception ignored" and dropped: a
``check --jobs 2`` run interrupted at such a moment went on, wrote its report and exited 1.
While a pool runs, :func:`recording` puts in a handler that also records the signal, and the
pool calls :func:`check` between items, which raises it again.

Only around the pool, not for the whole command: ``asyncio.run`` (``generate``) installs its
own, gentler SIGINT handling only when it finds Python's default handler in place.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType

__all__ = ["check", "recording"]

_pending = False


def _handler(signum: int, frame: FrameType | None) -> None:
    global _pending
    _pending = True
    raise KeyboardInterrupt


@contextmanager
def recording() -> Iterator[None]:
    """Record every SIGINT while the block runs (main thread, default handler only), and
    raise KeyboardInterrupt at its end if one came and was swallowed."""
    global _pending
    main = threading.current_thread() is threading.main_thread()
    if not main or signal.getsignal(signal.SIGINT) is not signal.default_int_handler:
        yield
        return
    _pending = False
    previous = signal.signal(signal.SIGINT, _handler)
    try:
        yield
        check()
    finally:
        signal.signal(signal.SIGINT, previous)
        _pending = False


def check() -> None:
    """Raise KeyboardInterrupt if Ctrl-C came while :func:`recording`, even when the first
    one was swallowed."""
    if _pending:
        raise KeyboardInterrupt
