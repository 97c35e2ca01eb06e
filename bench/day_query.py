"""Bench (j)'s reader side: one query over one day of an Iceberg table in a REST catalog with an
S3 warehouse, through a reader we did not write, timed, with the bytes the reader read.
Not product code.

  day_query.py duckdb|trino|trino-columns|files CATALOG_ENV S3_ENV NAMESPACE TABLE DAY [TRINO_ENV]

CATALOG_ENV and S3_ENV are scripts/services' KEY=VALUE files (a SigV4-signed catalog when
CATALOG_SIGV4=1); DAY is YYYY-MM-DD; the query is `count(*), avg(temperature)` of the rows whose
observed_at falls on DAY (UTC).
- duckdb: DuckDB's iceberg extension (`iceberg_scan` of the metadata file pyiceberg's catalog
  names), httpfs to the S3 endpoint; bytes read from DuckDB's profiler (`total_bytes_read`).
- trino: Trino's statement API (TRINO_ENV from start-trino); bytes read are the query's
  `physicalInputBytes`. Trino reads a Parquet file under its small-file threshold (3 MB by
  default) whole, all columns.
- trino-columns: the same with the session's `parquet_small_file_threshold` at 0B, so Trino reads
  only the column chunks the query needs, as it does in a larger file.
- files: no query: the table's data files and bytes (pyiceberg), and the files and bytes
  pyiceberg plans for the day.
Prints one `result:` line for run_bench.py.
"""
import datetime
import json
import os
import sys
import time
import urllib.request

import duckdb
from pyiceberg.expressions import And, GreaterThanOrEqual, LessThan

from rest_env import read_env, rest_catalog

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def day_bounds(day):
    start = datetime.datetime.fromisoformat(day).replace(tzinfo=datetime.timezone.utc)
    return start, start + datetime.timedelta(days=1)


def files(table, day):
    start, end = day_bounds(day)
    all_files = table.inspect.files()
    planned = list(table.scan(row_filter=And(
        GreaterThanOrEqual("observed_at", start.isoformat()),
        LessThan("observed_at", end.isoformat()))).plan_files())
    return (f"files={all_files.num_rows} bytes={sum(all_files['file_size_in_bytes'].to_pylist())} "
            f"day_files={len(planned)} day_bytes={sum(t.file.file_size_in_bytes for t in planned)}")


def duckdb_query(table, s3, day):
    start, end = day_bounds(day)
    con = duckdb.connect(config={"extension_directory": os.path.join(
        ROOT, ".deps", "duckdb", "extensions"), "autoinstall_known_extensions": "false"})
    con.execute("LOAD httpfs")
    con.execute("LOAD iceberg")
    endpoint = s3["S3_ENDPOINT"].split("://", 1)[1]
    con.execute(f"""CREATE SECRET bench (TYPE s3, KEY_ID '{s3['S3_ACCESS_KEY_ID']}',
        SECRET '{s3['S3_SECRET_ACCESS_KEY']}', REGION '{s3['S3_REGION']}',
        ENDPOINT '{endpoint}', URL_STYLE 'path', USE_SSL false)""")
    con.execute("SET TimeZone = 'UTC'")
    con.execute("SET custom_profiling_settings = "
                "'{\"TOTAL_BYTES_READ\": \"true\", \"LATENCY\": \"true\"}'")
    profile = os.path.join(os.environ.get("TMPDIR", "/tmp"), f"day_query_{os.getpid()}.json")
    con.execute("PRAGMA enable_profiling = 'json'")
    con.execute(f"PRAGMA profiling_output = '{profile}'")
    t0 = time.monotonic()
    rows, avg = con.execute(
        f"SELECT count(*), avg(temperature) FROM iceberg_scan('{table.metadata_location}') "
        f"WHERE observed_at >= TIMESTAMPTZ '{start.isoformat()}' "
        f"AND observed_at < TIMESTAMPTZ '{end.isoformat()}'").fetchall()[0]
    seconds = time.monotonic() - t0
    con.execute("PRAGMA disable_profiling")
    with open(profile) as f:
        read = json.load(f).get("total_bytes_read", -1)
    os.remove(profile)
    return f"seconds={seconds:.3f} rows={rows} avg={avg:.4f} bytes_read={read}"


def trino_query(trino, namespace, name, day, whole_small_files=True):
    start, end = day_bounds(day)
    sql = (f"SELECT count(*), avg(temperature) FROM {trino['TRINO_CATALOG']}.{namespace}.{name} "
           f"WHERE observed_at >= TIMESTAMP '{start:%Y-%m-%d %H:%M:%S} UTC' "
           f"AND observed_at < TIMESTAMP '{end:%Y-%m-%d %H:%M:%S} UTC'")
    headers = {"X-Trino-User": "databox", "Content-Type": "text/plain"}
    if not whole_small_files:
        headers["X-Trino-Session"] = f"{trino['TRINO_CATALOG']}.parquet_small_file_threshold=0B"
    t0 = time.monotonic()
    request = urllib.request.Request(trino["TRINO_URI"] + "/v1/statement", sql.encode(),
                                     headers)
    data, rows = [], None
    while True:
        with urllib.request.urlopen(request) as response:
            page = json.load(response)
        if "error" in page:
            sys.exit(f"trino: {page['error'].get('message')}")
        data += page.get("data", [])
        if "nextUri" not in page:
            break
        request = urllib.request.Request(page["nextUri"], headers=headers)
    seconds = time.monotonic() - t0
    stats = page["stats"]
    rows, avg = data[0]
    return (f"seconds={seconds:.3f} rows={rows} avg={avg:.4f} "
            f"bytes_read={stats.get('physicalInputBytes', -1)} "
            f"trino_elapsed_ms={stats.get('elapsedTimeMillis', -1)}")


def main():
    reader, cat_env, s3_env, namespace, name, day = sys.argv[1:7]
    cat, s3 = read_env(cat_env), read_env(s3_env)
    if reader in ("trino", "trino-columns"):
        result = trino_query(read_env(sys.argv[7]), namespace, name, day, reader == "trino")
        print(f"result: reader={reader} {result}")
        return
    table = rest_catalog(cat, s3, cat.get("CATALOG_WAREHOUSE", "databox_lake")).load_table(
        (namespace, name))
    if reader == "files":
        print(f"result: reader=pyiceberg {files(table, day)}")
    elif reader == "duckdb":
        print(f"result: reader=duckdb {duckdb_query(table, s3, day)}")
    else:
        sys.exit(f"unknown reader {reader}")


if __name__ == "__main__":
    main()
