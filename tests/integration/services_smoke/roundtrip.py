"""Round trip through the running catalog and S3 server, read by pyiceberg.

usage: roundtrip.py STATE_DIR write|read
  write: (Polaris only) get a token, create catalog `databox_smoke` on S3 via the
         management API; then create namespace + table and append 3 rows.
  read:  load the table again and check the 3 rows (run after a catalog restart).
Exits non-zero with a message on any failure. The catalog is whatever
scripts/services/start-polaris started; a FALLBACK is announced as such.
"""
import json
import sys
import urllib.parse
import urllib.request

import pyarrow as pa
from pyiceberg.catalog.rest import RestCatalog

CATALOG = "databox_smoke"
TABLE = ("smoke", "birds")
ROWS = {"id": [1, 2, 3], "name": ["wren", "robin", "kite"]}


def read_env(path):
    env = {}
    with open(path) as f:
        for line in f:
            key, sep, value = line.rstrip("\n").partition("=")
            if sep:
                env[key] = value
    return env


def http_json(url, data=None, headers=None, form=False):
    body = None
    headers = dict(headers or {})
    if data is not None and form:
        body = urllib.parse.urlencode(data).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    elif data is not None:
        body = json.dumps(data).encode()
        headers["Content-Type"] = "application/json"
    req = urllib.request.Request(url, data=body, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=30) as resp:
            text = resp.read().decode()
            return resp.status, json.loads(text) if text else None
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def polaris_token(cat):
    status, body = http_json(
        cat["POLARIS_TOKEN_URL"],
        {"grant_type": "client_credentials", "client_id": cat["POLARIS_CLIENT_ID"],
         "client_secret": cat["POLARIS_CLIENT_SECRET"], "scope": "PRINCIPAL_ROLE:ALL"},
        form=True)
    if status != 200 or "access_token" not in body:
        sys.exit(f"FAIL: Polaris token request answered {status}: {body}")
    return body["access_token"]


def polaris_create_catalog(cat, s3, token):
    spec = {"catalog": {
        "name": CATALOG, "type": "INTERNAL",
        "properties": {"default-base-location": f"s3://{s3['S3_BUCKET']}/{CATALOG}"},
        "storageConfigInfo": {
            "storageType": "S3", "allowedLocations": [f"s3://{s3['S3_BUCKET']}/"],
            "endpoint": s3["S3_ENDPOINT"], "pathStyleAccess": True,
            "stsUnavailable": True, "region": s3["S3_REGION"]}}}
    status, body = http_json(cat["POLARIS_MANAGEMENT_URL"] + "/catalogs", spec,
                             {"Authorization": f"Bearer {token}"})
    if status not in (201, 409):
        sys.exit(f"FAIL: Polaris create catalog answered {status}: {body}")
    print(f"polaris: catalog {CATALOG} {'created' if status == 201 else 'exists'}")


def open_catalog(cat, s3):
    props = {"uri": cat["CATALOG_URI"], "s3.endpoint": s3["S3_ENDPOINT"],
             "s3.access-key-id": s3["S3_ACCESS_KEY_ID"],
             "s3.secret-access-key": s3["S3_SECRET_ACCESS_KEY"],
             "s3.region": s3["S3_REGION"], "s3.force-virtual-addressing": "false"}
    if cat["CATALOG_KIND"] == "polaris":
        props.update({"warehouse": CATALOG, "scope": "PRINCIPAL_ROLE:ALL",
                      "credential": f"{cat['POLARIS_CLIENT_ID']}:{cat['POLARIS_CLIENT_SECRET']}",
                      "oauth2-server-uri": cat["POLARIS_TOKEN_URL"]})
    else:
        props["warehouse"] = cat["CATALOG_WAREHOUSE"]
    return RestCatalog(CATALOG, **props)


def main():
    state, mode = sys.argv[1], sys.argv[2]
    cat = read_env(f"{state}/polaris.env")
    s3 = read_env(f"{state}/s3.env")
    who = ("Polaris" if cat["CATALOG_KIND"] == "polaris"
           else "FALLBACK Iceberg REST catalog (NOT Polaris)")
    print(f"catalog under test: {who} at {cat['CATALOG_URI']}")
    if mode == "write" and cat["CATALOG_KIND"] == "polaris":
        polaris_create_catalog(cat, s3, polaris_token(cat))
    catalog = open_catalog(cat, s3)
    ident = ".".join(TABLE)
    if mode == "write":
        catalog.create_namespace_if_not_exists(TABLE[0])
        schema = pa.schema([pa.field("id", pa.int64(), nullable=False),
                            pa.field("name", pa.string())])
        if catalog.table_exists(ident):
            catalog.drop_table(ident)
        table = catalog.create_table(ident, schema=schema)
        table.append(pa.table(ROWS, schema=schema))
        print(f"wrote 3 rows to {ident} at {table.metadata_location}")
    table = catalog.load_table(ident)
    got = table.scan().to_arrow().sort_by("id").to_pydict()
    if got != ROWS:
        sys.exit(f"FAIL: {ident} read back {got}, expected {ROWS}")
    if not table.metadata_location.startswith(f"s3://{s3['S3_BUCKET']}/"):
        sys.exit(f"FAIL: table metadata is not on the S3 server: {table.metadata_location}")
    print(f"read back {ident}: 3 rows match ({who})")


if __name__ == "__main__":
    main()
