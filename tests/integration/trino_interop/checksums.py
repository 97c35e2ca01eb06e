"""Row counts and a checksum of every raw_* table of the REST catalog, read by pyiceberg or by
Trino (its HTTP client protocol), in the same JSON form, so tables.py compare can compare them.

usage: checksums.py pyiceberg OUT.json
           every table of every raw_* namespace (CATALOG_URI, REST_WAREHOUSE, S3_* as tables.py)
       checksums.py trino TABLES.json OUT.json
           the tables and columns of TABLES.json (a pyiceberg dump) through Trino (TRINO_URI)
       checksums.py sql 'STATEMENT'
           runs one statement on Trino and prints its rows as JSON lines
The checksum is the SHA-256 of the sorted rows of the table's top-level string, integer, long,
boolean and double columns (each row as a JSON list); a table's entry also names those columns.
Exits non-zero with a message on any failure.
"""
import hashlib
import json
import os
import sys
import urllib.request

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../refresh_rest"))
from pyiceberg.types import BooleanType, DoubleType, IntegerType, LongType, StringType  # noqa: E402
from tables import rest_catalog  # noqa: E402

CHECKED_TYPES = (StringType, IntegerType, LongType, BooleanType, DoubleType)


def digest(rows):
    lines = sorted(json.dumps(list(row)) for row in rows)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def trino(sql):
    """Runs one statement through Trino's client protocol; returns (column names, rows)."""
    columns, rows, _ = trino_with_stats(sql)
    return columns, rows


def trino_with_stats(sql):
    """trino() and the query's final statistics (the protocol's "stats": processedRows,
    physicalInputBytes, totalSplits, ...)."""
    headers = {"X-Trino-User": "databox", "X-Trino-Catalog": "iceberg",
               "Content-Type": "text/plain"}
    request = urllib.request.Request(f"{os.environ['TRINO_URI']}/v1/statement",
                                     data=sql.encode(), headers=headers, method="POST")
    columns, rows, stats = None, [], {}
    while request is not None:
        with urllib.request.urlopen(request, timeout=300) as r:
            page = json.load(r)
        if "error" in page:
            sys.exit(f"FAIL: Trino: {page['error'].get('message')} ({sql})")
        columns = columns or [c["name"] for c in page.get("columns", [])] or None
        rows += page.get("data", [])
        stats = page.get("stats", {})
        next_uri = page.get("nextUri")
        request = urllib.request.Request(next_uri, headers=headers) if next_uri else None
    return columns or [], rows, stats


def dump_pyiceberg():
    catalog = rest_catalog("databox_lake")
    out = {}
    for (ns,) in catalog.list_namespaces():
        if not ns.startswith("raw_"):
            continue
        for ident in catalog.list_tables(ns):
            table = catalog.load_table(ident)
            cols = [f.name for f in table.schema().fields if isinstance(f.field_type, CHECKED_TYPES)]
            arrow = table.scan().to_arrow()
            data = [arrow.column(c).to_pylist() for c in cols]
            out[".".join(ident)] = {"rows": arrow.num_rows, "columns": cols,
                                    "checksum": digest(zip(*data))}
    if not out:
        sys.exit("FAIL: pyiceberg found no raw_* table")
    return out


def dump_trino(tables_path):
    out = {}
    for name, entry in json.load(open(tables_path)).items():
        ns, table = name.split(".", 1)
        cols = entry["columns"]
        qualified = f'iceberg."{ns}"."{table}"'
        _, count = trino(f"SELECT count(*) FROM {qualified}")
        select = ", ".join(f'"{c}"' for c in cols) or "1"
        _, rows = trino(f"SELECT {select} FROM {qualified}")
        out[name] = {"rows": count[0][0], "columns": cols,
                     "checksum": digest(rows if cols else [])}
    return out


def main():
    mode = sys.argv[1]
    if mode == "pyiceberg":
        out, path = dump_pyiceberg(), sys.argv[2]
    elif mode == "trino":
        out, path = dump_trino(sys.argv[2]), sys.argv[3]
    elif mode == "sql":
        columns, rows = trino(sys.argv[2])
        for row in rows:
            print(json.dumps(dict(zip(columns, row))))
        return
    else:
        sys.exit(f"FAIL: unknown mode {mode}")
    with open(path, "w") as f:
        json.dump(out, f, indent=1, sort_keys=True)
    print(f"{mode} read {len(out)} tables ({sum(t['rows'] for t in out.values())} rows, "
          f"{sum(len(t['columns']) for t in out.values())} columns checksummed)")


if __name__ == "__main__":
    main()
