"""Peer for benchmark (f): dlt's `rest_api` source reading the pages of bench/page_server.py
(offset/limit pagination, stopping at the response's `count`, like the databox registry of the
run) into dlt's filesystem destination with `table_format="iceberg"` and a SQLite pyiceberg
catalog, as bench/dlt_ingest.py does. Runs in .venv-bench. Not product code.

  dlt_rest.py BASE_URL PAGES_JSON WORKDIR

PAGES_JSON is the pages.json bench/gen_pages.py wrote (page size, byte count). Prints one
"result: key=value ..." line; MB are the bytes of the served pages.
"""
import json
import sys
import time

from dlt_env import use_work_folder


def main() -> None:
    base_url, pages_json, work = sys.argv[1], sys.argv[2], sys.argv[3]
    with open(pages_json) as f:
        meta = json.load(f)
    use_work_folder(work)
    import dlt
    from pyiceberg.catalog import load_catalog
    from dlt.sources.helpers.rest_client.paginators import OffsetPaginator
    from dlt.sources.rest_api import rest_api_source

    source = rest_api_source({
        "client": {"base_url": base_url},
        "resources": [{
            "name": "occurrences",
            "endpoint": {
                "path": "occurrence/search",
                "data_selector": "results",
                "paginator": OffsetPaginator(limit=meta["page_size"], total_path="count"),
            },
        }],
    })
    source.resources["occurrences"].apply_hints(table_format="iceberg")
    pipeline = dlt.pipeline(
        pipeline_name="bench_rest",
        destination=dlt.destinations.filesystem(bucket_url=f"file://{work}/bucket"),
        dataset_name="bench",
    )
    # The catalog's tables and the namespace exist before the load: otherwise dlt's load jobs, one
    # per table at once, race to create them and all but one fail and are retried.
    load_catalog("default").create_namespace_if_not_exists("bench")
    start = time.monotonic()
    pipeline.run(source)
    seconds = time.monotonic() - start
    trace = pipeline.last_trace
    row_counts = trace.last_normalize_info.row_counts if trace.last_normalize_info else {}
    records = row_counts.get("occurrences", 0)
    all_rows = sum(v for k, v in row_counts.items() if not k.startswith("_dlt"))
    size_mb = meta["bytes"] / (1024 * 1024)
    print(
        f"result: format=rest input_mb={size_mb:.1f} records={records} "
        f"rows_all_tables={all_rows} seconds={seconds:.3f} records_per_s={records / seconds:.0f} "
        f"mb_per_s={size_mb / seconds:.1f} dlt={dlt.__version__} "
        f"tables={','.join(sorted(k for k in row_counts if not k.startswith('_dlt')))}"
    )


if __name__ == "__main__":
    main()
