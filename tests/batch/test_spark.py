"""The README's Spark example (examples/scale/spark_check.py) runs the kernel through
mapInArrow and finds what check_table finds; skipped where pyspark is not installed."""

from __future__ import annotations

import importlib.util
import shutil
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
    spec = importlib.util.spec_from_file_location("spark_check", EXAMPLE)
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    sys.modules["spark_check"] = module
    spec.loader.exec_module(module)
    from pyspark.sql import SparkSession

    spark = SparkSession.builder.master("local[1]").appName("genlint-test").getOrCreate()
    try:
        rows = [r.asDict() for r in module.main(spark)]
    finally:
        spark.stop()
    texts = ["乙方：某某公司，电话13812345678", "本合同自签署之日起生效。", "日期：X年X月X日"]
    expected = check_table(pa.table({"id": pa.array([1, 2, 3], pa.int64()), "text": texts}))
    want = sorted(expected.to_pylist(), key=lambda r: (r["id"], r["start"]))
    assert rows == want


def test_finding_ddl_names_every_column() -> None:
    from genlint.batch import FINDING_COLUMNS, finding_ddl

    ddl = finding_ddl()
    assert ddl.startswith("`id` bigint, `path` string")
    assert all(f"`{name}`" in ddl for name in FINDING_COLUMNS)
