"""Reads every raw_* table of a databox catalog with pyiceberg (not our code) and writes or
compares a summary: per table its row count, column names and the sorted primary-key values
declared in the registry ([[source.resource]] primary_key; child and system tables have none).

usage: tables.py dump-sql CATALOG_SQLITE CATALOG_NAME OUT.json
       tables.py dump-rest CATALOG_NAME OUT.json   (CATALOG_URI, S3_* from scripts/services;
                                                    warehouse REST_WAREHOUSE, else CATALOG_NAME;
                                                    SigV4-signed when CATALOG_SIGV4=1; with
                                                    REST_UNDERSCORE_PREFIX=P the catalog's P_x
                                                    tables are reported as _x, as databox
                                                    documents the mapping)
       tables.py compare EXPECTED.json ACTUAL.json
       tables.py append-copy CATALOG_NAME NAMESPACE.TABLE N   (REST, as dump-rest): appends a
                                                    copy of N of the table's rows, one commit
A load-independent summary: _dlt_id/_dlt_load_id values and load times are not compared.
Both dumps also check, from the snapshots' databox.load-id, that no table's data for a load
was committed after that load's _dlt_load_status row.
Exits non-zero with a message on any failure.
"""
import json
import os
import sys
import tomllib

from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.catalog.sql import SqlCatalog

HERE = os.path.dirname(os.path.abspath(__file__))
REGISTRY = os.path.normpath(os.path.join(HERE, "../../../examples/databox/databox.toml"))


def primary_keys():
    """raw_<source>.<resource> -> primary key columns, from the example registry."""
    with open(REGISTRY, "rb") as f:
        registry = tomllib.load(f)
    keys = {}
    for source in registry.get("source", []):
        for resource in source.get("resource", []):
            pk = resource.get("primary_key")
            if pk:
                keys[f"raw_{source['name']}.{resource['name']}"] = [pk] if isinstance(pk, str) else pk
    return keys


def check_status_committed_last(ns, committed_at):
    """committed_at: table -> {load id: snapshot timestamp}. A load's _dlt_load_status row must
    not land before any of that load's data (ties allowed: millisecond timestamps)."""
    status = committed_at.get("_dlt_load_status", {})
    if not status:
        sys.exit(f"FAIL: {ns}._dlt_load_status has no snapshot with a databox.load-id")
    for table, loads in committed_at.items():
        for load_id, ts in loads.items():
            if load_id in status and ts > status[load_id]:
                sys.exit(f"FAIL: {ns}.{table} committed load {load_id} at {ts}, after its "
                         f"_dlt_load_status row ({status[load_id]})")


def databox_name(name):
    """Databox's name of a table the REST catalog lists (docs/registry.md,
    underscore_table_prefix): P_x is databox's _x. Written here from the documentation, not
    from databox's code."""
    prefix = os.environ.get("REST_UNDERSCORE_PREFIX", "")
    if prefix and name.startswith(prefix + "_"):
        return name[len(prefix):]
    if prefix and name.startswith("_"):
        sys.exit(f"FAIL: the catalog holds {name}, which the prefix {prefix} should have mapped")
    return name


def summarize(catalog, rest=False):
    keys = primary_keys()
    out = {}
    for (ns,) in catalog.list_namespaces():
        if not ns.startswith("raw_"):
            continue
        committed_at = {}
        for ident in catalog.list_tables(ns):
            table = catalog.load_table(ident)
            if rest:
                ident = (*ident[:-1], databox_name(ident[-1]))
            name = ".".join(ident)
            committed_at[ident[-1]] = {
                s.summary["databox.load-id"]: s.timestamp_ms for s in table.snapshots()
                if s.summary is not None and "databox.load-id" in s.summary.additional_properties}
            arrow = table.scan().to_arrow()
            entry = {"rows": arrow.num_rows, "columns": sorted(arrow.column_names)}
            if name in keys:
                cols = [arrow.column(c).to_pylist() for c in keys[name]]
                entry["keys"] = sorted(json.dumps(list(t), default=str) for t in zip(*cols))
            if ident[-1] == "_dlt_load_status":
                entry["statuses"] = sorted(set(arrow.column("status").to_pylist()))
            out[name] = entry
        check_status_committed_last(ns, committed_at)
    if not out:
        sys.exit("FAIL: the catalog holds no raw_* table")
    return out


def rest_catalog(name):
    env = os.environ
    properties = {
        "uri": env["CATALOG_URI"], "warehouse": env.get("REST_WAREHOUSE", name),
        "s3.endpoint": env["S3_ENDPOINT"],
        "s3.access-key-id": env["S3_ACCESS_KEY_ID"], "s3.region": env["S3_REGION"],
        "s3.secret-access-key": env["S3_SECRET_ACCESS_KEY"],
        "s3.force-virtual-addressing": "false"}
    if env.get("CATALOG_SIGV4") == "1":  # SeaweedFS's catalog: every request signed
        properties.update({
            "rest.sigv4-enabled": "true", "rest.signing-name": env["CATALOG_SIGNING_NAME"],
            "rest.signing-region": env["CATALOG_SIGNING_REGION"],
            "client.access-key-id": env["S3_ACCESS_KEY_ID"],
            "client.secret-access-key": env["S3_SECRET_ACCESS_KEY"],
            "client.region": env["CATALOG_SIGNING_REGION"]})
    return RestCatalog(name, **properties)


def s3_client():
    """boto3's S3 client for the warehouse's S3 server (S3_* from scripts/services)."""
    import boto3  # only the callers that touch S3 objects need it
    env = os.environ
    return boto3.client("s3", endpoint_url=env["S3_ENDPOINT"], region_name=env["S3_REGION"],
                        aws_access_key_id=env["S3_ACCESS_KEY_ID"],
                        aws_secret_access_key=env["S3_SECRET_ACCESS_KEY"])


def main():
    mode = sys.argv[1]
    if mode == "dump-sql":
        db, name, path = sys.argv[2:5]
        catalog = SqlCatalog(name, uri=f"sqlite:///{db}")
    elif mode == "dump-rest":
        name, path = sys.argv[2:4]
        catalog = rest_catalog(name)
    elif mode == "append-copy":
        name, table_name, n = sys.argv[2], sys.argv[3], int(sys.argv[4])
        table = rest_catalog(name).load_table(table_name)
        rows = table.scan(limit=n).to_arrow()
        if rows.num_rows != n:
            sys.exit(f"FAIL: {table_name} has {rows.num_rows} rows, fewer than {n}")
        table.append(rows)
        print(f"appended {n} rows to {table_name} (snapshot {table.current_snapshot().snapshot_id})")
        return
    elif mode == "compare":
        want = json.load(open(sys.argv[2]))
        got = json.load(open(sys.argv[3]))
        problems = []
        for table in sorted(set(want) | set(got)):
            if table not in got:
                problems.append(f"{table}: missing")
            elif table not in want:
                problems.append(f"{table}: unexpected")
            else:
                for field in sorted(set(want[table]) | set(got[table])):
                    if want[table].get(field) != got[table].get(field):
                        w, g = want[table].get(field), got[table].get(field)
                        if isinstance(w, list) and isinstance(g, list) and len(w) > 5:
                            w, g = f"{len(w)} values", f"{len(g)} values (differing)"
                        problems.append(f"{table}.{field}: expected {w}, got {g}")
        if problems:
            sys.exit("FAIL: tables differ:\n  " + "\n  ".join(problems))
        rows = sum(t["rows"] for t in got.values())
        print(f"{len(got)} tables, {rows} rows: same counts, columns and keys")
        return
    else:
        sys.exit(f"FAIL: unknown mode {mode}")
    summary = summarize(catalog, rest=mode == "dump-rest")
    for table, entry in summary.items():
        if table.endswith("._dlt_load_status") and entry.get("statuses") != [0]:
            sys.exit(f"FAIL: {table} has statuses {entry.get('statuses')}, expected only 0")
    with open(path, "w") as f:
        json.dump(summary, f, indent=1, sort_keys=True)
    print(f"pyiceberg read {len(summary)} tables ({sum(t['rows'] for t in summary.values())} rows)")


if __name__ == "__main__":
    main()
