"""Bench (h): the `databox ingest` command on a benchmark input, as a user runs it: a project
made by `databox init` in OUT_DIR (embedded SQLite catalog, local warehouse; not timed), then
`databox ingest INPUT --table raw_bench.<table>` timed from start to exit. Prints one
"result: key=value ..." line for run_bench.py. Not product code.

  databox_ingest.py DATABOX ndjson|csv INPUT OUT_DIR
"""
import os
import re
import subprocess
import sys
import time


def main() -> None:
    databox, kind, path, out = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4]
    project = os.path.join(out, "project")
    subprocess.run([databox, "init", project], check=True, capture_output=True)
    table = "raw_bench.events" if kind == "ndjson" else "raw_bench.readings"
    start = time.monotonic()
    proc = subprocess.run([databox, "--config", os.path.join(project, "databox.toml"), "ingest",
                           path, "--table", table], capture_output=True, text=True)
    seconds = time.monotonic() - start
    if proc.returncode != 0:
        sys.exit(f"databox ingest failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
    # "  raw_bench.<table>  append  rows=N  snapshot=..." per table; the system tables are 1 row.
    rows = {m.group(1): int(m.group(2))
            for m in re.finditer(r"raw_bench\.(\w+)\s+\w+\s+rows=(\d+)", proc.stdout)}
    data = {t: n for t, n in rows.items() if not t.startswith("_dlt_")}
    records = data.get(table.split(".")[1], 0)
    fields = {"format": kind, "input_mb": f"{os.path.getsize(path) / 2**20:.1f}",
              "records": records, "rows_all_tables": sum(data.values()), "tables": len(data),
              "seconds": f"{seconds:.3f}", "records_per_s": f"{records / seconds:.0f}",
              "mb_per_s": f"{os.path.getsize(path) / 2**20 / seconds:.1f}"}
    print("result: " + " ".join(f"{k}={v}" for k, v in fields.items()))


if __name__ == "__main__":
    main()
