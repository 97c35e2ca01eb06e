"""Partitioned tables through Trino, pyiceberg and DuckDB (`databox query`'s rows, passed in).

usage: partitions.py pruning NS.TABLE COLUMN DAY
           TABLE is partitioned by day(COLUMN): Trino's $partitions lists one row per day its
           $files name; a one-day filter reads only that day's files: EXPLAIN ANALYZE's scan
           input rows are that partition's rows, and the query's statistics (Trino's client
           protocol) show those rows processed, physical input at most those files' bytes (far
           below the table's) and fewer splits than the unfiltered scan; pyiceberg plans only
           those files.
       partitions.py tuples NS.TABLE COLUMN
           every data file of TABLE (Trino's $files) holds only rows whose COLUMN is its day
           partition value (Trino reads each file's rows by "$path"), and pyiceberg reads the
           same files with the same tuples.
       partitions.py specs NS.TABLE COUNT
           pyiceberg finds COUNT partition specs, the last one the default, with live files of
           each (the spec evolved).
       partitions.py same NS.TABLE DUCKDB_JSON_LINES_FILE
           the rows (id, v) pyiceberg, Trino and DuckDB (`databox query --json` of id, v) read
           are the same and checksum alike.
Environment as checksums.py (TRINO_URI, CATALOG_URI, REST_WAREHOUSE, S3_*). Exits non-zero with
FAIL lines on any difference.
"""
import datetime as dt
import json
import re
import sys

from checksums import digest, trino, trino_with_stats
from pyiceberg.expressions import EqualTo
from tables import rest_catalog

FAILURES = []


def fail(message):
    print("FAIL", message)
    FAILURES.append(message)


def trino_table(name):
    ns, table = name.split(".")
    return f'iceberg.{ns}."{table}'


def files(name, column):
    """(path, day, record count, bytes) of every data file, as Trino's $files lists them."""
    _, rows = trino(f'SELECT file_path, partition.{column}_day, record_count, file_size_in_bytes '
                    f'FROM {trino_table(name)}$files" WHERE content = 0')
    return [(p, dt.date.fromisoformat(str(d)) if d is not None else None, n, b)
            for p, d, n, b in rows]


def pruning(name, column, day_text):
    day = dt.date.fromisoformat(day_text)
    listed = files(name, column)
    _, partitions = trino(f'SELECT partition.{column}_day, record_count, file_count '
                          f'FROM {trino_table(name)}$partitions"')
    days = {d for _, d, _, _ in listed}
    if len(partitions) != len(days) or len(days) < 3:
        fail(f"{name}: $partitions has {len(partitions)} rows, $files {len(days)} days (want "
             f"one row per day, at least 3)")
    matching = [f for f in listed if f[1] == day]
    rows = sum(f[2] for f in matching)
    want_bytes = sum(f[3] for f in matching)
    total_bytes = sum(f[3] for f in listed)
    if not matching:
        fail(f"{name}: no file of day {day}")
        return
    one_day = f"SELECT count(*), max(v) FROM {trino_table(name)}\" WHERE {column} = DATE '{day}'"
    _, plan = trino(f"EXPLAIN ANALYZE {one_day}")
    text = "\n".join(r[0] for r in plan)
    inputs = [int(n.replace(",", "")) for n in re.findall(r"\bInput: ([\d,]+) rows", text)]
    _, _, filtered = trino_with_stats(one_day)
    _, _, whole = trino_with_stats(f"SELECT count(*), max(v) FROM {trino_table(name)}\"")
    keys = ("processedRows", "physicalInputBytes", "totalSplits")
    print(f"{name}: {len(listed)} files, {total_bytes} bytes; day {day}: {len(matching)} file(s), "
          f"{rows} rows, {want_bytes} bytes; EXPLAIN ANALYZE input rows {inputs}; one day "
          f"{ {k: filtered.get(k) for k in keys} }, whole table { {k: whole.get(k) for k in keys} }")
    if not inputs or max(inputs) != rows:
        fail(f"{name}: the one-day scan's input rows {inputs} are not the partition's {rows}")
    read = filtered.get("physicalInputBytes", -1)
    if filtered.get("processedRows") != rows or not 0 < read <= want_bytes \
            or read * 3 > total_bytes:
        fail(f"{name}: the one-day query processed {filtered.get('processedRows')} rows and read "
             f"{read} bytes; the day's files hold {rows} rows, {want_bytes} of the table's "
             f"{total_bytes} bytes")
    if not filtered.get("totalSplits", 0) < whole.get("totalSplits", 0):
        fail(f"{name}: the one-day query ran {filtered.get('totalSplits')} splits, the whole "
             f"table {whole.get('totalSplits')}")
    table = rest_catalog("databox_lake").load_table(name)
    planned = {t.file.file_path for t in table.scan(row_filter=EqualTo(column, day_text))
               .plan_files()}
    if planned != {f[0] for f in matching}:
        fail(f"{name}: pyiceberg planned {len(planned)} files for day {day}, Trino lists "
             f"{len(matching)}")


def tuples(name, column):
    listed = files(name, column)
    _, per_file = trino(f'SELECT "$path", min({column}), max({column}), count(*) '
                        f'FROM {trino_table(name)}" GROUP BY 1')
    spans = {p: (lo, hi, n) for p, lo, hi, n in per_file}
    for path, day, count, _ in listed:
        lo, hi, n = spans.get(path, (None, None, 0))
        if n != count or str(day) != str(lo) or str(day) != str(hi):
            fail(f"{name}: {path} is partition {day} with {count} rows; Trino reads {n} rows "
                 f"of {column} {lo}..{hi}")
    table = rest_catalog("databox_lake").load_table(name)
    epoch = dt.date(1970, 1, 1)
    by_pyiceberg = {}
    for task in table.scan().plan_files():
        value = task.file.partition[0]
        by_pyiceberg[task.file.file_path] = epoch + dt.timedelta(days=value) \
            if isinstance(value, int) else value
    if by_pyiceberg != {p: d for p, d, _, _ in listed}:
        fail(f"{name}: pyiceberg's files and tuples differ from Trino's $files")
    print(f"{name}: {len(listed)} files over {len({d for _, d, _, _ in listed})} days, each "
          f"holding only its day's rows")


def same(name, duck_file):
    def norm(rows):
        return [[int(i), v] for i, v in rows]
    _, rows = trino(f'SELECT id, v FROM {trino_table(name)}"')
    trino_rows = norm(rows)
    arrow = rest_catalog("databox_lake").load_table(name).scan(
        selected_fields=("id", "v")).to_arrow()
    py_rows = norm(zip(arrow.column("id").to_pylist(), arrow.column("v").to_pylist()))
    with open(duck_file) as f:
        duck_rows = norm((r["id"], r["v"]) for r in map(json.loads, f))
    sums = {"trino": digest(trino_rows), "pyiceberg": digest(py_rows), "duckdb": digest(duck_rows)}
    counts = {"trino": len(trino_rows), "pyiceberg": len(py_rows), "duckdb": len(duck_rows)}
    print(f"{name}: rows {counts}, checksums {sums}")
    if len(set(sums.values())) != 1:
        fail(f"{name}: the readers differ: rows {counts}, checksums {sums}")


def specs(name, count):
    """TABLE has COUNT partition specs, the last one the default, and live files of each."""
    table = rest_catalog("databox_lake").load_table(name)
    per_spec = {}
    for task in table.scan().plan_files():
        per_spec[task.file.spec_id] = per_spec.get(task.file.spec_id, 0) + 1
    ids = sorted(s.spec_id for s in table.metadata.partition_specs)
    print(f"{name}: specs {ids}, default {table.metadata.default_spec_id}, files per spec "
          f"{per_spec}")
    if len(ids) != int(count) or table.metadata.default_spec_id != ids[-1] \
            or sorted(per_spec) != ids:
        fail(f"{name}: want {count} specs, the last the default, files of each")


def main():
    command, args = sys.argv[1], sys.argv[2:]
    {"pruning": pruning, "tuples": tuples, "same": same, "specs": specs}[command](*args)
    sys.exit(1 if FAILURES else 0)


if __name__ == "__main__":
    main()
