"""Batch and scale: the same check and parse over tables of documents and replies
(docs/scale.md).

    columns.py     the finding row: the columns of docs/scale.md and their Arrow schema
    kernel.py      check_table, check_files_table, parse_table: pure pyarrow.Table functions
                   that run unchanged as Ray Data map_batches and Spark mapInArrow
    parquet.py     --out FILE.parquet from a report, written atomically
    ray_engine.py  check_dataset and the Ray runner behind `genlint check --engine ray`

Names are resolved on first use: importing ``genlint.batch`` loads neither pyarrow nor Ray.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .._lazy import lazy_exports

_EXPORTS: dict[str, str] = {
    "FINDING_COLUMNS": "genlint.batch.columns",
    "check_dataset": "genlint.batch.ray_engine",
    "check_files_table": "genlint.batch.kernel",
    "check_table": "genlint.batch.kernel",
    "finding_ddl": "genlint.batch.columns",
    "finding_schema": "genlint.batch.columns",
    "parse_dataset": "genlint.batch.ray_engine",
    "parse_table": "genlint.batch.kernel",
}

__all__ = sorted(_EXPORTS)


__getattr__, __dir__ = lazy_exports(__name__, _EXPORTS, globals())


if TYPE_CHECKING:  # pragma: no cover - for type checkers only
    # ruff: noqa: F401 - re-exports resolved lazily at run time
    from .columns import FINDING_COLUMNS, finding_ddl, finding_schema
    from .kernel import check_files_table, check_table, parse_table
    from .ray_engine import check_dataset, parse_dataset
