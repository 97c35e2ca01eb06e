#!/usr/bin/env python3
"""Independent reader for the reliability suite: opens every table of one namespace through
pyiceberg's SqlCatalog on a Databox state folder and reports, per table, the current snapshot,
the row count, and how many primary-key values occur more than once.

usage: check_tables.py STATE_DIR NAMESPACE [TABLE=KEY1,KEY2 ...]
Prints one JSON object: {"tables": {name: {"snapshot", "rows", "duplicate_keys", "keys"}}}
("keys" only for tables given with columns: the rows of those columns, as JSON arrays, sorted). A namespace that
does not exist yet has no tables. Exits 1 with a message on stderr when a table cannot be read.
"""
import json
import sys
from collections import Counter

from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.exceptions import NoSuchNamespaceError


def main() -> int:
    state_dir, namespace = sys.argv[1], sys.argv[2]
    key_columns = {}
    for spec in sys.argv[3:]:
        table, columns = spec.split("=", 1)
        key_columns[table] = columns.split(",")
    catalog = SqlCatalog(
        "databox_lake",
        uri=f"sqlite:///{state_dir}/catalog.sqlite",
        warehouse=f"file://{state_dir}/warehouse",
    )
    result = {}
    try:
        identifiers = catalog.list_tables(namespace)
    except NoSuchNamespaceError:  # nothing committed yet
        identifiers = []
    for identifier in identifiers:
        name = identifier[-1]
        try:
            table = catalog.load_table(identifier)
            snapshot = table.current_snapshot()
            arrow = table.scan().to_arrow()
        except Exception as error:  # any failure to read is the finding
            print(f"{namespace}.{name}: unreadable: {error!r}", file=sys.stderr)
            return 1
        entry = {
            "snapshot": snapshot.snapshot_id if snapshot else None,
            "rows": arrow.num_rows,
            "duplicate_keys": 0,
        }
        if name in key_columns:
            columns = [arrow.column(c).to_pylist() for c in key_columns[name]]
            keys = [list(row) for row in zip(*columns)]
            counts = Counter(json.dumps(k) for k in keys)
            entry["duplicate_keys"] = sum(n - 1 for n in counts.values() if n > 1)
            entry["keys"] = sorted(keys, key=json.dumps)
        result[name] = entry
    print(json.dumps({"tables": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
