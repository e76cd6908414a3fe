"""The batch kernel: pure functions from a ``pyarrow.Table`` to a ``pyarrow.Table``.

They hold no state a caller can see and touch nothing outside the batch, so one function runs
unchanged as Ray Data ``map_batches(fn, batch_format="pyarrow")``, as Spark ``mapInArrow``
(over ``RecordBatch``es) and in a plain loop. Rules are compiled once per process and kept
(keyed by the settings), because an engine calls the kernel once per batch.
"""

from __future__ import annotations

import pickle
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..errors import InputError
from .columns import (
    empty_columns,
    error_columns,
    error_to_columns,
    finding_schema,
    findings_to_columns,
    require_pyarrow,
)

if TYPE_CHECKING:
    import pyarrow as pa

    from ..check import CheckConfig, Checker

__all__ = ["check_files_table", "check_table", "parse_table"]

# settings (pickled) -> Checker: built once per worker process, not once per batch
_CHECKERS: dict[bytes, Checker] = {}


def checker_for(
    select: Iterable[str] | str | None,
    ignore: Iterable[str] | str | None,
    config: CheckConfig | Mapping[str, Any] | None,
    options: Mapping[str, Any] | None,
) -> Checker:
    """The Checker for these settings, built on first use in this process."""
    from ..check import Checker

    key = pickle.dumps((select, ignore, config, options))
    checker = _CHECKERS.get(key)
    if checker is None:
        checker = _CHECKERS[key] = Checker(select, ignore, config, options)
    return checker


def _column(table: pa.Table, name: str, role: str) -> list[Any]:
    if name not in table.column_names:
        raise InputError(
            f"the table has no {role} column {name!r} (columns: {', '.join(table.column_names)})"
        )
    values: list[Any] = table.column(name).to_pylist()
    return values


def check_table(
    table: pa.Table,
    text_column: str = "text",
    id_column: str | None = "id",
    select: Iterable[str] | str | None = None,
    config: CheckConfig | Mapping[str, Any] | None = None,
    *,
    ignore: Iterable[str] | str | None = None,
    options: Mapping[str, Any] | None = None,
    markdown: bool = False,
) -> pa.Table:
    """One row per finding in the texts of ``text_column``: ``id_column`` (its value, same
    type) then the columns of docs/scale.md. ``path`` comes from a ``path`` column when the table has one.
    A null text has no findings. ``markdown=True`` skips code as :func:`genlint.check_text`.
    A ``sensitive`` finding's value is masked in ``text`` and ``message`` (``138****5678``)
    unless the config says ``show_values = true`` (docs/commands/check.md, "Reports never copy
    personal data").
    """
    pa = require_pyarrow()
    from ..check.rules import RuleContext

    checker = checker_for(select, ignore, config, options)
    texts = _column(table, text_column, "text")
    ids = _column(table, id_column, "id") if id_column else [None] * len(texts)
    paths = _column(table, "path", "path") if "path" in table.column_names else None
    columns = empty_columns()
    row_ids: list[Any] = []
    for i, text in enumerate(texts):
        if not text:
            continue
        if markdown:
            from ..readers.markdown import code_ranges

            ctx = RuleContext(
                options=checker.options, kind="md", code_ranges=tuple(code_ranges(text))
            )
            findings = checker.check(text, ctx)
        else:
            findings = checker.check(text)
        n = findings_to_columns(
            paths[i] if paths else None,
            findings,
            columns,
            show_values=checker.config.show_values,
        )
        row_ids.extend([ids[i]] * n)
    return _finish(pa, table, columns, id_column, row_ids)


def check_files_table(
    table: pa.Table,
    path_column: str = "path",
    data_column: str = "bytes",
    id_column: str | None = None,
    select: Iterable[str] | str | None = None,
    config: CheckConfig | Mapping[str, Any] | None = None,
    *,
    ignore: Iterable[str] | str | None = None,
    options: Mapping[str, Any] | None = None,
) -> pa.Table:
    """Files as bytes plus path (what ``ray.data.read_binary_files(include_paths=True)``
    yields) read by the same readers as ``genlint check``: one row per finding, the
    docs/scale.md columns then ``error``. A file that cannot be read is one row with a null ``rule`` and
    its ``error``, so a bad file is never silently missing from the output.
    """
    pa = require_pyarrow()
    from ..check.engine import check_file

    checker = checker_for(select, ignore, config, options)
    paths = _column(table, path_column, "path")
    blobs = _column(table, data_column, "bytes")
    ids = _column(table, id_column, "id") if id_column else [None] * len(paths)
    columns = error_columns()
    row_ids: list[Any] = []
    for i, (path, data) in enumerate(zip(paths, blobs, strict=True)):
        result = check_file(checker, str(path), bytes(data or b""))
        if result.error is not None:
            error_to_columns(str(path), result.error, columns)
            row_ids.append(ids[i])
            continue
        n = findings_to_columns(
            str(path), result.findings, columns, show_values=checker.config.show_values
        )
        row_ids.extend([ids[i]] * n)
    errors = columns.pop("error")  # last, after the id column _finish puts first
    out = _finish(pa, table, columns, id_column, row_ids)
    return out.append_column("error", pa.array(errors, pa.string()))


def _finish(
    pa: Any, table: pa.Table, columns: dict[str, list[Any]], id_column: str | None, ids: list[Any]
) -> pa.Table:
    id_type = table.schema.field(id_column).type if id_column else None
    schema = finding_schema(id_type, id_column or "id")
    data = dict(columns)
    if id_column:
        data = {id_column: ids, **columns}
    return pa.Table.from_pydict(data, schema=schema)


def parse_table(
    table: pa.Table,
    text_column: str = "text",
    id_column: str | None = "id",
    *,
    schema: Any = None,
    fields: Sequence[str] | None = None,
) -> pa.Table:
    """Each reply of ``text_column`` through :func:`genlint.parse_json`: ``id_column``, then
    ``ok``, ``strategy``, ``value`` (the value as compact JSON text, null when not ok) and
    ``errors`` (why each earlier step failed). A null reply is not ok ("no reply")."""
    pa = require_pyarrow()
    import orjson

    from ..parse import parse_json

    texts = _column(table, text_column, "text")
    ok: list[bool] = []
    strategy: list[str] = []
    values: list[str | None] = []
    errors: list[list[str]] = []
    for text in texts:
        if text is None:
            ok.append(False)
            strategy.append("none")
            values.append(None)
            errors.append(["no reply"])
            continue
        result = parse_json(text, schema=schema, fields=fields)
        ok.append(result.ok)
        strategy.append(result.strategy)
        errors.append(list(result.errors))
        if not result.ok:
            values.append(None)
            continue
        value = result.to_dict()["value"] if schema is not None else result.value
        try:
            values.append(orjson.dumps(value).decode("utf-8"))
        except TypeError:  # a lone surrogate or a big integer: the stdlib writes those
            import json

            values.append(json.dumps(value, ensure_ascii=False))
    data: dict[str, Any] = {
        "ok": pa.array(ok, pa.bool_()),
        "strategy": pa.array(strategy, pa.string()),
        "value": pa.array(values, pa.string()),
        "errors": pa.array(errors, pa.list_(pa.string())),
    }
    if id_column:
        _column(table, id_column, "id")  # a clear error when it is missing
        data = {id_column: table.column(id_column).combine_chunks(), **data}
    return pa.table(data)
