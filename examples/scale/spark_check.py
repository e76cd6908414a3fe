"""genlint's batch kernel on Spark: `mapInArrow` over a DataFrame of generated texts, the same
function Ray Data runs with `map_batches` (run: python examples/scale/spark_check.py; needs
pyspark and a Java runtime)."""

from __future__ import annotations

from collections.abc import Iterator

import pyarrow as pa

from genlint.batch import check_table, finding_ddl


def check_batches(batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
    """What every Spark executor runs: Arrow batches in, finding rows out."""
    for batch in batches:
        yield from check_table(pa.Table.from_batches([batch])).to_batches()


def main(spark=None):  # type: ignore[no-untyped-def]
    import os
    import sys

    from pyspark.sql import SparkSession

    # local mode: executors use this interpreter (the one genlint is installed in)
    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)

    spark = spark or SparkSession.builder.master("local[2]").appName("genlint").getOrCreate()
    texts = spark.createDataFrame(
        [(1, "乙方：某某公司，电话13812345678"), (2, "本合同自签署之日起生效。"), (3, "日期：X年X月X日")],
        "id bigint, text string",
    )
    findings = texts.mapInArrow(check_batches, finding_ddl())
    # on a cluster: findings.write.parquet("s3a://bucket/findings/")
    return findings.orderBy("id", "start").collect()


if __name__ == "__main__":
    for row in main():
        print(row.id, row.rule, row.text)
