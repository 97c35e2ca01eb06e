"""Every SQLMesh model's rows as the DuckDB gateway and the Trino gateway computed them.

usage: compare_models.py MODELS_DIR ANALYTICS.duckdb TRINO_CATALOG
  MODELS_DIR      the project's models/ folder: every MODEL's name (schema.model) is compared
  ANALYTICS.duckdb the DuckDB gateway's analytics database (opened read-only)
  TRINO_CATALOG   the Trino gateway's analytics catalog (TRINO_URI names the coordinator)
Rows are compared as multisets after normalizing values the two engines type differently:
integers and decimals as numbers, floats rounded to 9 significant digits, timestamps as UTC
ISO text to the microsecond, dates as ISO text. Columns named age_seconds (measured when the
model ran) are left out. Prints one line per model; exits 1 naming every model that differs.
"""
import datetime
import decimal
import os
import re
import sys

import urllib.parse

import duckdb
import trino.dbapi

SKIPPED_COLUMNS = {"age_seconds"}


def model_names(models_dir):
    names = []
    for root, _, files in os.walk(models_dir):
        for name in sorted(files):
            if not name.endswith(".sql"):
                continue
            text = open(os.path.join(root, name)).read()
            found = re.search(r"MODEL\s*\(\s*name\s+([a-z0-9_]+\.[a-z0-9_]+)", text)
            if not found:
                sys.exit(f"no MODEL name in {name}")
            names.append(found.group(1))
    return sorted(names)


def normal(value):
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int):
        return value
    if isinstance(value, decimal.Decimal):
        return float(value) if value != value.to_integral_value() else int(value)
    if isinstance(value, float):
        return float(f"{value:.9g}")
    if isinstance(value, datetime.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
        return value.isoformat(sep=" ", timespec="microseconds")
    if isinstance(value, (datetime.date, datetime.time)):
        return value.isoformat()
    return str(value)


def rows_of(columns, rows):
    keep = [i for i, c in enumerate(columns) if c not in SKIPPED_COLUMNS]
    kept = [columns[i] for i in keep]
    return kept, sorted((tuple(normal(row[i]) for i in keep) for row in rows), key=repr)


def trino_rows(cursor, sql):
    cursor.execute(sql)
    rows = cursor.fetchall()
    return [c[0] for c in cursor.description], rows


def main():
    models_dir, duckdb_path, trino_catalog = sys.argv[1:4]
    con = duckdb.connect(duckdb_path, read_only=True)
    uri = urllib.parse.urlparse(os.environ["TRINO_URI"])
    cursor = trino.dbapi.connect(host=uri.hostname, port=uri.port, user="databox",
                                 http_scheme=uri.scheme).cursor()
    differ = []
    for model in model_names(models_dir):
        schema, name = model.split(".")
        cur = con.execute(f'SELECT * FROM "{schema}"."{name}"')
        d_cols, d_rows = rows_of([c[0] for c in cur.description], cur.fetchall())
        t_cols, t_rows = trino_rows(cursor, f'SELECT * FROM "{trino_catalog}"."{schema}"."{name}"')
        t_cols, t_rows = rows_of(t_cols, t_rows)
        if d_cols != t_cols:
            differ.append(model)
            print(f"DIFFERS {model}: columns {d_cols} (DuckDB) vs {t_cols} (Trino)")
            continue
        if d_rows != t_rows:
            differ.append(model)
            only_d = [r for r in d_rows if r not in t_rows][:3]
            only_t = [r for r in t_rows if r not in d_rows][:3]
            print(f"DIFFERS {model}: {len(d_rows)} rows (DuckDB) vs {len(t_rows)} (Trino); "
                  f"only DuckDB e.g. {only_d}; only Trino e.g. {only_t}")
            continue
        print(f"same    {model}: {len(d_rows)} rows, {len(d_cols)} columns")
    if differ:
        sys.exit(f"{len(differ)} model(s) differ between the gateways: {', '.join(differ)}")


if __name__ == "__main__":
    main()
