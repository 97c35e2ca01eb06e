"""pyiceberg's RestCatalog (and Nessie's own API) against the same catalog server as our C++ client.

usage: interop.py CATALOG_ENV S3_ENV check-ours NS TABLE | make-theirs NS TABLE
                                    | nessie-history NS TABLE COMMITS
                                    | nessie-one-commit NS TABLE...
  CATALOG_ENV, S3_ENV: the KEY=VALUE files scripts/services wrote (nessie.env or polaris.env,
               and s3.env).
  check-ours:  load the table our client created; check columns id (long, required),
               name (string) and property made.by=databox.
  make-theirs: create the table with pyiceberg and append 3 rows (our client loads it).
  nessie-history: Nessie keeps only the current snapshot in table metadata; its commit log
               is the history. Reads the log of branch NESSIE_BRANCH through Nessie's REST API
               (NESSIE_API_URL), takes the commits that PUT the table after its creation,
               reads each one's metadata file with pyiceberg, and checks COMMITS distinct
               snapshots in one line (sequence numbers 1..COMMITS in log order) and the last
               one current.
  nessie-one-commit: the newest commit in Nessie's log that touches NS.TABLE touches every
               table named, each with one PUT (an atomic multi-table transaction).
Exits non-zero with a message on any failure.
"""
import json
import sys
import urllib.parse
import urllib.request

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.io import load_file_io
from pyiceberg.serializers import FromInputFile
from pyiceberg.types import LongType, StringType


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                env[key] = value
    return env


def s3_properties(s3):
    return {"s3.endpoint": s3["S3_ENDPOINT"], "s3.access-key-id": s3["S3_ACCESS_KEY_ID"],
            "s3.secret-access-key": s3["S3_SECRET_ACCESS_KEY"], "s3.region": s3["S3_REGION"],
            "s3.force-virtual-addressing": "false"}


def nessie_log(cat):
    """The branch's commit log with each commit's operations, newest first."""
    base = f"{cat['NESSIE_API_URL']}/trees/{urllib.parse.quote(cat['NESSIE_BRANCH'])}/history"
    entries, token = [], None
    while True:
        query = {"fetch": "ALL", "max-records": "200"}
        if token:
            query["page-token"] = token
        with urllib.request.urlopen(f"{base}?{urllib.parse.urlencode(query)}", timeout=30) as r:
            page = json.load(r)
        entries += page.get("logEntries", [])
        if not page.get("hasMore"):
            return entries
        token = page["token"]


def puts_of(entry, ns, name):
    return [op["content"] for op in entry.get("operations") or []
            if op.get("type") == "PUT" and op["key"]["elements"] == [ns, name]]


def nessie_table_puts(cat, ns, name):
    """The PUT operations on ns.name in the branch's commit log, oldest first."""
    return [put for entry in reversed(nessie_log(cat)) for put in puts_of(entry, ns, name)]


def check_nessie_one_commit(cat, ns, names):
    newest = next((e for e in nessie_log(cat) if puts_of(e, ns, names[0])), None)
    if newest is None:
        sys.exit(f"FAIL: no commit in Nessie's log touches {ns}.{names[0]}")
    counts = {name: len(puts_of(newest, ns, name)) for name in names}
    if any(count != 1 for count in counts.values()):
        sys.exit(f"FAIL: Nessie commit {newest['commitMeta']['hash']} puts {counts}: the "
                 "transaction was not one commit")
    print(f"Nessie commit {newest['commitMeta']['hash'][:12]} holds {', '.join(names)}")


def check_nessie_history(cat, s3, ns, name, commits):
    puts = nessie_table_puts(cat, ns, name)
    # The first PUT created the table (no snapshot yet); every later one is one commit.
    if len(puts) != commits + 1:
        sys.exit(f"FAIL: Nessie's log has {len(puts)} commits of {ns}.{name}, expected "
                 f"{commits + 1} (the create and {commits} snapshots)")
    io = load_file_io(s3_properties(s3))
    parent, seen = None, set()
    for sequence, content in enumerate(puts[1:], start=1):
        metadata = FromInputFile.table_metadata(io.new_input(content["metadataLocation"]))
        snapshot = metadata.snapshot_by_id(metadata.current_snapshot_id)
        if snapshot is None or snapshot.snapshot_id != content["snapshotId"]:
            sys.exit(f"FAIL: {content['metadataLocation']}: its current snapshot is not the "
                     f"one Nessie recorded ({content['snapshotId']})")
        # One line of commits: sequence numbers 1, 2, ... in log order. Nessie drops
        # parent-snapshot-id from the metadata it writes (the parent is not in it); a parent
        # that is given must be the previous commit's snapshot.
        if snapshot.sequence_number != sequence:
            sys.exit(f"FAIL: commit {sequence} in Nessie's log has sequence number "
                     f"{snapshot.sequence_number}: the history forks or skips")
        if snapshot.parent_snapshot_id not in (None, parent):
            sys.exit(f"FAIL: snapshot {snapshot.snapshot_id} has parent "
                     f"{snapshot.parent_snapshot_id}, expected {parent}: the history forks")
        seen.add(snapshot.summary["databox.worker"])
        parent = snapshot.snapshot_id
    if len(seen) != commits:
        sys.exit(f"FAIL: {len(seen)} distinct worker commits in Nessie's log, expected {commits}")
    catalog = RestCatalog("interop", **catalog_properties(cat, s3))
    current = catalog.load_table(f"{ns}.{name}").metadata.current_snapshot_id
    if current != parent:
        sys.exit(f"FAIL: the table's current snapshot is {current}, Nessie's last commit {parent}")
    print(f"Nessie's log holds {commits} commits of {ns}.{name}, sequence numbers 1..{commits}")


def catalog_properties(cat, s3):
    """pyiceberg's properties for the catalog of `cat` (SigV4-signed when CATALOG_SIGV4=1)."""
    properties = {"uri": cat["CATALOG_URI"], "warehouse": cat.get("CATALOG_WAREHOUSE", ""),
                  **s3_properties(s3)}
    if cat.get("CATALOG_SIGV4") == "1":
        properties.update({"rest.sigv4-enabled": "true",
                           "rest.signing-name": cat["CATALOG_SIGNING_NAME"],
                           "rest.signing-region": cat["CATALOG_SIGNING_REGION"],
                           "client.access-key-id": cat["CATALOG_ACCESS_KEY_ID"],
                           "client.secret-access-key": cat["CATALOG_SECRET_ACCESS_KEY"],
                           "client.region": cat["CATALOG_SIGNING_REGION"]})
    return properties


def main():
    cat_env, s3_env, mode = sys.argv[1:4]
    cat = read_env(cat_env)
    s3 = read_env(s3_env)
    if mode == "nessie-history":
        ns, name, commits = sys.argv[4:7]
        check_nessie_history(cat, s3, ns, name, int(commits))
        return
    if mode == "nessie-one-commit":
        check_nessie_one_commit(cat, sys.argv[4], sys.argv[5:])
        return
    ns, name = sys.argv[4:6]
    catalog = RestCatalog("interop", **catalog_properties(cat, s3))
    ident = f"{ns}.{name}"
    if mode == "check-ours":
        table = catalog.load_table(ident)
        fields = [(f.name, type(f.field_type), f.required) for f in table.schema().fields]
        want = [("id", LongType, True), ("name", StringType, False)]
        if fields != want:
            sys.exit(f"FAIL: pyiceberg sees columns {fields}, expected {want}")
        if table.properties.get("made.by") != "databox":
            sys.exit(f"FAIL: pyiceberg sees properties {table.properties}")
        print(f"pyiceberg loaded {ident} created by databox: columns and properties match")
    elif mode == "make-theirs":
        schema = pa.schema([pa.field("id", pa.int64(), nullable=False),
                            pa.field("name", pa.string())])
        table = catalog.create_table(ident, schema=schema, properties={"made.by": "pyiceberg"})
        table.append(pa.table({"id": [1, 2, 3], "name": ["wren", "robin", "kite"]}, schema=schema))
        print(f"pyiceberg created {ident} with 3 rows")
    else:
        sys.exit(f"FAIL: unknown mode {mode}")


if __name__ == "__main__":
    main()
