"""The README's Spark example (examples/scale/spark_check.py) runs the kernel through
mapInArrow and finds what check_table finds; skipped where pyspark is not installed."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pyarrow as pa
import pytest

from genlint.batch import check_table

EXAMPLE = Path(__file__).resolve().parents[2] / "examples" / "scale" / "spark_check.py"


def test_spark_map_in_arrow_example() -> None:
    pytest.importorskip("pyspark", reason="pyspark is not installed: the Spark example is not run")
    if shutil.which("java") is None:
        pytest.skip("no Java runtime: Spark cannot start")
    # run as a script, as the README says: Spark ships __main__'s functions to its executors
    done = subprocess.run(
        [sys.executable, str(EXAMPLE)], capture_output=True, text=True, timeout=300, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    rows = [line.split(" ", 2) for line in done.stdout.splitlines()]
    texts = ["乙方：某某公司，电话13812345678", "本合同自签署之日起生效。", "日期：X年X月X日"]
    expected = check_table(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "text": texts}))
    want = sorted(expected.to_pylist(), key=lambda r: (r["id"], r["start"]))
    assert rows == [[str(r["id"]), r["rule"], r["text"]] for r in want]


def test_finding_ddl_names_every_column() -> None:
    from genlint.batch import FINDING_COLUMNS, finding_ddl

    ddl = finding_ddl()
    assert ddl.startswith("`id` bigint, `path` string")
    assert all(f"`{name}`" in ddl for name in FINDING_COLUMNS)
