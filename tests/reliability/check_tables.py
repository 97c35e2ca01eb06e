#!/usr/bin/env python3
"""Independent reader for the reliability suite: opens every table of a namespace through
pyiceberg's SqlCatalog on a Databox state folder and reports, per table, the current snapshot,
the row count, and how many primary-key values occur more than once.

usage: check_tables.py STATE_DIR NAMESPACE [TABLE=KEY1,KEY2 ...]
Prints one JSON object: {"tables": {name: {"snapshot", "rows", "duplicate_keys", "keys"}}}
("keys" only for tables given with columns: the rows of those columns, as JSON arrays, sorted). A namespace that
does not exist yet has no tables. Exits 1 with a message on stderr when a table cannot be read.

usage: check_tables.py --serve
Reads one JSON request per line on stdin and answers each with one JSON line on stdout:
  {"state_dir": DIR, "namespaces": [NS...], "keys": {"NS.TABLE": [COL...]},
   "content": BOOL, "files": BOOL}
-> {"namespaces": {NS: {"tables": {name: entry}}}, "files": {...}} or {"error": TEXT}.
Each table entry also has "parent", "load_id" and "schema" (the current snapshot's parent id,
its "databox.load-id" summary value, and the current schema as pyiceberg's JSON); with "content", "content_rows" and "content_digest": the
SHA-256 of the table's rows, each without the per-load _dlt_ columns (_dlt_load_id, _dlt_id,
_dlt_parent_id, _dlt_root_id, and the load time _loaded_at), as sorted canonical JSON, so two loads of the same input
compare equal and a lost or duplicated row does not. With "files": every file below each
namespace's warehouse folder (<warehouse>/databox_lake/<namespace>), set against every file the catalog's metadata references
(current metadata file, its metadata log, and for every snapshot its manifest list, manifests
and data files, deleted entries included):
  {"on_disk": N, "referenced": N, "unreferenced": [path...], "missing": [path...]}
"""
import hashlib
import json
import os
import sys
from collections import Counter

from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.exceptions import NoSuchNamespaceError

PER_LOAD_COLUMNS = {"_dlt_load_id", "_dlt_id", "_dlt_parent_id", "_dlt_root_id", "_loaded_at"}
LOAD_ID_KEY = "databox.load-id"

_catalogs = {}
_manifest_files = {}  # manifest path -> data file paths (manifests are immutable)


def catalog_for(state_dir):
    if state_dir not in _catalogs:
        _catalogs[state_dir] = SqlCatalog(
            "databox_lake",
            uri=f"sqlite:///{state_dir}/catalog.sqlite",
            warehouse=f"file://{state_dir}/warehouse",
        )
    return _catalogs[state_dir]


def local_path(location):
    return location[len("file://"):] if location.startswith("file://") else location


def content_digest(arrow):
    columns = [c for c in arrow.column_names if c not in PER_LOAD_COLUMNS]
    rows = arrow.select(columns).to_pylist()
    lines = sorted(json.dumps(r, sort_keys=True, default=str) for r in rows)
    return hashlib.sha256("\n".join(lines).encode()).hexdigest()


def referenced_files(table):
    metadata = table.metadata
    files = {local_path(table.metadata_location)}
    files.update(local_path(e.metadata_file) for e in metadata.metadata_log)
    for snapshot in metadata.snapshots:
        files.add(local_path(snapshot.manifest_list))
        for manifest in snapshot.manifests(table.io):
            path = manifest.manifest_path
            if path not in _manifest_files:
                entries = manifest.fetch_manifest_entry(table.io, discard_deleted=False)
                _manifest_files[path] = [local_path(e.data_file.file_path) for e in entries]
            files.add(local_path(path))
            files.update(_manifest_files[path])
    return files


def describe(catalog, namespace, key_columns, content, referenced):
    """Entries of every table of `namespace`; adds the files they reference to `referenced`."""
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
            if referenced is not None:
                referenced.update(referenced_files(table))
        except Exception as error:  # any failure to read is the finding
            raise RuntimeError(f"{namespace}.{name}: unreadable: {error!r}") from error
        entry = {
            "snapshot": snapshot.snapshot_id if snapshot else None,
            "parent": snapshot.parent_snapshot_id if snapshot else None,
            "load_id": snapshot.summary.get(LOAD_ID_KEY) if snapshot and snapshot.summary else None,
            "rows": arrow.num_rows,
            "schema": table.schema().model_dump_json(),
            "duplicate_keys": 0,
        }
        if name in key_columns:
            columns = [arrow.column(c).to_pylist() for c in key_columns[name]]
            keys = [list(row) for row in zip(*columns)]
            counts = Counter(json.dumps(k) for k in keys)
            entry["duplicate_keys"] = sum(n - 1 for n in counts.values() if n > 1)
            entry["keys"] = sorted(keys, key=json.dumps)
        if content:
            entry["content_rows"] = arrow.num_rows
            entry["content_digest"] = content_digest(arrow)
        result[name] = entry
    return result


def answer(request):
    state_dir = request["state_dir"]
    catalog = catalog_for(state_dir)
    keys = request.get("keys", {})
    referenced = set() if request.get("files") else None
    out = {"namespaces": {}}
    for namespace in request["namespaces"]:
        columns = {k.split(".", 1)[1]: v for k, v in keys.items() if k.startswith(namespace + ".")}
        tables = describe(catalog, namespace, columns, request.get("content", False), referenced)
        out["namespaces"][namespace] = {"tables": tables}
    if referenced is not None:
        on_disk = set()
        for namespace in request["namespaces"]:
            # The SQL catalog's table folders: <warehouse>/<catalog name>/<namespace>/<table>.
            folder = os.path.join(state_dir, "warehouse", catalog.name, namespace)
            for root, _, names in os.walk(folder):
                on_disk.update(os.path.join(root, n) for n in names)
        out["files"] = {
            "on_disk": len(on_disk),
            "referenced": len(referenced),
            "unreferenced": sorted(on_disk - referenced),
            "missing": sorted(referenced - on_disk),
        }
    return out


def serve():
    for line in sys.stdin:
        if not line.strip():
            continue
        try:
            out = answer(json.loads(line))
        except Exception as error:  # reported to the test, which counts it as a violation
            out = {"error": f"{error}"}
        sys.stdout.write(json.dumps(out) + "\n")
        sys.stdout.flush()
    return 0


def main() -> int:
    if sys.argv[1:] == ["--serve"]:
        return serve()
    state_dir, namespace = sys.argv[1], sys.argv[2]
    key_columns = {}
    for spec in sys.argv[3:]:
        table, columns = spec.split("=", 1)
        key_columns[table] = columns.split(",")
    try:
        result = describe(catalog_for(state_dir), namespace, key_columns, False, None)
    except RuntimeError as error:
        print(error, file=sys.stderr)
        return 1
    for entry in result.values():  # the one-shot form keeps its original fields
        del entry["parent"], entry["load_id"], entry["schema"]
    print(json.dumps({"tables": result}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
