"""The batch kernel: pure pyarrow.Table -> pyarrow.Table functions that agree with the
in-process check and parse."""

from __future__ import annotations

from pathlib import Path

import pyarrow as pa
import pytest

import genlint
from genlint import batch
from genlint.batch.columns import FINDING_COLUMNS, findings_to_columns
from genlint.batch.parquet import report_table
from genlint.check import check_paths, check_text
from genlint.errors import InputError

TEXTS = ["乙方：某某公司，电话13812345678", None, "干净的文本。", "日期：X年X月X日"]


def test_check_table_matches_check_text() -> None:
    table = pa.table({"id": pa.array([10, 11, 12, 13], pa.int32()), "text": TEXTS})
    out = batch.check_table(table)
    assert out.column_names == ["id", *FINDING_COLUMNS]
    assert out.schema.field("id").type == pa.int32()
    expected: dict[str, list[object]] = {name: [] for name in FINDING_COLUMNS}
    ids: list[int] = []
    for i, text in zip([10, 11, 12, 13], TEXTS, strict=True):
        if text:
            ids += [i] * findings_to_columns(None, check_text(text), expected)
    assert out.column("id").to_pylist() == ids
    for name in FINDING_COLUMNS:
        assert out.column(name).to_pylist() == expected[name]
    assert set(ids) == {10, 13}


def test_check_table_select_and_empty() -> None:
    table = pa.table({"id": ["a"], "text": ["乙方：某某公司，电话13812345678"]})
    only = batch.check_table(table, select="sensitive")
    assert set(only.column("rule").to_pylist()) == {"sensitive/mobile"}
    empty = batch.check_table(table.slice(0, 0))
    assert empty.num_rows == 0 and empty.column_names == ["id", *FINDING_COLUMNS]


def test_missing_column_is_a_clear_error() -> None:
    with pytest.raises(InputError, match="no text column 'body'"):
        batch.check_table(pa.table({"id": [1], "text": ["x"]}), text_column="body")


def test_check_files_table_reads_like_the_cli(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("# 标题\n\n乙方：某某公司\n", "utf-8")
    (tmp_path / "b.json").write_text('{"x": "电话13812345678"}', "utf-8")
    (tmp_path / "c.pdf").write_bytes(b"not a pdf")
    paths = sorted(tmp_path.iterdir())
    table = pa.table({"path": [str(p) for p in paths], "bytes": [p.read_bytes() for p in paths]})
    out = batch.check_files_table(table)
    assert out.column_names == [*FINDING_COLUMNS, "error"]
    good = out.filter(pa.compute.is_null(out.column("error")))
    report = check_paths([str(p) for p in paths])
    table_of_report = report_table(report.files)  # its error rows are compared below
    expected = table_of_report.filter(pa.compute.is_null(table_of_report.column("error")))
    assert table_of_report.filter(pa.compute.is_valid(table_of_report.column("error"))).num_rows == 1
    for name in FINDING_COLUMNS[1:]:
        assert good.column(name).to_pylist() == expected.column(name).to_pylist()
    bad = out.filter(pa.compute.is_valid(out.column("error"))).to_pylist()
    assert len(bad) == 1 and bad[0]["path"].endswith("c.pdf") and bad[0]["rule"] is None


def test_parse_table() -> None:
    replies = ['{"a": 1}', 'Sure! ```json\n{"b": [1, 2]}\n```', "{'c': 3,", "no json", None]
    out = batch.parse_table(pa.table({"id": [1, 2, 3, 4, 5], "text": replies}))
    assert out.column_names == ["id", "ok", "strategy", "value", "errors"]
    rows = out.to_pylist()
    assert [r["ok"] for r in rows] == [True, True, True, False, False]
    assert rows[0]["value"] == '{"a":1}' and rows[0]["strategy"] == "direct"
    assert rows[1]["value"] == '{"b":[1,2]}' and rows[1]["strategy"] == "extracted"
    assert rows[2]["strategy"] == "repaired"
    for row, reply in zip(rows[:4], replies, strict=False):
        result = genlint.parse_json(reply)
        assert (row["ok"], row["strategy"], row["errors"]) == (
            result.ok,
            result.strategy,
            result.errors,
        )
    assert rows[3]["value"] is None and rows[3]["errors"]
    assert rows[4]["errors"] == ["no reply"]


def test_kernel_runs_on_record_batches_like_map_in_arrow() -> None:
    """Spark's mapInArrow hands an iterator of RecordBatches: the kernel composes with it."""
    table = pa.table({"id": [1, 2], "text": ["某某公司", "X年X月X日"]})

    def map_in_arrow(batches):  # the shape of a mapInArrow function
        for rb in batches:
            yield from batch.check_table(pa.Table.from_batches([rb])).to_batches()

    rows = pa.Table.from_batches(list(map_in_arrow(table.to_batches(max_chunksize=1))))
    assert (
        rows.equals(batch.check_table(table).combine_chunks())
        or rows.to_pylist() == batch.check_table(table).to_pylist()
    )


def test_importing_batch_is_light() -> None:
    import subprocess
    import sys

    code = "import sys, genlint.batch; print('pyarrow' in sys.modules, 'ray' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
