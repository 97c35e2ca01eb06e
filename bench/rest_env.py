"""The KEY=VALUE files scripts/services writes (a catalog server's CATALOG_*, S3's S3_*), read
for the Python peers of the REST benchmarks, and pyiceberg's RestCatalog over them: the REST
integration tests' own (tests/integration/refresh_rest/tables.py: the S3 endpoint and keys, and
SigV4 signing of every catalog request when CATALOG_SIGV4=1, as SeaweedFS's catalog wants), with
the files' variables put in the environment as the tests source them. Not product code.
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                                "tests", "integration", "refresh_rest"))
import tables  # noqa: E402  (the tests' pyiceberg catalog over scripts/services' variables)


def read_env(path: str) -> dict:
    out = {}
    with open(path) as f:
        for line in f:
            if "=" in line and not line.startswith("#"):
                key, value = line.rstrip("\n").split("=", 1)
                out[key] = value
    return out


def rest_catalog(cat: dict, s3: dict, warehouse: str):
    """pyiceberg's RestCatalog named "bench" over a catalog's and S3's variables."""
    os.environ.update(cat)
    os.environ.update(s3)
    os.environ["REST_WAREHOUSE"] = warehouse
    return tables.rest_catalog("bench")
