"""pyiceberg's RestCatalog against the same catalog server as our C++ client.

usage: interop.py STATE_DIR check-ours NS TABLE | make-theirs NS TABLE
  check-ours:  load the table our client created; check columns id (long, required),
               name (string) and property made.by=databox.
  make-theirs: create the table with pyiceberg and append 3 rows (our client loads it).
Exits non-zero with a message on any failure.
"""
import sys

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog
from pyiceberg.types import LongType, StringType


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                env[key] = value
    return env


def main():
    state, mode, ns, name = sys.argv[1:5]
    cat = read_env(f"{state}/polaris.env")
    s3 = read_env(f"{state}/s3.env")
    catalog = RestCatalog("interop", **{
        "uri": cat["CATALOG_URI"], "warehouse": cat.get("CATALOG_WAREHOUSE", ""),
        "s3.endpoint": s3["S3_ENDPOINT"], "s3.access-key-id": s3["S3_ACCESS_KEY_ID"],
        "s3.secret-access-key": s3["S3_SECRET_ACCESS_KEY"], "s3.region": s3["S3_REGION"],
        "s3.force-virtual-addressing": "false"})
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
