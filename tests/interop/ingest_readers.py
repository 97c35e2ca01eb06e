"""`databox ingest` read back by readers we did not write: pyiceberg (SqlCatalog on the project's
catalog.sqlite) and DuckDB's iceberg extension (iceberg_scan of the current metadata file).

usage: ingest_readers.py <databox binary> <duckdb extension dir>
Makes a project with `databox init` in a temporary folder, ingests a gzip NDJSON file with
merge on `id`, then a CSV that updates one row and adds one, then a file with a malformed line
(which must fail, naming file and line, and commit nothing), and compares both readers' rows
with the values written below.
"""
import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
from pyiceberg.catalog.sql import SqlCatalog

EXPECTED = [(1, "a"), (2, "B"), (3, "c")]


def ingest(databox, project, *args):
    return subprocess.run([databox, "--config", str(project / "databox.toml"), "ingest", *args],
                          cwd=project, capture_output=True, text=True)


def main():
    databox, ext_dir = sys.argv[1:3]
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "p"
        subprocess.run([databox, "init", str(project)], check=True, capture_output=True)
        with gzip.open(project / "first.ndjson.gz", "wt") as f:
            f.write('{"id": 1, "name": "a"}\n{"id": 2, "name": "b"}\n')
        (project / "second.csv").write_text("id,name\n2,B\n3,c\n")
        (project / "bad.jsonl").write_text('{"id": 4, "name": "d"}\n{"id": 5,\n')
        for args in (["first.ndjson.gz"], ["second.csv"]):
            done = ingest(databox, project, *args, "--table", "raw_dump.people",
                          "--write-disposition", "merge", "--primary-key", "id")
            print(done.stdout, done.stderr)
            if done.returncode != 0:
                failures.append(f"ingest {args} exited {done.returncode}")
        bad = ingest(databox, project, "bad.jsonl", "--table", "raw_dump.people")
        print(bad.stdout, bad.stderr)
        if bad.returncode != 1 or "bad.jsonl:2" not in bad.stderr:
            failures.append(f"malformed input: exit {bad.returncode}, stderr {bad.stderr!r}")

        # `databox query` shows the ingested table beside the sources' (no registry entry).
        queried = subprocess.run([databox, "--config", str(project / "databox.toml"), "query",
                                  "--format", "csv",
                                  "SELECT id, name FROM polaris_aws.raw_dump.people ORDER BY id"],
                                 capture_output=True, text=True)
        want_csv = "id,name\n" + "".join(f"{i},{n}\n" for i, n in EXPECTED)
        if queried.returncode != 0 or queried.stdout != want_csv:
            failures.append(f"databox query: exit {queried.returncode}, {queried.stdout!r} "
                            f"{queried.stderr!r}, want {want_csv!r}")

        catalog = SqlCatalog("databox_lake",
                             uri=f"sqlite:///{project / '.databox' / 'catalog.sqlite'}")
        table = catalog.load_table("raw_dump.people")
        rows = sorted((r["id"], r["name"]) for r in table.scan().to_arrow().to_pylist())
        if rows != EXPECTED:
            failures.append(f"pyiceberg rows {rows} != {EXPECTED}")
        status = catalog.load_table("raw_dump._dlt_load_status").scan().to_arrow().to_pylist()
        if sorted(r["status"] for r in status) != [0, 0]:
            failures.append(f"_dlt_load_status rows {status}: want two loads with status 0")
        load_ids = {r["_dlt_load_id"] for r in table.scan().to_arrow().to_pylist()}
        if not load_ids <= {r["load_id"] for r in status}:
            failures.append(f"row load ids {load_ids} are not in _dlt_load_status")

        con = duckdb.connect(config={"extension_directory": ext_dir,
                                     "autoinstall_known_extensions": False,
                                     "autoload_known_extensions": False})
        con.execute("LOAD iceberg")
        got = sorted(con.execute("SELECT id, name FROM iceberg_scan(?)",
                                 [table.metadata_location]).fetchall())
        if got != EXPECTED:
            failures.append(f"duckdb rows {got} != {EXPECTED}")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
