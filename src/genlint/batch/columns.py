"""The finding as a table row: the docs/scale.md columns, typed once for every engine.

Every engine (``--jobs``, Ray, Spark, the Python kernel) builds rows here, so a finding is
the same row wherever it was found.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..errors import GenlintError

if TYPE_CHECKING:
    import pyarrow as pa

    from ..findings import Finding

__all__ = [
    "FINDING_COLUMNS",
    "error_columns",
    "error_schema",
    "error_to_columns",
    "finding_ddl",
    "finding_schema",
    "findings_to_columns",
    "require_pyarrow",
]

# docs/scale.md, in this order
FINDING_COLUMNS: tuple[str, ...] = (
    "path",
    "rule",
    "severity",
    "message",
    "text",
    "start",
    "end",
    "line",
    "column",
    "page",
    "part",
    "paragraph",
    "table",
    "row",
    "cell",
)
_INTS = frozenset({"start", "end", "line", "column", "page", "paragraph", "table", "row", "cell"})
# where a column's value lives on a Finding other than as an attribute
_LOCATION = ("part", "paragraph", "table", "row", "cell")


def require_pyarrow() -> Any:
    """pyarrow, or the exact extra to install."""
    try:
        import pyarrow
    except ImportError:
        raise GenlintError(
            "this needs pyarrow: pip install 'genlint[ray]' (or pip install pyarrow)"
        ) from None
    return pyarrow


def finding_schema(id_type: pa.DataType | None = None, id_column: str = "id") -> pa.Schema:
    """The Arrow schema of finding rows; with ``id_type`` an id column comes first."""
    pa = require_pyarrow()
    fields = [(name, pa.int64() if name in _INTS else pa.string()) for name in FINDING_COLUMNS]
    if id_type is not None:
        fields.insert(0, (id_column, id_type))
    return pa.schema(fields)


def finding_ddl(id_type: str | None = "bigint", id_column: str = "id") -> str:
    """The finding rows as a Spark DDL schema string (for ``mapInArrow``), names quoted since
    ``end``, ``table``, ``row`` and ``column`` are SQL keywords."""
    cols = [f"`{n}` {'bigint' if n in _INTS else 'string'}" for n in FINDING_COLUMNS]
    if id_type is not None:
        cols.insert(0, f"`{id_column}` {id_type}")
    return ", ".join(cols)


def empty_columns() -> dict[str, list[Any]]:
    return {name: [] for name in FINDING_COLUMNS}


def findings_to_columns(
    path: str | None,
    findings: Iterable[Finding],
    into: dict[str, list[Any]],
    *,
    show_values: bool = False,
) -> int:
    """Append one row per finding to the column lists ``into``; how many were added. A
    ``sensitive`` finding's value is masked (``138****5678``, same length) in ``text`` and
    ``message`` unless ``show_values`` (docs/commands/check.md, "Reports never copy personal
    data")."""
    from ..check.redact import mask_finding

    n = 0
    for f in findings:
        if not show_values:
            f = mask_finding(f)
        where = f.location or {}
        row = (
            path,
            f.rule,
            str(f.severity),
            f.message,
            f.text,
            f.start,
            f.end,
            f.line,
            f.column,
            f.page,
            *(where.get(key) for key in _LOCATION),
        )
        for name, value in zip(FINDING_COLUMNS, row, strict=True):
            into[name].append(value)
        if "error" in into:
            into["error"].append(None)
        n += 1
    return n


def error_to_columns(path: str | None, message: str, into: dict[str, list[Any]]) -> None:
    """The row of a file that could not be read or checked, as :func:`check_files_table` writes
    it: ``rule`` and every finding column null, the error line in ``error`` (a table never
    drops a file unseen). ``into`` holds an ``error`` list (:func:`error_columns`)."""
    for name, values in into.items():
        values.append(path if name == "path" else message if name == "error" else None)


def error_columns() -> dict[str, list[Any]]:
    """Empty finding columns and a trailing ``error`` column (null on a finding's row)."""
    return {**empty_columns(), "error": []}


def error_schema() -> pa.Schema:
    """:func:`finding_schema` and the trailing ``error`` column."""
    pa = require_pyarrow()
    return finding_schema().append(pa.field("error", pa.string()))
