"""Ray: the batch kernel over a Ray Dataset, and the runner of ``genlint check --engine ray``.

The driver only plans and counts. Files are read and checked by Ray tasks; with ``--out`` the
tasks also write the finding rows (one Parquet part per batch, named by the batch's first file
so the parts sort in input order) and send back one small summary per file: path, error,
warnings and how many findings it had. The findings themselves never pass through the driver,
so its memory does not grow with them.
"""

from __future__ import annotations

import logging
import os
import pickle
import shutil
import socket
import stat
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import GenlintError

if TYPE_CHECKING:
    import pyarrow as pa
    import ray.data

    from ..check import CheckConfig
    from ..check.report import FileResult

__all__ = ["check_dataset", "connect", "parse_dataset", "run_files"]

log = logging.getLogger(__name__)

# how long the driver tries to open a TCP connection to --ray-address before giving up
_CONNECT_TIMEOUT = 10.0


def _ray() -> Any:
    try:
        import ray
        import ray.data
    except ImportError:
        raise GenlintError("--engine ray needs Ray: pip install 'genlint[ray]'") from None
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Join the cluster at ``address`` (else ``RAY_ADDRESS``, else start a local one with
    ``num_cpus``); True when this call started Ray, so the caller shuts it down. A cluster
    already joined in this process is used as it is."""
    ray = _ray()
    if ray.is_initialized():
        return False
    address = address or os.environ.get("RAY_ADDRESS") or None
    if address and address not in ("auto", "local"):
        _reachable(address)
    try:
        ray.init(
            address=address,
            num_cpus=None if address else num_cpus,
            include_dashboard=False,
            logging_level=logging.WARNING,
            log_to_driver=False,
        )
    except Exception as exc:  # Ray raises ConnectionError, RuntimeError, ValueError…
        where = f"the Ray cluster at {address}" if address else "a local Ray cluster"
        raise GenlintError(f"cannot start or join {where}: {exc}") from None
    _quiet()
    return True


def _reachable(address: str) -> None:
    """Fail in seconds with one line when nothing listens at ``address``: ``ray.init`` would
    otherwise retry for a minute or more."""
    hostport = address.split("://", 1)[-1].rstrip("/")
    host, _, port = hostport.rpartition(":")
    if not host or not port.isdigit():
        raise GenlintError(f"--ray-address {address!r}: expected host:port or ray://host:port")
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_CONNECT_TIMEOUT).close()
    except OSError as exc:
        reason = exc.strerror or str(exc) or type(exc).__name__
        raise GenlintError(f"cannot reach the Ray cluster at {address}: {reason}") from None


def _quiet() -> None:
    """Ray Data draws its own progress bars and logs each run: genlint draws the one bar."""
    from ray.data import DataContext

    context = DataContext.get_current()
    context.enable_progress_bars = False
    context.print_on_execution_start = False


def check_dataset(
    ds: ray.data.Dataset,
    text_column: str = "text",
    id_column: str | None = "id",
    select: Iterable[str] | str | None = None,
    config: CheckConfig | Mapping[str, Any] | None = None,
    *,
    ignore: Iterable[str] | str | None = None,
    options: Mapping[str, Any] | None = None,
    files: bool = False,
    batch_size: int | None = 256,
) -> ray.data.Dataset:
    """The finding rows of a Ray Dataset, lazily (write them with ``.write_parquet``).

    Texts: :func:`~genlint.batch.check_table` over ``text_column``. ``files=True``: a dataset
    of files as bytes plus path (``ray.data.read_binary_files(..., include_paths=True)``)
    through :func:`~genlint.batch.check_files_table`, read by the CLI's readers.
    """
    from .kernel import check_files_table, check_table

    settings: dict[str, Any] = {
        "select": select,
        "config": config,
        "ignore": ignore,
        "options": options,
    }
    if files:
        return ds.map_batches(
            check_files_table,
            batch_format="pyarrow",
            batch_size=batch_size,
            fn_kwargs={"id_column": id_column if id_column != "id" else None, **settings},
        )
    return ds.map_batches(
        check_table,
        batch_format="pyarrow",
        batch_size=batch_size,
        fn_kwargs={"text_column": text_column, "id_column": id_column, **settings},
    )


def parse_dataset(
    ds: ray.data.Dataset,
    text_column: str = "text",
    id_column: str | None = "id",
    *,
    schema: Any = None,
    fields: Sequence[str] | None = None,
    batch_size: int | None = 4096,
) -> ray.data.Dataset:
    """:func:`~genlint.batch.parse_table` over a Ray Dataset of replies, lazily."""
    from .kernel import parse_table

    return ds.map_batches(
        parse_table,
        batch_format="pyarrow",
        batch_size=batch_size,
        fn_kwargs={
            "text_column": text_column,
            "id_column": id_column,
            "schema": schema,
            "fields": fields,
        },
    )


def _check_paths_batch(batch: pa.Table, settings: bytes, out_dir: str | None) -> pa.Table:
    """A Ray task: check the files named in ``batch`` (index, path, shown). Without
    ``out_dir`` each file's whole result comes back; with it the findings are written to a
    part file here and only a summary of each file comes back."""
    import pyarrow as pa

    from ..check.engine import check_file
    from .columns import empty_columns, finding_schema, findings_to_columns
    from .kernel import checker_for

    checker = checker_for(*pickle.loads(settings))
    indexes = batch.column("index").to_pylist()
    shown = batch.column("shown").to_pylist()
    results = [check_file(checker, p) for p in batch.column("path").to_pylist()]
    counts = [len(r.findings) for r in results]
    if out_dir is not None:
        columns = empty_columns()
        for name, result in zip(shown, results, strict=True):
            findings_to_columns(name, result.findings, columns)
            result.findings = []  # written below: only the summary goes back
        if sum(counts):
            _write_part(pa.Table.from_pydict(columns, schema=finding_schema()), out_dir, indexes[0])
    return pa.table(
        {
            "index": pa.array(indexes, pa.int64()),
            "findings": pa.array(counts, pa.int64()),
            "result": pa.array([pickle.dumps(r) for r in results], pa.binary()),
        }
    )


def _write_part(table: pa.Table, out_dir: str, first: int) -> None:
    """One part, atomically: a retried task rewrites the same name, never half a file."""
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


def run_files(
    files: Sequence[str],
    settings: tuple[Any, Any, Any, Any],
    *,
    out_dir: str | None = None,
    progress: Callable[[int], None] | None = None,
    batch_size: int = 32,
) -> tuple[list[FileResult], int]:
    """Check ``files`` on the joined cluster: each file's result in input order (without
    findings when ``out_dir`` holds them) and the number of findings."""
    ray = _ray()
    from ..check.report import display_path

    # the cluster's workers may run elsewhere: they get absolute paths
    rows = [
        {"index": i, "path": os.path.abspath(p), "shown": display_path(p)}
        for i, p in enumerate(files)
    ]
    blocks = max(1, min(len(rows), (len(rows) + batch_size - 1) // batch_size))
    ds = ray.data.from_items(rows, override_num_blocks=blocks).map_batches(
        _check_paths_batch,
        batch_format="pyarrow",
        batch_size=batch_size,
        fn_kwargs={"settings": pickle.dumps(settings), "out_dir": out_dir},
    )
    results: list[FileResult | None] = [None] * len(rows)
    total = 0
    for batch in ds.iter_batches(batch_format="pyarrow", batch_size=None):
        for index, count, blob in zip(
            batch.column("index").to_pylist(),
            batch.column("findings").to_pylist(),
            batch.column("result").to_pylist(),
            strict=True,
        ):
            result: FileResult = pickle.loads(blob)
            result.path = files[index]  # as given, as the local engines report it
            results[index] = result
            total += count
        if progress is not None:
            progress(batch.num_rows)
    missing = [files[i] for i, r in enumerate(results) if r is None]
    if missing:
        raise GenlintError(f"Ray returned no result for {len(missing)} file(s), first {missing[0]}")
    return [r for r in results if r is not None], total


def publish_dir(tmp_dir: str, target: str) -> None:
    """Put the finished folder of parts at ``target`` in one rename; an older folder or file
    there is moved aside first and removed only after the new one is in place."""
    old: str | None = None
    if os.path.lexists(target):
        if not (os.path.isdir(target) or os.path.isfile(target)) or os.path.islink(target):
            raise GenlintError(f"{target}: not a regular file or folder; refusing to replace it")
        old = tempfile.mkdtemp(
            prefix=f".{os.path.basename(target)}.old.", dir=os.path.dirname(tmp_dir)
        )
        os.rmdir(old)
        os.replace(target, old)
    os.replace(tmp_dir, target)
    if old is not None:
        if os.path.isdir(old):
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.unlink(old)
