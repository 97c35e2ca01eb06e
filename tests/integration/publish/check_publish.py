#!/usr/bin/env python3
"""Reads a `databox publish` target as a consumer would, with readers Databox did not write.

usage: check_publish.py verify TARGET STATE_DIR EXT_DIR
         every relation of the current version, read by DuckDB (iceberg_scan of its metadata
         file / ATTACH of models.duckdb) and, for raw tables, by pyiceberg's StaticTable, has the
         row count and row checksum of the authoritative relation (the raw table through
         pyiceberg's SqlCatalog on the publisher's catalog.sqlite; the model in the publisher's
         analytics DuckDB) and the manifest's row count and ordered-schema SHA-256; and no
         published metadata, manifest or pointer file names the publisher's state folder.
       check_publish.py valid TARGET EXT_DIR
         the pointer names a complete version: its manifest exists and every relation reads back
         with the manifest's rows and schema SHA-256 (for the kill drills).
       check_publish.py files TARGET VERSION
         prints the data files the manifest of VERSION names, one per line.
       check_publish.py watch TARGET EXT_DIR STOP_FILE
         a consumer reading while publishes run: reads the current version (pointer, manifest,
         every relation) again and again until STOP_FILE exists; a read whose rows or schema
         differ from its manifest is a mixed version and fails. A read that fails because a
         later publish retired its version (its manifest is gone) is counted, not failed.
       check_publish.py tables TARGET
         prints each raw table of the current version as NAME TABLE_LOCATION METADATA_FILE ROWS
         (tab-separated: what Trino's register_table needs).
TARGET is a folder or s3://bucket/prefix (then S3_ENDPOINT, S3_ACCESS_KEY_ID,
S3_SECRET_ACCESS_KEY and S3_REGION come from the environment). Exit 0 when everything holds.
"""
import hashlib
import json
import os
import sys
import time

import duckdb


class Local:
    def __init__(self, root):
        self.root = root.rstrip("/")

    def read(self, rel):
        with open(os.path.join(self.root, rel), "rb") as f:
            return f.read()

    def list(self, rel):
        base = os.path.join(self.root, rel)
        for folder, _, names in os.walk(base):
            for name in names:
                yield os.path.relpath(os.path.join(folder, name), self.root)

    def uri(self, rel):
        return os.path.join(self.root, rel)


class S3:
    def __init__(self, root):
        import boto3
        self.root = root.rstrip("/")
        bucket_and_prefix = self.root[len("s3://"):]
        self.bucket, _, self.prefix = bucket_and_prefix.partition("/")
        self.client = boto3.client(
            "s3", endpoint_url=os.environ["S3_ENDPOINT"], region_name=os.environ.get("S3_REGION", "us-east-1"),
            aws_access_key_id=os.environ["S3_ACCESS_KEY_ID"],
            aws_secret_access_key=os.environ["S3_SECRET_ACCESS_KEY"])

    def key(self, rel):
        return f"{self.prefix}/{rel}" if self.prefix else rel

    def read(self, rel):
        return self.client.get_object(Bucket=self.bucket, Key=self.key(rel))["Body"].read()

    def list(self, rel):
        paginator = self.client.get_paginator("list_objects_v2")
        for page in paginator.paginate(Bucket=self.bucket, Prefix=self.key(rel) + "/"):
            for item in page.get("Contents", []):
                yield item["Key"][len(self.prefix) + 1 if self.prefix else 0:]

    def uri(self, rel):
        return f"{self.root}/{rel}"


def store_of(target):
    return S3(target) if target.startswith("s3://") else Local(target)


def duck(ext_dir, s3):
    con = duckdb.connect(config={"extension_directory": ext_dir, "autoinstall_known_extensions": False,
                                 "autoload_known_extensions": False})
    con.execute("LOAD iceberg")
    if s3:
        con.execute("LOAD httpfs")
        endpoint = os.environ["S3_ENDPOINT"]
        con.execute("CREATE SECRET (TYPE s3, KEY_ID ?, SECRET ?, REGION ?, ENDPOINT ?, URL_STYLE 'path', USE_SSL ?)",
                    [os.environ["S3_ACCESS_KEY_ID"], os.environ["S3_SECRET_ACCESS_KEY"],
                     os.environ.get("S3_REGION", "us-east-1"), endpoint.split("://", 1)[1],
                     endpoint.startswith("https")])
    return con


def schema_sha(con, sql):
    rows = con.execute(f"DESCRIBE SELECT * FROM ({sql})").fetchall()
    text = "".join(f"{name}\t{type_}\n" for name, type_, *_ in rows)
    return hashlib.sha256(text.encode()).hexdigest()


def count_and_checksum(con, sql):
    """Rows, and an order-independent checksum of the rows' text."""
    n, total = con.execute(f"SELECT count(*), coalesce(sum(hash(CAST(r AS VARCHAR))::HUGEINT), 0) FROM ({sql}) r").fetchone()
    return int(n), int(total)


def current_manifest(store):
    pointer = json.loads(store.read("current.json"))
    assert pointer["format"] == "databox-publish", pointer
    manifest = json.loads(store.read(pointer["manifest"]))
    assert manifest["version"] == pointer["version"], (manifest["version"], pointer["version"])
    return pointer, manifest


def published_sql(store, relation):
    if relation["kind"] == "iceberg_table":
        return f"SELECT * FROM iceberg_scan('{store.uri(relation['location'])}')"
    schema, name = relation["name"].split(".", 1)
    return f'SELECT * FROM published."{schema}"."{name}"'


def attach_models(con, store, manifest):
    models = [r for r in manifest["relations"] if r["kind"] == "duckdb_table"]
    if models:
        con.execute(f"ATTACH '{store.uri(models[0]['location'])}' AS published (READ_ONLY)")


def read_relations(store, ext_dir, target, manifest):
    """Reads every relation of one version; returns the differences from its manifest."""
    con = duck(ext_dir, target.startswith("s3://"))
    problems = []
    try:
        attach_models(con, store, manifest)
        for relation in manifest["relations"]:
            sql = published_sql(store, relation)
            rows, _ = count_and_checksum(con, sql)
            if rows != relation["rows"]:
                problems.append(f"{relation['name']}: {rows} rows, manifest says {relation['rows']}")
            if schema_sha(con, sql) != relation["schema_sha256"]:
                problems.append(f"{relation['name']}: schema SHA-256 differs from the manifest's")
    finally:
        con.close()
    return problems


def valid(target, ext_dir):
    store = store_of(target)
    pointer, manifest = current_manifest(store)
    problems = read_relations(store, ext_dir, target, manifest)
    for p in problems:
        print("INVALID:", p)
    print(f"version {pointer['version']}: {len(manifest['relations'])} relations read back")
    return 1 if problems else 0


def pyiceberg_properties(target):
    if not target.startswith("s3://"):
        return {}
    return {"s3.endpoint": os.environ["S3_ENDPOINT"], "s3.access-key-id": os.environ["S3_ACCESS_KEY_ID"],
            "s3.secret-access-key": os.environ["S3_SECRET_ACCESS_KEY"],
            "s3.region": os.environ.get("S3_REGION", "us-east-1")}


def verify(target, state_dir, ext_dir):
    from pyiceberg.catalog.sql import SqlCatalog
    from pyiceberg.table import StaticTable

    store = store_of(target)
    pointer, manifest = current_manifest(store)
    con = duck(ext_dir, target.startswith("s3://"))
    attach_models(con, store, manifest)
    # Under its own name: SQLMesh's views name the database they live in.
    con.execute(f"ATTACH '{os.path.join(state_dir, 'databox.duckdb')}' AS databox (READ_ONLY)")
    catalog = SqlCatalog("databox_lake", uri=f"sqlite:///{os.path.join(state_dir, 'catalog.sqlite')}",
                         warehouse=f"file://{os.path.join(state_dir, 'warehouse')}")
    problems = []
    kinds = {"iceberg_table": 0, "duckdb_table": 0}
    for relation in manifest["relations"]:
        name = relation["name"]
        kinds[relation["kind"]] += 1
        sql = published_sql(store, relation)
        published = count_and_checksum(con, sql)
        if relation["kind"] == "iceberg_table":
            con.register("source_rows", catalog.load_table(name).scan().to_arrow())
            expected = count_and_checksum(con, "SELECT * FROM source_rows")
            static = StaticTable.from_metadata(store.uri(relation["location"]),
                                               properties=pyiceberg_properties(target))
            con.register("static_rows", static.scan().to_arrow())
            seen = count_and_checksum(con, "SELECT * FROM static_rows")
            if seen != expected:
                problems.append(f"{name}: pyiceberg StaticTable reads {seen}, authoritative {expected}")
        else:
            schema, model = name.split(".", 1)
            expected = count_and_checksum(con, f'SELECT * FROM databox."{schema}"."{model}"')
        if published != expected:
            problems.append(f"{name}: DuckDB reads {published} (rows, checksum), authoritative {expected}")
        if relation["rows"] != expected[0]:
            problems.append(f"{name}: manifest says {relation['rows']} rows, authoritative {expected[0]}")
        if schema_sha(con, sql) != relation["schema_sha256"]:
            problems.append(f"{name}: schema SHA-256 of what DuckDB reads differs from the manifest's")
    private = [os.path.realpath(state_dir), state_dir.rstrip("/")]
    scanned = 0
    for rel in ["current.json", *store.list("versions")]:
        if rel.endswith(".duckdb"):
            continue
        body = store.read(rel)
        scanned += 1
        for path in private:
            if path.encode() in body:
                problems.append(f"{rel} names the publisher's folder {path}")
    if scanned < 3 * kinds["iceberg_table"]:
        problems.append(f"only {scanned} metadata files scanned for {kinds['iceberg_table']} tables")
    if kinds["iceberg_table"] == 0 or kinds["duckdb_table"] == 0:
        problems.append(f"the version holds {kinds}: expected raw tables and models")
    for p in problems:
        print("MISMATCH:", p)
    print(f"version {pointer['version']}: {kinds['iceberg_table']} raw tables and {kinds['duckdb_table']} "
          f"models checked against the authoritative relations; {scanned} metadata files scanned")
    return 1 if problems else 0


def files(target, version):
    store = store_of(target)
    manifest = json.loads(store.read(f"versions/{int(version):06d}/manifest.json"))
    for relation in manifest["relations"]:
        for f in relation["files"]:
            print(f)
    return 0


def exists(store, rel):
    try:
        store.read(rel)
        return True
    except Exception:  # noqa: BLE001 - any failure to read it means it is gone
        return False


def watch(target, ext_dir, stop_file):
    store = store_of(target)
    reads, retired, versions, failures = 0, 0, set(), []
    while not os.path.exists(stop_file):
        try:
            pointer, manifest = current_manifest(store)
        except Exception as e:  # noqa: BLE001
            # The pointer is replaced whole; only its manifest can vanish (retired) in between.
            if exists(store, "current.json"):
                retired += 1
                continue
            failures.append(f"the pointer cannot be read: {e}")
            break
        try:
            problems = read_relations(store, ext_dir, target, manifest)
        except Exception as e:  # noqa: BLE001
            if not exists(store, pointer["manifest"]):
                retired += 1  # a later publish retired this version while it was read
                continue
            problems = [f"read failed: {e}"]
        reads += 1
        time.sleep(0.3)  # a consumer, not a load test: leave the publishes most of the machine
        versions.add(pointer["version"])
        failures += [f"version {pointer['version']}: {p}" for p in problems]
    for f in failures:
        print("MIXED:", f)
    print(f"consumer: {reads} complete reads of {len(versions)} versions during the publishes, "
          f"{retired} read(s) overtaken by retention, {len(failures)} mixed or failed")
    return 1 if failures or reads == 0 else 0


def tables(target):
    store = store_of(target)
    _, manifest = current_manifest(store)
    for relation in manifest["relations"]:
        if relation["kind"] != "iceberg_table":
            continue
        metadata = store.uri(relation["location"])
        folder, _, metadata_file = metadata.rpartition("/metadata/")
        assert folder and metadata_file, metadata
        print("\t".join([relation["name"], folder, metadata_file, str(relation["rows"])]))
    return 0


def main():
    command = sys.argv[1]
    if command == "verify":
        return verify(*sys.argv[2:5])
    if command == "valid":
        return valid(*sys.argv[2:4])
    if command == "files":
        return files(*sys.argv[2:4])
    if command == "watch":
        return watch(*sys.argv[2:5])
    if command == "tables":
        return tables(sys.argv[2])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main())
