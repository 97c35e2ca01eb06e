"""pyiceberg's one-file append against a REST catalog server with S3 storage: the peer of
rest_append_bench on the same server, the same table shape and the same number of rows per file.

usage: pyiceberg_rest_append.py CATALOG_ENV S3_ENV WAREHOUSE [appends=100] [rows_per_file=10]
CATALOG_ENV and S3_ENV are the KEY=VALUE files scripts/services writes (CATALOG_URI, and for a
SigV4-signed catalog such as SeaweedFS's CATALOG_SIGV4=1, CATALOG_SIGNING_NAME/_REGION and
CATALOG_ACCESS_KEY_ID/CATALOG_SECRET_ACCESS_KEY; S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID,
S3_SECRET_ACCESS_KEY). Each append loads the table and calls
`table.append` (which writes one Parquet file and commits). The table is bench_rest.pyiceberg.
Prints `result:` lines in rest_append_bench's format.
"""
import resource
import sys
import time

import pyarrow as pa
from pyiceberg.schema import Schema
from pyiceberg.types import DoubleType, LongType, NestedField, StringType

from rest_env import read_env, rest_catalog


def quantile(values, q):
    ordered = sorted(values)
    return ordered[min(int(q * (len(ordered) - 1) + 0.5), len(ordered) - 1)]


def main():
    cat, s3 = read_env(sys.argv[1]), read_env(sys.argv[2])
    warehouse = sys.argv[3]
    appends = int(sys.argv[4]) if len(sys.argv) > 4 else 100
    rows = int(sys.argv[5]) if len(sys.argv) > 5 else 10
    catalog = rest_catalog(cat, s3, warehouse)
    ident = "bench_rest.pyiceberg"
    if ("bench_rest",) not in catalog.list_namespaces():
        catalog.create_namespace("bench_rest")
    if catalog.table_exists(ident):
        catalog.drop_table(ident)
    schema = Schema(NestedField(1, "id", LongType(), required=False),
                    NestedField(2, "name", StringType(), required=False),
                    NestedField(3, "value", DoubleType(), required=False))
    catalog.create_table(ident, schema)
    arrow_schema = pa.schema([("id", pa.int64()), ("name", pa.string()), ("value", pa.float64())])
    totals = []
    start_all = time.perf_counter()
    for i in range(appends):
        batch = pa.table({"id": [i * rows + r for r in range(rows)],
                          "name": [f"name_{r}" for r in range(rows)],
                          "value": [r * 0.5 for r in range(rows)]}, schema=arrow_schema)
        start = time.perf_counter()
        catalog.load_table(ident).append(batch)
        totals.append(time.perf_counter() - start)
    seconds = time.perf_counter() - start_all
    print(f"catalog {cat['CATALOG_URI']}: {appends} one-file appends of {rows} rows to {ident}")
    print(f"result: phase=append p50_ms={quantile(totals, 0.5) * 1000:.2f} "
          f"p95_ms={quantile(totals, 0.95) * 1000:.2f} max_ms={max(totals) * 1000:.2f}")
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"result: tool=pyiceberg appends={appends} seconds={seconds:.3f} "
          f"appends_per_s={appends / seconds:.1f} peak_rss_mb={peak:.1f}")


if __name__ == "__main__":
    main()
