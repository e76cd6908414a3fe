"""The one progress bar: drawn by the CLI only, on stderr, when stderr is a terminal and there
is more than one item. Library functions take a plain ``progress(n)`` callback instead and
never draw (docs/layout.md)."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def progress_bar(label: str, total: int, *, items: int | None = None) -> Iterator[Callable[[int], None] | None]:
    """A callback that advances a bar by ``n``, or None when no bar is shown.

    ``total`` is what the bar counts (claims, prompts…); ``items`` how many units of work there
    are (pages, files), default ``total``: one item finishes too fast to need a bar."""
    if (items if items is not None else total) <= 1 or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn

    # stderr is a terminal (checked above) even when rich cannot tell, e.g. under tests
    bar = Progress(
        label,
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True, force_terminal=True),
        transient=True,
    )
    task = bar.add_task(label, total=total)
    with bar:
        yield lambda n: bar.advance(task, n)
