#!/usr/bin/env python3
"""Searches every text column of every table and view in DuckDB database files for given
strings (DuckDB compresses stored strings, so a byte search of the file is not enough).

usage: scan_duckdb.py DB [DB ...] -- NEEDLE [NEEDLE ...]
Prints one line "DB: schema.table.column contains NEEDLE[:12]..." per hit, then
"scanned N columns in M databases (K unreadable columns skipped)". Exits 1 when a database cannot be opened.
"""
import sys

import duckdb


def main() -> int:
    split = sys.argv.index("--")
    databases, needles = sys.argv[1:split], sys.argv[split + 1:]
    columns = 0
    skipped = 0
    for path in databases:
        try:
            con = duckdb.connect(path, read_only=True)
        except Exception as error:
            print(f"{path}: cannot open: {error!r}", file=sys.stderr)
            return 1
        rows = con.execute(
            "SELECT table_catalog, table_schema, table_name, column_name FROM information_schema.columns "
            "WHERE data_type IN ('VARCHAR', 'JSON', 'BLOB') AND table_catalog = current_database()"
        ).fetchall()
        for catalog, schema, table, column in rows:
            columns += 1
            name = f'"{catalog}"."{schema}"."{table}"'
            try:
                hits = con.execute(
                    f"SELECT n FROM unnest(?::VARCHAR[]) AS u(n) WHERE EXISTS (SELECT 1 FROM {name} "
                    f"WHERE contains(CAST(\"{column}\" AS VARCHAR), n))",
                    [needles],
                ).fetchall()
            except duckdb.Error:
                skipped += 1  # e.g. a view over files that no longer exist
                continue
            for (needle,) in hits:
                print(f"{path}: {schema}.{table}.{column} contains {needle[:12]}...")
        con.close()
    print(f"scanned {columns - skipped} columns in {len(databases)} databases "
          f"({skipped} unreadable columns skipped)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
