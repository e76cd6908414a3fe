"""Masking many files: read, mask and write each one, in this process or in several
(``genlint mask --jobs N``, the pool of :mod:`genlint._pool`).

Each file is written where it is masked, so its bytes never travel between processes; what
comes back is the report of the file (what was replaced, the reader's warnings) or why it could
not be masked. Token masking is not run here: one vault numbers the tokens of every file in
turn, so it stays in one process.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Sequence
from typing import Any

from .. import _pool
from ..errors import GenlintError
from .core import Masker
from .files import MaskedFile, mask_bytes

__all__ = ["mask_files", "write_masked"]

#: a masked file's report, or why it could not be masked (the error's words)
Outcome = MaskedFile | str

# (style, select, config, in_place, strict): what a worker needs to build the same Masker
Settings = tuple[str, Any, Any, bool, bool]


def write_masked(target: str, data: bytes, source: str, in_place: bool) -> None:
    """Write a masked copy atomically (its folder made first); outside ``--in-place`` the
    target may not be the source."""
    from .._io import atomic_write

    os.makedirs(os.path.dirname(target) or ".", exist_ok=True)
    atomic_write(target, data, inputs=() if in_place else (source,))


def file_masker(settings: Settings) -> Callable[[tuple[str, str]], Outcome]:
    """Mask one (source, target) pair with a Masker built once (``_pool.Job.setup``)."""
    style, select, config, in_place, strict = settings
    masker = Masker(style, select, config, strict=strict)
    return functools.partial(_mask_pair, masker=masker, in_place=in_place)


def _mask_pair(pair: tuple[str, str], *, masker: Masker, in_place: bool) -> Outcome:
    return mask_file(pair[0], pair[1], masker, in_place)


def mask_file(source: str, target: str, masker: Masker, in_place: bool) -> Outcome:
    """Mask ``source`` into ``target``: its report, or why it could not be masked (then
    nothing is written)."""
    from .._io import read_bytes

    try:
        result = mask_bytes(source, read_bytes(source), masker)
        write_masked(target, result.data, source, in_place)
    except GenlintError as exc:
        return str(exc)
    except Exception as exc:  # one file's unexpected failure costs that file only
        from ..errors import failure_line

        return failure_line(source, exc)
    result.data = b""  # written: only the report goes back
    return result


def _died(pair: tuple[str, str], how: str) -> Outcome:
    return f"{pair[0]}: a worker process died twice while masking this file ({how})"


def _retried(outcome: Outcome) -> Outcome:
    if isinstance(outcome, MaskedFile):
        outcome.warnings.append(
            "a worker process died while masking this file; it was masked again"
        )
    return outcome


def mask_files(
    pairs: Sequence[tuple[str, str]],
    style: str,
    select: Any = None,
    config: Any = None,
    *,
    in_place: bool = False,
    jobs: int = 1,
    done: Callable[[int], None] | None = None,
    strict: bool = False,
) -> list[Outcome]:
    """Mask each (source, target) pair and write the target; each file's outcome, in the order
    of ``pairs``. A file that cannot be masked is its error message, and nothing is written
    for it; the others are masked. ``jobs`` > 1 masks in that many processes (not for
    ``style="token"``: its vault is this process's)."""
    if style == "token":
        raise GenlintError("token masking numbers tokens in one vault: use a Masker in one process")
    masker = Masker(style, select, config, strict=strict)  # a bad selection fails here, before any worker
    if jobs <= 1 or len(pairs) <= 2:
        outcomes: list[Outcome] = []
        for i, (source, target) in enumerate(pairs):
            outcomes.append(mask_file(source, target, masker, in_place))
            if done is not None:
                done(i)
        return outcomes
    from ..check.parallel import driver_may_check

    job: _pool.Job[tuple[str, str], Outcome] = _pool.Job(
        setup=file_masker,
        settings=(style, select, config, in_place, strict),
        noun="file",
        describe=lambda pair: pair[0],
        died=_died,
        retried=_retried,
        local=lambda pair: driver_may_check(pair[0]),
        run_local=functools.partial(_mask_pair, masker=masker, in_place=in_place),
    )
    return _pool.run(pairs, job, jobs, done=done)
