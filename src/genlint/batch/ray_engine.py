"""Ray: the batch kernel over a Ray Dataset, and joining a cluster for ``genlint check
--engine ray`` (whose runner, a pool of checker actors, is :mod:`genlint.batch.ray_files`).
"""

from __future__ import annotations

import logging
import os
import shutil
import socket
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import GenlintError

if TYPE_CHECKING:
    import ray.data

    from ..check import CheckConfig

__all__ = ["check_dataset", "connect", "parse_dataset", "publish_dir"]

log = logging.getLogger(__name__)

# how long the driver tries to open a TCP connection to --ray-address before giving up
_CONNECT_TIMEOUT = 10.0


def _ray(data: bool = True) -> Any:
    """Ray, with Ray Data when ``data`` (importing it costs over a second: the CLI's runner
    does without)."""
    try:
        import ray

        if data:
            import ray.data
    except ImportError:
        raise GenlintError("--engine ray needs Ray: pip install 'genlint[ray]'") from None
    return ray


def connect(address: str | None = None, num_cpus: int | None = None) -> bool:
    """Join the cluster at ``address`` (else ``RAY_ADDRESS``, else start a local one with
    ``num_cpus``); True when this call started Ray, so the caller shuts it down. A cluster
    already joined in this process is used as it is."""
    ray = _ray(data=False)
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
