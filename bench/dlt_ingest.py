"""Peer for the file-ingest benchmark: the same input -> one Iceberg table (plus child tables)
with dlt's filesystem destination, table_format="iceberg", a SQLite pyiceberg catalog on local
disk. Runs in .venv-bench (scripts/bench-setup). Not product code.

  dlt_ingest.py ndjson|csv|csv-ids INPUT WORKDIR

ndjson: records parsed with json.loads and yielded in lists of 10,000 (dlt normalizes them:
nested objects flattened, lists -> child tables). csv: pyarrow's streaming CSV reader yields
Arrow record batches (dlt's fast path, no row-wise normalization; by default dlt then adds
neither _dlt_id nor _dlt_load_id). csv-ids: the same with dlt's parquet_normalizer settings
add_dlt_id and add_dlt_load_id on, so the table has the columns databox writes. Prints one
"result: key=value ..." line.
"""
import json
import os
import sys
import time

from dlt_env import use_work_folder

BATCH = 10_000


def main() -> None:
    kind, path, work = sys.argv[1], sys.argv[2], sys.argv[3]
    use_work_folder(work)
    if kind == "csv-ids":
        os.environ["NORMALIZE__PARQUET_NORMALIZER__ADD_DLT_ID"] = "true"
        os.environ["NORMALIZE__PARQUET_NORMALIZER__ADD_DLT_LOAD_ID"] = "true"
    import dlt

    if kind == "ndjson":

        @dlt.resource(name="events", table_format="iceberg")
        def rows():
            batch = []
            with open(path, "rb") as f:
                for line in f:
                    batch.append(json.loads(line))
                    if len(batch) >= BATCH:
                        yield batch
                        batch = []
            if batch:
                yield batch

    else:
        import pyarrow as pa
        import pyarrow.csv as pacsv

        types = {
            "id": pa.int64(), "station_code": pa.string(),
            "observed_at": pa.timestamp("us", tz="UTC"), "temperature": pa.float64(),
            "pressure": pa.float64(), "quality": pa.string(), "count": pa.int64(),
            "note": pa.string(),
        }

        @dlt.resource(name="readings", table_format="iceberg")
        def rows():
            reader = pacsv.open_csv(path, convert_options=pacsv.ConvertOptions(column_types=types))
            for batch in reader:
                yield batch

    pipeline = dlt.pipeline(
        pipeline_name="bench_" + kind.replace("-", "_"),
        destination=dlt.destinations.filesystem(bucket_url=f"file://{work}/bucket"),
        dataset_name="bench",
    )
    start = time.monotonic()
    pipeline.run(rows())
    seconds = time.monotonic() - start
    trace = pipeline.last_trace
    row_counts = trace.last_normalize_info.row_counts if trace.last_normalize_info else {}
    root = "events" if kind == "ndjson" else "readings"
    records = row_counts.get(root, 0)
    all_rows = sum(v for k, v in row_counts.items() if not k.startswith("_dlt"))
    size_mb = os.path.getsize(path) / (1024 * 1024)
    schema_columns = pipeline.default_schema.get_table(root)["columns"]
    columns = ",".join(name for name in schema_columns if name.startswith("_dlt")) or "-"
    print(
        f"result: format={kind} input_mb={size_mb:.1f} records={records} "
        f"rows_all_tables={all_rows} seconds={seconds:.3f} records_per_s={records / seconds:.0f} "
        f"mb_per_s={size_mb / seconds:.1f} dlt={dlt.__version__} columns={columns}"
    )


if __name__ == "__main__":
    main()
