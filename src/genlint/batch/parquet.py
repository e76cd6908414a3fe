"""``--out FILE.parquet``: one row per finding, the columns of docs/scale.md, written atomically.

The local engines hold the report already, so the table is built here and written through
:func:`genlint._io.atomic_write` (temporary file in the same folder, then a rename): a reader
never sees half a Parquet file. The Ray engine does not come here: its workers write their
own parts (:mod:`.ray_engine`).
"""

from __future__ import annotations

import io
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from .columns import (
    error_columns,
    error_schema,
    error_to_columns,
    findings_to_columns,
    require_pyarrow,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from ..check.report import FileResult

__all__ = ["report_table", "write_report", "write_table"]


def report_table(files: Iterable[FileResult], *, show_values: bool = False) -> pa.Table:
    """The findings of ``files`` as finding rows, in report order; ``path`` as reports show it;
    personal values masked unless ``show_values``. A file that could not be read is one row with
    ``rule`` null and its ``error`` (the last column, null on a finding's row), as
    :func:`~genlint.batch.check_files_table` writes it."""
    pa = require_pyarrow()
    from ..check.report import display_path

    columns = error_columns()
    for file in files:
        if file.error is not None:
            error_to_columns(display_path(file.path), file.error, columns)
        findings_to_columns(
            display_path(file.path), file.findings, columns, show_values=show_values
        )
    return pa.Table.from_pydict(columns, schema=error_schema())


def table_bytes(table: pa.Table) -> bytes:
    import pyarrow.parquet as pq

    sink = io.BytesIO()
    pq.write_table(table, sink, compression="zstd")
    return sink.getvalue()


def write_table(
    table: pa.Table, path: str | os.PathLike[str], *, inputs: Iterable[Any] = ()
) -> None:
    """Write ``table`` as one Parquet file, atomically."""
    from .._io import atomic_write

    atomic_write(path, table_bytes(table), inputs=[str(i) for i in inputs])


def write_report(
    report: Any,
    path: str | os.PathLike[str],
    *,
    inputs: Iterable[Any] = (),
    show_values: bool = False,
) -> None:
    """``report``'s findings (a :class:`~genlint.check.CheckReport`) as FILE.parquet."""
    shown = show_values or getattr(report, "show_values", False)
    write_table(report_table(report.files, show_values=shown), path, inputs=inputs)
