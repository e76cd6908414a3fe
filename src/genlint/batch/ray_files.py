"""The Ray runner behind ``genlint check --engine ray``: a pool of checker actors.

One actor per CPU of the cluster builds its Checker once and checks the chunks of paths the
driver sends it, two chunks in flight each so an actor never waits for the driver. Plain actors
rather than Ray Data: a run of files needs no blocks, no Arrow conversion and no streaming
executor (importing ``ray.data`` alone costs over a second), and the actors outlive a run, so
:class:`RayChecker` can check several runs after paying the start-up once.

With ``out_dir`` the actors also write the finding rows (one Parquet part per chunk, named by
the chunk's first file so the parts sort in input order) and send back each file's result
without its findings: the findings never pass through the driver, so its memory does not grow
with them. A dead actor is restarted by Ray and its chunk retried once (a retried chunk
rewrites the same part, never half of one); a chunk that fails twice is retried one file at a
time, and a file that still fails is its own error (and its own part, holding the error row).
"""

from __future__ import annotations

import contextlib
import math
import os
import pickle
import stat
import tempfile
from collections.abc import Callable, Sequence
from types import TracebackType
from typing import TYPE_CHECKING, Any

from ..errors import GenlintError

if TYPE_CHECKING:
    import pyarrow as pa

    from ..check.report import FileResult

__all__ = ["RayChecker", "run_files"]

# the most files in one call to an actor: bigger only unbalances the end of a run
_MAX_CHUNK = 32


class _CheckActor:
    """Runs in a Ray worker process (made a Ray actor class by :class:`RayChecker`)."""

    def __init__(self, settings: bytes) -> None:
        from .kernel import checker_for

        self.checker = checker_for(*pickle.loads(settings))

    def ready(self) -> bool:
        return True

    def check(
        self, chunk: list[tuple[int, str, str]], out_dir: str | None
    ) -> list[tuple[int, int, FileResult]]:
        """(index, number of findings, result) per (index, path, shown name) of ``chunk``;
        with ``out_dir`` the findings are written there and left out of the results."""
        from ..check.engine import check_file

        results = [check_file(self.checker, path) for _index, path, _shown in chunk]
        counts = [len(r.findings) for r in results]
        if out_dir is not None:
            import pyarrow as pa

            from .columns import error_columns, error_schema, error_to_columns, findings_to_columns

            columns = error_columns()
            for (_index, _path, shown), result in zip(chunk, results, strict=True):
                if result.error is not None:
                    error_to_columns(shown, result.error, columns)
                findings_to_columns(
                    shown, result.findings, columns, show_values=self.checker.config.show_values
                )
                result.findings = []  # written below: only the summary goes back
            if columns["path"]:
                table = pa.Table.from_pydict(columns, schema=error_schema())
                _write_part(table, out_dir, chunk[0][0])
        return [(item[0], n, r) for item, n, r in zip(chunk, counts, results, strict=True)]


def _write_part(table: pa.Table, out_dir: str, first: int) -> None:
    """One part, atomically: a retried chunk rewrites the same name, never half a file."""
    import pyarrow.parquet as pq

    final = os.path.join(out_dir, f"part-{first:09d}.parquet")
    fd, tmp = tempfile.mkstemp(prefix=".part-", suffix=".tmp", dir=out_dir)
    os.close(fd)
    try:
        pq.write_table(table, tmp, compression="zstd")
        # mkstemp makes it private: a part gets its folder's mode, less the execute bits
        os.chmod(tmp, stat.S_IMODE(os.stat(out_dir).st_mode) & 0o666)
        os.replace(tmp, final)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def _write_error_part(shown: str, error: str, out_dir: str, index: int) -> None:
    """The row of a file no worker could check, as the part of its own index."""
    import pyarrow as pa

    from .columns import error_columns, error_schema, error_to_columns

    columns = error_columns()
    error_to_columns(shown, error, columns)
    _write_part(pa.Table.from_pydict(columns, schema=error_schema()), out_dir, index)


class RayChecker:
    """Checker actors on the joined Ray cluster, one per CPU (or ``actors``): started here
    (the start-up), then :meth:`run` as often as needed, then :meth:`close`."""

    def __init__(self, settings: tuple[Any, Any, Any, Any], *, actors: int | None = None) -> None:
        from .ray_engine import _ray

        ray = _ray(data=False)
        if actors is None:
            actors = max(1, int(ray.available_resources().get("CPU", 1)))
        # a dead actor comes back once and its call is tried again once
        remote = ray.remote(num_cpus=1, max_restarts=1, max_task_retries=1)(_CheckActor)
        blob = pickle.dumps(settings)
        self.ray = ray
        self._start = lambda: remote.remote(blob)
        self.actors = [self._start() for _ in range(actors)]
        try:
            ray.get([a.ready.remote() for a in self.actors])
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> RayChecker:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        value: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        for actor in self.actors:
            self.ray.kill(actor)
        self.actors = []

    def run(
        self,
        files: Sequence[str],
        *,
        out_dir: str | None = None,
        progress: Callable[[int], None] | None = None,
    ) -> tuple[list[FileResult], int]:
        """Each file's result in input order (without findings when ``out_dir`` holds them)
        and the number of findings."""
        from ..check.report import FileResult, display_path

        # the cluster's workers may run elsewhere: they get absolute paths
        queue = [(i, os.path.abspath(p), display_path(p)) for i, p in enumerate(files)]
        queue.reverse()  # popped from the end: input order
        results: list[FileResult | None] = [None] * len(files)
        total = 0
        pending: dict[Any, Any] = {}

        # files of a chunk whose worker died twice: tried again one at a time, so that only
        # the file that kills a worker is lost (as its error), never the batch
        alone: list[tuple[int, str, str]] = []
        replaced: dict[int, tuple[Any, Any]] = {}

        def send(actor: Any) -> None:
            if alone:
                item = alone.pop()
                pending[actor.check.remote([item], out_dir)] = (actor, [item])
                return
            # guided: a share of what is left, so the actors finish together
            size = max(1, min(_MAX_CHUNK, math.ceil(len(queue) / (4 * len(self.actors)))))
            chunk = [queue.pop() for _ in range(min(size, len(queue)))]
            if chunk:
                pending[actor.check.remote(chunk, out_dir)] = (actor, chunk)

        for actor in self.actors:
            send(actor)
            send(actor)
        while pending:
            [ref], _ = self.ray.wait(list(pending), num_returns=1)
            actor, chunk = pending.pop(ref)
            try:
                done = self.ray.get(ref)
            except self.ray.exceptions.RayError as exc:
                done = []
                if id(actor) in replaced:
                    actor = replaced[id(actor)][1]
                elif isinstance(exc, self.ray.exceptions.RayActorError):
                    # the actor is gone for good: a new one takes its place (the old handle is
                    # kept in ``replaced`` so that its id is not reused while it is a key)
                    with contextlib.suppress(Exception):
                        self.ray.kill(actor)
                    fresh = self._start()
                    self.actors[self.actors.index(actor)] = fresh
                    replaced[id(actor)] = (actor, fresh)
                    actor = fresh
                if len(chunk) > 1:
                    alone.extend(reversed(chunk))
                else:
                    why = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
                    index, _path, shown = chunk[0]
                    failed = FileResult(files[index], error=(
                        f"{files[index]}: a Ray worker failed twice checking this file "
                        f"({why[:200]})"))
                    results[index] = failed
                    if out_dir is not None:
                        _write_error_part(shown, failed.error or "", out_dir, index)
            send(actor)
            for index, count, result in done:
                result.path = files[index]  # as given, as the local engines report it
                results[index] = result
                total += count
            if progress is not None:
                progress(len(done) or (1 if len(chunk) == 1 else 0))
        missing = [files[i] for i, r in enumerate(results) if r is None]
        if missing:
            raise GenlintError(
                f"Ray returned no result for {len(missing)} file(s), first {missing[0]}"
            )
        return [r for r in results if r is not None], total


def run_files(
    files: Sequence[str],
    settings: tuple[Any, Any, Any, Any],
    *,
    out_dir: str | None = None,
    progress: Callable[[int], None] | None = None,
) -> tuple[list[FileResult], int]:
    """Check ``files`` on the joined cluster with actors started for this run."""
    with RayChecker(settings) as checker:
        return checker.run(files, out_dir=out_dir, progress=progress)
