"""databox's side of benchmark (f): writes a registry with one rest_json source reading the pages
of bench/page_server.py (offset/limit pagination, stopping at the response's `count`; no
transform, so the records go through the dlt-compatible normalizer: nested objects flattened,
lists to child tables) and times `databox --config REGISTRY run synthetic`, the whole command
(start-up, extraction into the load package, normalization, Parquet, one commit). Not product
code.

  databox_rest.py DATABOX BASE_URL PAGES_JSON WORKDIR

Prints one "result: key=value ..." line (rows as the command reports them; MB are the bytes of
the served pages; databox_rss_mb is the command's peak RSS from getrusage).
"""
import json
import os
import re
import resource
import subprocess
import sys
import time

REGISTRY = """[project]
name = "bench-rest"
state_dir = ".databox"

[project.catalog]
type = "sql"
name = "bench_lake"

[[source]]
name = "synthetic"
description = "benchmark (f): GBIF-style pages served by bench/page_server.py"
eligibility = "explicit"
kind = "rest_json"
base_url = "{base_url}"

[[source.resource]]
name = "occurrences"
path = "/occurrence/search"
records_path = "results"
pagination = {{ type = "offset_limit", page_size = {page_size}, total_path = "count" }}
write_disposition = "append"
"""


def main() -> None:
    binary, base_url, pages_json, work = sys.argv[1:5]
    with open(pages_json) as f:
        meta = json.load(f)
    os.makedirs(work, exist_ok=True)
    registry = os.path.join(work, "databox.toml")
    with open(registry, "w") as f:
        f.write(REGISTRY.format(base_url=base_url, page_size=meta["page_size"]))
    start = time.monotonic()
    proc = subprocess.run([binary, "--config", registry, "run", "synthetic"], capture_output=True,
                          text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"databox run failed (exit {proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    rows = {m.group(1): int(m.group(2)) for m in
            re.finditer(r"raw_synthetic\.(\w+)\s+\w+\s+rows=(\d+)", proc.stdout)}
    records = rows.get("occurrences", 0)
    all_rows = sum(v for k, v in rows.items() if not k.startswith("_dlt"))
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    size_mb = meta["bytes"] / (1024 * 1024)
    print(f"result: format=rest input_mb={size_mb:.1f} records={records} "
          f"rows_all_tables={all_rows} seconds={seconds:.3f} records_per_s={records / seconds:.0f} "
          f"mb_per_s={size_mb / seconds:.1f} databox_rss_mb={rss_mb:.0f} "
          f"tables={','.join(sorted(k for k in rows if not k.startswith('_dlt')))}")


if __name__ == "__main__":
    main()
