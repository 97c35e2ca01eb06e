#!/usr/bin/env python3
"""Independent reader for the dependency-fault tests: opens every table of one namespace through
pyiceberg's RestCatalog (straight at the catalog server and the S3 store, not through the fault
proxies) and reports, per table, its metadata location, current snapshot, row count, and the
rows grouped by load: for tables with a _dlt_load_id column the sorted `id` values (or the row
count when there is no `id`) of each load, for _dlt_load_status the load ids it lists.

usage: check_rest_tables.py CATALOG_URI WAREHOUSE S3_ENDPOINT NAMESPACE
(S3 keys from S3_ACCESS_KEY_ID / S3_SECRET_ACCESS_KEY / S3_REGION.)
Prints {"tables": {name: {"metadata_location", "snapshot", "rows", "by_load"?, "status_loads"?}}}.
A namespace that does not exist yet has no tables. Exits 1 with a message when a table cannot
be read.
"""
import json
import os
import sys
from collections import Counter, defaultdict

from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.exceptions import NoSuchNamespaceError


def main() -> int:
    uri, warehouse, endpoint, namespace = sys.argv[1:5]
    env = os.environ
    catalog = RestCatalog("check", **{
        "uri": uri, "warehouse": warehouse, "s3.endpoint": endpoint,
        "s3.access-key-id": env["S3_ACCESS_KEY_ID"],
        "s3.secret-access-key": env["S3_SECRET_ACCESS_KEY"],
        "s3.region": env.get("S3_REGION", "us-east-1"),
        "s3.force-virtual-addressing": "false"})
    try:
        identifiers = catalog.list_tables(namespace)
    except NoSuchNamespaceError:
        identifiers = []
    result = {}
    for identifier in identifiers:
        try:
            table = catalog.load_table(identifier)
            arrow = table.scan().to_arrow()
        except Exception as error:  # any failure to read is the finding
            print(f"{'.'.join(identifier)}: unreadable: {error!r}", file=sys.stderr)
            return 1
        name = identifier[-1]
        snapshot = table.current_snapshot()
        entry = {
            "metadata_location": table.metadata_location,
            "snapshot": snapshot.snapshot_id if snapshot else None,
            "rows": arrow.num_rows,
        }
        columns = arrow.column_names
        if "_dlt_load_id" in columns:
            groups = defaultdict(list)
            load_ids = arrow.column("_dlt_load_id").to_pylist()
            ids = arrow.column("id").to_pylist() if "id" in columns else [None] * len(load_ids)
            for load_id, key in zip(load_ids, ids):
                groups[load_id].append(key)
            entry["by_load"] = {
                load: sorted(keys) if "id" in columns else len(keys) for load, keys in groups.items()}
        if name == "_dlt_load_status":
            counts = Counter(arrow.column("load_id").to_pylist())
            entry["status_loads"] = dict(counts)
        result[name] = entry
    print(json.dumps({"tables": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
