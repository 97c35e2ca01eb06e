"""Bench (h): the `databox ingest` command on a benchmark input, as a user runs it: a project
made by `databox init` in OUT_DIR (embedded SQLite catalog, local warehouse; not timed), then
`databox ingest INPUT --table raw_bench.<table>` timed from start to exit. Prints one
"result: key=value ..." line for run_bench.py. Not product code.

  databox_ingest.py DATABOX ndjson|csv INPUT OUT_DIR [--config REGISTRY] [--table TABLE]
                    [INGEST_OPTION...]
--config ingests into an existing registry (e.g. a REST catalog with an S3 warehouse) instead of
a project made in OUT_DIR; --table names the table (default raw_bench.events / .readings);
further options go to `databox ingest` as they are (e.g. --partition 'day(observed_at)').
"""
import argparse
import os
import re
import subprocess
import sys
import time


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("databox")
    ap.add_argument("kind", choices=("ndjson", "csv"))
    ap.add_argument("path")
    ap.add_argument("out")
    ap.add_argument("--config", default=None)
    ap.add_argument("--table", default=None)
    args, ingest_options = ap.parse_known_args()
    databox, kind, path = args.databox, args.kind, args.path
    config = args.config
    if config is None:
        project = os.path.join(args.out, "project")
        subprocess.run([databox, "init", project], check=True, capture_output=True)
        config = os.path.join(project, "databox.toml")
    table = args.table or ("raw_bench.events" if kind == "ndjson" else "raw_bench.readings")
    start = time.monotonic()
    proc = subprocess.run([databox, "--config", config, "ingest", path, "--table", table,
                           *ingest_options], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"databox ingest failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    # "  raw_bench.<table>  append  rows=N  snapshot=..." per table; the system tables are 1 row.
    namespace = re.escape(table.split(".")[0])
    rows = {m.group(1): int(m.group(2))
            for m in re.finditer(namespace + r"\.(\w+)\s+\w+\s+rows=(\d+)", proc.stdout)}
    data = {t: n for t, n in rows.items() if not t.startswith("_dlt_")}
    records = data.get(table.split(".")[1], 0)
    fields = {"format": kind, "input_mb": f"{os.path.getsize(path) / 2**20:.1f}",
              "records": records, "rows_all_tables": sum(data.values()), "tables": len(data),
              "seconds": f"{seconds:.3f}", "records_per_s": f"{records / seconds:.0f}",
              "mb_per_s": f"{os.path.getsize(path) / 2**20 / seconds:.1f}"}
    print("result: " + " ".join(f"{k}={v}" for k, v in fields.items()))


if __name__ == "__main__":
    main()
