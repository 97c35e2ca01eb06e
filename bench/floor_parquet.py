"""The floor for the file-ingest benchmark: DuckDB (the engine our library embeds, same
version) reading the same input and writing Parquet (the settings databox writes with) with
no Iceberg and no normalization (nested JSON stays nested structs/lists). Not product code.

  floor_parquet.py ndjson|csv INPUT OUT_DIR
"""
import os
import sys
import time

import duckdb


# The Parquet writer settings databox's data files use (DataFileWriteOptions in
# src/iceberg/data/data_files.h), so that the floor does the same encoding work.
PARQUET_SETTINGS = "COMPRESSION zstd, COMPRESSION_LEVEL 1, DICTIONARY_SIZE_LIMIT 1000"


def main() -> None:
    kind, path, out = sys.argv[1], sys.argv[2], sys.argv[3]
    os.makedirs(out, exist_ok=True)
    con = duckdb.connect()
    reader = f"read_json('{path}', format = 'newline_delimited')" if kind == "ndjson" \
        else f"read_csv('{path}', header = true)"
    start = time.monotonic()
    rows = con.execute(
        f"COPY (SELECT * FROM {reader}) TO '{out}/data.parquet' "
        f"(FORMAT parquet, {PARQUET_SETTINGS})").fetchone()[0]
    seconds = time.monotonic() - start
    size_mb = os.path.getsize(path) / (1024 * 1024)
    print(f"result: format={kind} input_mb={size_mb:.1f} records={rows} seconds={seconds:.3f} "
          f"records_per_s={rows / seconds:.0f} mb_per_s={size_mb / seconds:.1f} "
          f"duckdb={duckdb.__version__}")


if __name__ == "__main__":
    main()
