"""Peer for the merge benchmark: pyiceberg's Table.upsert of UPSERT rows (10 % updates, 90 %
inserts) into a BASE-row table (identifier field id) in a SQLite catalog on local disk, with the
same rows merge_bench generates. The base table is written beforehand (not timed). Runs in
.venv-bench. Not product code.

  pyiceberg_merge.py BASE UPSERT WORKDIR
"""
import os
import sys
import time

import duckdb
import pyiceberg
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.schema import Schema
from pyiceberg.types import DoubleType, LongType, NestedField, StringType, TimestampType


def rows(con, start: int, count: int, tag: str):
    return con.execute(
        f"SELECT range AS id, range % 1000 AS a, range::DOUBLE * 0.5 AS b, "
        f"'{tag}_' || (range % 100000) AS c, TIMESTAMP '2024-01-01' + to_seconds(range) AS d "
        f"FROM range({start}, {start + count})").to_arrow_table()


def main() -> None:
    base, upsert, work = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    updates = upsert // 10
    os.makedirs(work, exist_ok=True)
    catalog = SqlCatalog("bench", uri=f"sqlite:///{work}/catalog.db", warehouse=f"file://{work}/wh")
    catalog.create_namespace("bench")
    schema = Schema(
        NestedField(1, "id", LongType(), required=True),
        NestedField(2, "a", LongType(), required=False),
        NestedField(3, "b", DoubleType(), required=False),
        NestedField(4, "c", StringType(), required=False),
        NestedField(5, "d", TimestampType(), required=False),
        identifier_field_ids=[1],
    )
    table = catalog.create_table("bench.t", schema=schema)
    con = duckdb.connect()
    base_rows = rows(con, 0, base, "base")
    table.append(base_rows.cast(schema.as_arrow()))
    incoming = rows(con, base - updates, upsert, "new").cast(schema.as_arrow())
    start = time.monotonic()
    result = table.upsert(incoming)
    seconds = time.monotonic() - start
    if result.rows_updated != updates or result.rows_inserted != upsert - updates:
        sys.exit(f"wrong result: {result}")
    print(f"result: base={base} upsert={upsert} updates={updates} seconds={seconds:.3f} "
          f"rows_per_s={upsert / seconds:.0f} pyiceberg={pyiceberg.__version__}")


if __name__ == "__main__":
    main()
