"""Reads tables with pyiceberg (SqlCatalog) and DuckDB's iceberg extension and compares them
with expectations computed by the C++ test: rows, field ids, snapshot operations.

usage: check_tables.py <catalog.db> <warehouse uri> <expectations.json> <duckdb extension dir>
expectations: {"ns.table": {"rows": [[...], ...], "field_ids": {"a": 1, "s.x": 3},
               "types": {"a": "long"}, "operations": ["append", ...], "snapshot_count": n,
               "duckdb": true}}
"""
import json
import sys

import duckdb
from pyiceberg.catalog.sql import SqlCatalog


def norm_rows(rows):
    return sorted(json.dumps(list(r), default=str, sort_keys=True) for r in rows)


def main():
    db, warehouse, expectations_path, ext_dir = sys.argv[1:5]
    expectations = json.load(open(expectations_path))
    catalog = SqlCatalog("databox", uri=f"sqlite:///{db}", warehouse=warehouse)
    con = duckdb.connect(config={"extension_directory": ext_dir,
                                 "autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    con.execute("SET TimeZone = 'UTC'")
    con.execute("LOAD iceberg")
    failures = []
    for name, want in expectations.items():
        table = catalog.load_table(name)
        got = norm_rows([tuple(r.values()) for r in table.scan().to_arrow().to_pylist()])
        expected = norm_rows(want["rows"])
        if got != expected:
            failures.append(f"{name}: pyiceberg rows {got} != expected {expected}")
        schema = table.schema()
        for field_name, field_id in want.get("field_ids", {}).items():
            field = schema.find_field(field_name)
            if field.field_id != field_id:
                failures.append(f"{name}: field {field_name} id {field.field_id} != {field_id}")
        for field_name, type_name in want.get("types", {}).items():
            if str(schema.find_field(field_name).field_type) != type_name:
                failures.append(f"{name}: field {field_name} type {schema.find_field(field_name).field_type} != {type_name}")
        history = []
        snapshot = table.current_snapshot()
        while snapshot is not None:
            history.append(snapshot.summary.operation.value)
            snapshot = table.snapshot_by_id(snapshot.parent_snapshot_id) if snapshot.parent_snapshot_id else None
        history.reverse()
        if "operations" in want and history != want["operations"]:
            failures.append(f"{name}: pyiceberg history {history} != {want['operations']}")
        if "snapshot_count" in want and len(table.snapshots()) != want["snapshot_count"]:
            failures.append(f"{name}: {len(table.snapshots())} snapshots != {want['snapshot_count']}")
        if want.get("duckdb", True):
            location = table.metadata_location
            rows = con.execute("SELECT * FROM iceberg_scan(?)", [location]).fetchall()
            got = norm_rows(rows)
            if got != expected:
                failures.append(f"{name}: duckdb rows {got} != expected {expected}")
            columns = [d[0] for d in con.execute("SELECT * FROM iceberg_scan(?) LIMIT 0", [location]).description]
            top = [f.name for f in schema.fields]
            if columns != top:
                failures.append(f"{name}: duckdb columns {columns} != {top}")
        shown = history if len(history) <= 10 else f"{len(history)} snapshots"
        print(f"checked {name}: {len(expected)} rows, history {shown}")
    for f in failures:
        print("FAIL", f)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
