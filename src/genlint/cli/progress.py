"""The one progress bar: drawn by the CLI only, on stderr, when stderr is a terminal and there
is more than one item. Library functions take a plain ``progress(n)`` callback instead and
never draw (docs/layout.md). OCR reports its pages through :func:`genlint.readers.ocr.listen_pages`:
with ``pages=True`` the bar shows the file being read, page n of m and pages per second, and
the "read by OCR" note is printed when OCR starts (on stderr, terminal or not)."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, nullcontext
from typing import Any


@contextmanager
def progress_bar(
    label: str, total: int, *, items: int | None = None, pages: bool = False
) -> Iterator[Callable[[int], None] | None]:
    """A callback that advances a bar by ``n``, or None when no bar is shown.

    ``total`` is what the bar counts (claims, prompts…); ``items`` how many units of work there
    are (pages, files), default ``total``: one item finishes too fast to need a bar. ``pages``:
    also show OCR page by page (files read in this process)."""
    many = (items if items is not None else total) > 1
    tty = sys.stderr.isatty()
    if not tty or (not many and not pages):
        with _listen(None) if pages else nullcontext():
            yield None
        return
    bar = _bar()
    task = bar.add_task(label, total=total, rate="") if many else None
    with bar, _listen(bar) if pages else nullcontext():
        yield (lambda n: bar.advance(task, n)) if task is not None else None


def _bar() -> Any:
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    # stderr is a terminal (checked by the caller) even when rich cannot tell, e.g. under tests
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[rate]}"),
        TimeElapsedColumn(),
        console=Console(stderr=True, force_terminal=True),
        transient=True,
    )


@contextmanager
def _listen(bar: Any) -> Iterator[None]:
    """Page progress of OCR: a note when a file's OCR starts, and a task per file on ``bar``."""
    from ..check.report import display_path
    from ..readers import ocr

    tasks: dict[str, tuple[Any, float]] = {}

    def on_page(path: str, done: int, total: int, engine: str) -> None:
        name = display_path(path)
        if done == 0:
            word = "page" if total == 1 else "pages"
            note = f"genlint: note: {name}: reading {total} {word} by OCR ({engine})"
            if bar is None:
                sys.stderr.write(note + "\n")
                sys.stderr.flush()
                return
            bar.console.print(note, markup=False, highlight=False, soft_wrap=True)
            tasks[path] = (bar.add_task(f"  {name}", total=total, rate=""), time.monotonic())
            return
        if bar is None or path not in tasks:
            return
        task, started = tasks[path]
        rate = done / max(time.monotonic() - started, 1e-6)
        bar.update(task, completed=done, rate=f"{rate:.2f} pages/s")
        if done >= total:
            bar.remove_task(task)
            del tasks[path]

    with ocr.listen_pages(on_page):
        yield
