"""Partitioned raw tables written by `databox ingest`, checked by readers we did not write:
pyiceberg (SqlCatalog on the project's catalog.sqlite; its own transforms, scan planning and
merge-on-read) and DuckDB's iceberg extension.

usage: partition_readers.py <databox binary> <duckdb extension dir>

The input rows are made here. Each table loads the same rows; per table it checks that
- pyiceberg and DuckDB read exactly the input rows (and so the unpartitioned table's rows);
- the table's spec is the one asked for;
- every data file's partition tuple is what pyiceberg's own transforms compute for each of the
  file's rows, and every manifest-list partition summary bounds its manifest's tuples;
- a scan filtered on a partitioned column plans only files whose partition can match, fewer than
  all, and returns the rows Python selects from the input.
Then a partition above the target file size (split), refused terms, merges (copy-on-write, and
merge-on-read with position deletes) on a partitioned table, an append into a table pyiceberg
created with its own spec, and into one whose spec pyiceberg evolved (old files keep their spec),
and a merge into a table with files of two specs (refused).
"""
import datetime as dt
import decimal
import hashlib
import subprocess
import sys
import tempfile
from pathlib import Path

import duckdb
import pyarrow as pa
import pyarrow.parquet as pq
from pyiceberg.catalog.sql import SqlCatalog
from pyiceberg.conversions import from_bytes
from pyiceberg.expressions import And, EqualTo, GreaterThanOrEqual, LessThan
from pyiceberg.partitioning import PartitionField, PartitionSpec
from pyiceberg.schema import Schema
from pyiceberg.transforms import BucketTransform, DayTransform, IdentityTransform
from pyiceberg.types import LongType, NestedField, StringType, TimestamptzType

UTC = dt.timezone.utc
BASE = dt.datetime(2023, 12, 30, 22, 0, tzinfo=UTC)
ROWS = 2400
FAILURES = []


def fail(message):
    print("FAIL", message)
    FAILURES.append(message)


def input_rows(count=ROWS):
    rows = []
    for i in range(count):
        rows.append({
            "id": i * 7 - 300,  # negative values too: truncate floors toward -inf
            "ts": BASE + dt.timedelta(minutes=37 * i),
            "d": (BASE + dt.timedelta(hours=11 * i)).date(),
            "station": None if i % 97 == 0 else f"st-{i % 13:02d}-é",
            "amount": decimal.Decimal(i * 13 - 5000).scaleb(-2),
            "payload": bytes([i % 256, (i * 3) % 256, 0xff]),
        })
    return rows


def arrow_table(rows):
    return pa.Table.from_pylist(rows, schema=pa.schema([
        ("id", pa.int64()), ("ts", pa.timestamp("us", tz="UTC")), ("d", pa.date32()),
        ("station", pa.string()), ("amount", pa.decimal128(12, 2)), ("payload", pa.binary()),
    ]))


def key(row):
    return tuple(row[c] for c in ("id", "ts", "d", "station", "amount", "payload"))


def ingest(databox, project, table, files, *args):
    done = subprocess.run([databox, "--config", str(project / "databox.toml"), "ingest",
                           *[str(f) for f in files], "--table", table, *args],
                          cwd=project, capture_output=True, text=True)
    print(" ".join(["ingest", table, *args]), "->", done.returncode, done.stdout, done.stderr)
    if done.returncode != 0:
        fail(f"ingest into {table} {args} exited {done.returncode}: {done.stderr}")
    return done


def normalized(rows):
    """Rows as both readers return them: timestamps in UTC, decimals and bytes as is."""
    out = []
    for r in rows:
        r = dict(r)
        if r["ts"] is not None:
            r["ts"] = r["ts"].astimezone(UTC)
        if isinstance(r.get("payload"), memoryview):
            r["payload"] = bytes(r["payload"])
        out.append(r)
    return sorted((key(r) for r in out), key=repr)


def pyiceberg_rows(table, row_filter=None):
    scan = table.scan(row_filter=row_filter) if row_filter is not None else table.scan()
    return normalized(scan.to_arrow().to_pylist())


def duckdb_rows(con, table):
    got = con.execute("SELECT id, ts, d, station, amount, payload FROM iceberg_scan(?)",
                      [table.metadata_location]).fetchall()
    cols = ("id", "ts", "d", "station", "amount", "payload")
    return normalized([dict(zip(cols, r)) for r in got])


def check_partition_values(table, name):
    """Every data file's tuple equals pyiceberg's transforms of each of its rows."""
    spec = table.spec()
    schema = table.schema()
    tasks = list(table.scan().plan_files())
    io = table.io
    for task in tasks:
        data_file = task.file
        with io.new_input(data_file.file_path).open() as f:
            rows = pq.read_table(f).to_pylist()
        for pos, field in enumerate(spec.fields):
            source = schema.find_field(field.source_id)
            apply = field.transform.transform(source.field_type)
            want = data_file.partition[pos]
            for row in rows:
                value = row[source.name]
                if isinstance(value, dt.datetime):  # pyiceberg transforms take micros
                    value = int(value.timestamp() * 1_000_000)
                elif isinstance(value, dt.date):
                    value = (value - dt.date(1970, 1, 1)).days
                got = apply(value)
                if got != want:
                    fail(f"{name}: {data_file.file_path} holds {source.name}={row[source.name]!r}"
                         f" whose {field.transform} is {got!r}, but its partition says {want!r}")
                    return
    # Manifest-list summaries bound the tuples of their manifests.
    snapshot = table.current_snapshot()
    for manifest in snapshot.manifests(io):
        entries = manifest.fetch_manifest_entry(io)
        for pos, field in enumerate(spec.fields):
            summary = manifest.partitions[pos]
            result_type = field.transform.result_type(schema.find_field(field.source_id).field_type)
            values = [e.data_file.partition[pos] for e in entries]
            present = [v for v in values if v is not None]
            if summary.contains_null != (len(present) < len(values)):
                fail(f"{name}: summary of {field.name} says contains_null="
                     f"{summary.contains_null}, entries {values}")
            if present:
                low = from_bytes(result_type, summary.lower_bound)
                high = from_bytes(result_type, summary.upper_bound)
                if not (low <= min(present) and max(present) <= high):
                    fail(f"{name}: summary of {field.name} [{low}, {high}] does not bound "
                         f"{min(present)}..{max(present)}")
    return tasks


def check_table(catalog, con, name, want, spec_text):
    table = catalog.load_table(name)
    got_spec = [f"{f.transform}({table.schema().find_field(f.source_id).name})"
                for f in table.spec().fields]
    if got_spec != spec_text:
        fail(f"{name}: spec {got_spec} != {spec_text}")
    rows = pyiceberg_rows(table)
    if rows != want:
        fail(f"{name}: pyiceberg read {len(rows)} rows, want the {len(want)} input rows")
    rows = duckdb_rows(con, table)
    if rows != want:
        fail(f"{name}: DuckDB read {len(rows)} rows, want the {len(want)} input rows")
    return table, check_partition_values(table, name)


def check_pruning(table, name, row_filter, keep, all_tasks):
    planned = list(table.scan(row_filter=row_filter).plan_files())
    if not planned or len(planned) >= len(all_tasks):
        fail(f"{name}: a filtered scan planned {len(planned)} of {len(all_tasks)} files")
    rows = pyiceberg_rows(table, row_filter)
    want = normalized([r for r in input_rows() if keep(r)])
    if rows != want:
        fail(f"{name}: filtered scan read {len(rows)} rows, want {len(want)}")
    print(f"{name}: filter planned {len(planned)} of {len(all_tasks)} files")


def main():
    databox, ext_dir = sys.argv[1:3]
    rows = input_rows()
    want = normalized(rows)
    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "p"
        subprocess.run([databox, "init", str(project)], check=True, capture_output=True)
        data = project / "rows.parquet"
        pq.write_table(arrow_table(rows), data)
        ndjson = project / "rows.ndjson"
        ndjson.write_text("".join(
            f'{{"id": {r["id"]}, "station": {"null" if r["station"] is None else chr(34) + r["station"] + chr(34)}}}\n'
            for r in rows))

        layouts = {
            "raw_dump.plain": [],
            "raw_dump.by_time": ["day(ts)", "bucket[4](station)", "truncate[500](id)"],
            "raw_dump.by_month": ["month(d)", "station"],
            "raw_dump.by_value": ["year(ts)", "bucket[3](amount)", "truncate[2](station)",
                                  "bucket[5](d)", "truncate[1](payload)", "bucket[2](payload)"],
        }
        for table, terms in layouts.items():
            args = ["--partition", ",".join(terms)] if terms else []
            ingest(databox, project, table, [data], *args)
        # hour(ts): one partition per row or two, so a slice of the rows.
        hourly = rows[:150]
        pq.write_table(arrow_table(hourly), project / "hourly.parquet")
        ingest(databox, project, "raw_dump.by_hour", [project / "hourly.parquet"],
               "--partition", "hour(ts)")
        # NDJSON goes through the normalizer and the streamed writers.
        ingest(databox, project, "raw_dump.streamed", [ndjson], "--partition",
               "bucket[8](station),truncate[1000](id)")

        catalog = SqlCatalog("databox_lake",
                             uri=f"sqlite:///{project / '.databox' / 'catalog.sqlite'}")
        con = duckdb.connect(config={"extension_directory": ext_dir,
                                     "autoinstall_known_extensions": False,
                                     "autoload_known_extensions": False})
        con.execute("LOAD iceberg")

        # The spec as pyiceberg prints it: a bare column is identity(column).
        spec_texts = {name: [t if "(" in t else f"identity({t})" for t in terms]
                      for name, terms in layouts.items()}
        tasks = {}
        for name, spec_text in spec_texts.items():
            _, tasks[name] = check_table(catalog, con, name, want, spec_text)
        _, tasks["raw_dump.by_hour"] = check_table(catalog, con, "raw_dump.by_hour",
                                                   normalized(hourly), ["hour(ts)"])
        if len(tasks["raw_dump.plain"]) != 1:
            fail(f"the unpartitioned table has {len(tasks['raw_dump.plain'])} files, want 1")
        # One file per partition tuple: the input is far below the target file size.
        for name in ("raw_dump.by_time", "raw_dump.by_month", "raw_dump.by_value",
                     "raw_dump.by_hour"):
            tuples = [tuple(t.file.partition) for t in tasks[name]]
            if len(tuples) != len(set(tuples)):
                fail(f"{name}: {len(tuples)} files for {len(set(tuples))} partition tuples")

        day = dt.datetime(2024, 1, 2, tzinfo=UTC)
        check_pruning(catalog.load_table("raw_dump.by_time"), "by_time day filter",
                      And(GreaterThanOrEqual("ts", day.isoformat()),
                          LessThan("ts", (day + dt.timedelta(days=1)).isoformat())),
                      lambda r: day <= r["ts"] < day + dt.timedelta(days=1),
                      tasks["raw_dump.by_time"])
        check_pruning(catalog.load_table("raw_dump.by_time"), "by_time bucket filter",
                      EqualTo("station", "st-05-é"), lambda r: r["station"] == "st-05-é",
                      tasks["raw_dump.by_time"])
        check_pruning(catalog.load_table("raw_dump.by_month"), "by_month identity filter",
                      EqualTo("station", "st-07-é"), lambda r: r["station"] == "st-07-é",
                      tasks["raw_dump.by_month"])

        streamed = catalog.load_table("raw_dump.streamed")
        stream_rows = sorted((r["id"], r["station"]) for r in streamed.scan().to_arrow().to_pylist())
        if stream_rows != sorted((r["id"], r["station"]) for r in rows):
            fail("raw_dump.streamed: pyiceberg rows differ from the input")
        duck_stream = sorted(con.execute("SELECT id, station FROM iceberg_scan(?)",
                                         [streamed.metadata_location]).fetchall())
        if duck_stream != sorted((r["id"], r["station"]) for r in rows):
            fail("raw_dump.streamed: DuckDB rows differ from the input")
        check_partition_values(streamed, "raw_dump.streamed")

        check_refusals(databox, project, catalog, data)
        check_file_size(databox, project, catalog, con)
        check_merges(databox, project, catalog, con)
        check_foreign_spec(databox, project, catalog, con, data, want)
        check_evolved_spec(databox, project, catalog, con)
        check_databox_evolution(databox, project, catalog, con, rows)
        check_merge_after_evolution(databox, project, catalog, con)
    for f in FAILURES:
        print("FAIL", f)
    sys.exit(1 if FAILURES else 0)


def check_refusals(databox, project, catalog, data):
    """A term naming no column of the input, or a transform its type does not take, fails the
    ingest naming it, and creates no table."""
    for term, message in (("day(tss)", "no column 'tss' (did you mean 'ts'?)"),
                          ("hour(station)", "hour cannot be applied to column 'station'"),
                          ("bucket[0](id)", "needs a whole number from 1")):
        done = subprocess.run([databox, "--config", str(project / "databox.toml"), "ingest",
                               str(data), "--table", "raw_dump.refused", "--partition", term],
                              cwd=project, capture_output=True, text=True)
        if done.returncode == 0 or message not in done.stderr:
            fail(f"--partition {term}: exit {done.returncode}, stderr {done.stderr!r}, "
                 f"want a failure saying {message!r}")
    if catalog.table_exists("raw_dump.refused"):
        fail("a refused --partition created raw_dump.refused")


def check_file_size(databox, project, catalog, con):
    """A partition above the table's target file size is split into files of about that size
    (DuckDB rolls files at row groups of at least 2048 rows: 20000 rows a partition here);
    the rows and partition values stay right."""
    name = "raw_dump.sized"
    rows = input_rows(40000)
    data = project / "many_rows.parquet"
    pq.write_table(arrow_table(rows), data)
    ingest(databox, project, name, [data], "--partition", "bucket[2](station)")
    table = catalog.load_table(name)
    first = {t.file.file_path for t in table.scan().plan_files()}
    with table.transaction() as tx:
        tx.set_properties({"write.target-file-size-bytes": "150000"})
    ingest(databox, project, name, [data])
    table = catalog.load_table(name)
    want = normalized(rows + rows)
    if pyiceberg_rows(table) != want or duckdb_rows(con, table) != want:
        fail(f"{name}: rows after the second load differ from twice the input")
    tasks = check_partition_values(table, name)
    second = [t.file for t in tasks if t.file.file_path not in first]
    per_partition = {}
    for f in second:
        per_partition.setdefault(tuple(f.partition), []).append(f.file_size_in_bytes)
    if len(first) != 3 or max((len(v) for v in per_partition.values()), default=0) < 2:
        fail(f"{name}: first load {len(first)} files (want 3: two buckets and null), second "
             f"load per partition {per_partition}: want a split above 150000 bytes")
    for f in second:
        columns = [c.name for c in pq.read_schema(table.io.new_input(f.file_path).open())]
        if columns != [c.name for c in table.schema().columns]:
            fail(f"{name}: {f.file_path} has columns {columns}, not the table's")
    print(f"{name}: second load's file sizes per partition {per_partition}")


def merge_input(project, name, rows):
    path = project / name
    pq.write_table(pa.Table.from_pylist(rows, schema=pa.schema([
        ("id", pa.int64()), ("ts", pa.timestamp("us", tz="UTC")), ("station", pa.string())])),
        path)
    return path


def check_merges(databox, project, catalog, con):
    """Merges on day(ts)-partitioned tables: copy-on-write, then merge-on-read (position
    deletes in their data file's partition), against the rows Python computes."""
    first = [{"id": i, "ts": BASE + dt.timedelta(hours=5 * i), "station": f"s{i % 3}"}
             for i in range(300)]
    update = [{"id": i, "ts": BASE + dt.timedelta(hours=5 * i + 1), "station": "moved"}
              for i in range(0, 400, 7)]
    want = {r["id"]: r for r in first}
    want.update({r["id"]: r for r in update})
    want_rows = sorted((r["id"], r["ts"], r["station"]) for r in want.values())
    first_file = merge_input(project, "first.parquet", first)
    update_file = merge_input(project, "update.parquet", update)
    for mode in ("copy-on-write", "merge-on-read"):
        name = "raw_dump.merged_" + mode.replace("-", "_")
        ingest(databox, project, name, [first_file], "--write-disposition", "merge",
               "--primary-key", "id", "--partition", "day(ts)")
        table = catalog.load_table(name)
        with table.transaction() as tx:
            tx.set_properties({"write.merge.mode": mode})
        ingest(databox, project, name, [update_file], "--write-disposition", "merge",
               "--primary-key", "id")
        table = catalog.load_table(name)
        got = sorted((r["id"], r["ts"].astimezone(UTC), r["station"])
                     for r in table.scan().to_arrow().to_pylist())
        if got != want_rows:
            fail(f"{name}: pyiceberg read {len(got)} rows, want {len(want_rows)}")
        duck = sorted((i, t.astimezone(UTC), s) for i, t, s in con.execute(
            "SELECT id, ts, station FROM iceberg_scan(?)", [table.metadata_location]).fetchall())
        if duck != want_rows:
            fail(f"{name}: DuckDB read {len(duck)} rows, want {len(want_rows)}")
        check_partition_values(table, name)
        tasks = list(table.scan().plan_files())
        deletes = [d for t in tasks for d in t.delete_files]
        if mode == "merge-on-read":
            if not deletes:
                fail(f"{name}: no position delete files after a merge-on-read merge")
            for t in tasks:
                for d in t.delete_files:
                    if tuple(d.partition) != tuple(t.file.partition):
                        fail(f"{name}: delete file {d.file_path} has partition "
                             f"{tuple(d.partition)}, its data file {tuple(t.file.partition)}")
        elif deletes:
            fail(f"{name}: copy-on-write left {len(deletes)} delete files")
        print(f"{name}: {len(tasks)} data files, {len(deletes)} delete files")


def check_foreign_spec(databox, project, catalog, con, data, want):
    """A table pyiceberg created with its own spec is appended to with that spec (the ingest
    declares no partition)."""
    schema = Schema(NestedField(1, "id", LongType(), required=False),
                    NestedField(2, "ts", TimestamptzType(), required=False),
                    NestedField(3, "station", StringType(), required=False))
    spec = PartitionSpec(PartitionField(3, 1000, IdentityTransform(), "station"),
                         PartitionField(2, 1001, DayTransform(), "ts_day"),
                         PartitionField(1, 1002, BucketTransform(6), "id_bucket"))
    catalog.create_namespace_if_not_exists("raw_other")
    location = project / ".databox" / "warehouse" / "elsewhere" / "made_by_pyiceberg"
    catalog.create_table("raw_other.made_by_pyiceberg", schema=schema, partition_spec=spec,
                         location=f"file://{location}")
    # The table has no dlt columns and fewer columns than the input: the load adds them.
    ingest(databox, project, "raw_other.made_by_pyiceberg", [data])
    table = catalog.load_table("raw_other.made_by_pyiceberg")
    if [f.name for f in table.spec().fields] != ["station", "ts_day", "id_bucket"]:
        fail(f"made_by_pyiceberg: spec changed to {table.spec()}")
    if pyiceberg_rows(table) != want:
        fail("made_by_pyiceberg: pyiceberg rows differ from the input")
    if duckdb_rows(con, table) != want:
        fail("made_by_pyiceberg: DuckDB rows differ from the input")
    check_partition_values(table, "made_by_pyiceberg")


def check_evolved_spec(databox, project, catalog, con):
    """A table whose spec pyiceberg evolved: databox appends with the new default spec, old
    files keep theirs and every row reads back; a merge-on-read merge into a table with files of
    an earlier spec is refused, naming the rewrite that makes it possible, changing nothing."""
    schema = Schema(NestedField(1, "id", LongType(), required=False),
                    NestedField(2, "ts", TimestamptzType(), required=False),
                    NestedField(3, "station", StringType(), required=False))
    spec = PartitionSpec(PartitionField(3, 1000, IdentityTransform(), "station"))
    location = project / ".databox" / "warehouse" / "elsewhere" / "evolved"
    table = catalog.create_table("raw_other.evolved", schema=schema, partition_spec=spec,
                                 location=f"file://{location}")
    old = [{"id": i, "ts": BASE + dt.timedelta(hours=7 * i), "station": f"s{i % 3}"}
           for i in range(50)]
    table.append(pa.Table.from_pylist(old, schema=pa.schema([
        ("id", pa.int64()), ("ts", pa.timestamp("us", tz="UTC")), ("station", pa.string())])))
    with table.update_spec() as update:
        update.add_field("ts", DayTransform(), "ts_day")
    new = [{"id": 100 + i, "ts": BASE + dt.timedelta(hours=5 * i), "station": f"s{i % 2}"}
           for i in range(40)]
    path = merge_input(project, "evolved.parquet", new)
    ingest(databox, project, "raw_other.evolved", [path])
    table = catalog.load_table("raw_other.evolved")
    want = sorted((r["id"], r["ts"], r["station"]) for r in old + new)
    got = sorted((r["id"], r["ts"].astimezone(UTC), r["station"])
                 for r in table.scan().to_arrow().to_pylist())
    duck = sorted((i, t.astimezone(UTC), s) for i, t, s in con.execute(
        "SELECT id, ts, station FROM iceberg_scan(?)", [table.metadata_location]).fetchall())
    if got != want or duck != want:
        fail(f"evolved: pyiceberg {len(got)} / DuckDB {len(duck)} rows, want {len(want)}")
    specs = {}
    for task in table.scan().plan_files():
        specs.setdefault(task.file.spec_id, 0)
        specs[task.file.spec_id] += 1
    if sorted(specs) != [0, 1]:
        fail(f"evolved: files per spec id {specs}, want files of spec 0 and of spec 1")
    check_partition_values_of_spec(table, "evolved", 1)
    # A merge into a table with files of two specs is refused and changes nothing: a table
    # databox made by a merge (keyed), whose spec pyiceberg then evolved.
    name = "raw_dump.merged_merge_on_read"
    keyed = catalog.load_table(name)
    with keyed.update_spec() as update:
        update.add_field("station", IdentityTransform(), "station")
    before = catalog.load_table(name).current_snapshot().snapshot_id
    done = subprocess.run([databox, "--config", str(project / "databox.toml"), "ingest",
                           str(project / "update.parquet"), "--table", name,
                           "--write-disposition", "merge", "--primary-key", "id"],
                          cwd=project, capture_output=True, text=True)
    if done.returncode == 0 or "--rewrite-specs" not in done.stderr:
        fail(f"evolved: merge exit {done.returncode}, stderr {done.stderr!r}: want a refusal")
    if catalog.load_table(name).current_snapshot().snapshot_id != before:
        fail(f"{name}: the refused merge changed the table")


def spec_counts(table):
    counts = {}
    for task in table.scan().plan_files():
        counts[task.file.spec_id] = counts.get(task.file.spec_id, 0) + 1
    return counts


def readers_agree(con, table, name, want):
    """pyiceberg and DuckDB read exactly `want` (normalized rows); returns their checksum."""
    got = pyiceberg_rows(table)
    duck = duckdb_rows(con, table)
    if got != want or duck != want:
        fail(f"{name}: pyiceberg {len(got)} / DuckDB {len(duck)} rows, want {len(want)}")
    return hashlib.sha256(repr(got).encode()).hexdigest()[:16]


def check_databox_evolution(databox, project, catalog, con, rows):
    """A changed --partition on an existing table adds a spec (ids as Iceberg Java assigns
    them), files of the first spec keep it, both readers read every row, the new files carry
    pyiceberg's tuples and prune; a dropped --partition keeps the spec; maintain --rewrite-specs
    moves the old files to the new spec without changing a row."""
    name = "raw_dump.evolving"
    rows = rows[:600]
    first, second, third = rows[:200], rows[200:400], rows[400:]
    for i, part in enumerate((first, second, third)):
        pq.write_table(arrow_table(part), project / f"part{i}.parquet")
    ingest(databox, project, name, [project / "part0.parquet"], "--partition", "month(d)")
    ingest(databox, project, name, [project / "part1.parquet"], "--partition",
           "day(ts),bucket[4](station)")
    ingest(databox, project, name, [project / "part2.parquet"])  # no hint: the spec stays
    table = catalog.load_table(name)
    meta = table.metadata
    specs = {s.spec_id: [(f.field_id, str(f.transform), f.name) for f in s.fields]
             for s in meta.partition_specs}
    want_specs = {0: [(1000, "month", "d_month")],
                  1: [(1001, "day", "ts_day"), (1002, "bucket[4]", "station_bucket")]}
    if specs != want_specs or meta.default_spec_id != 1 or meta.last_partition_id != 1002:
        fail(f"{name}: specs {specs}, default {meta.default_spec_id}, last partition id "
             f"{meta.last_partition_id}; want {want_specs}, 1, 1002")
    counts = spec_counts(table)
    if sorted(counts) != [0, 1]:
        fail(f"{name}: files per spec {counts}, want files of spec 0 and 1")
    want = normalized(rows)
    before = readers_agree(con, table, name, want)
    check_partition_values_of_spec(table, name, 0)
    check_partition_values_of_spec(table, name, 1)
    day = dt.datetime(2024, 1, 5, tzinfo=UTC)
    row_filter = And(GreaterThanOrEqual("ts", day.isoformat()),
                     LessThan("ts", (day + dt.timedelta(days=1)).isoformat()))
    planned = list(table.scan(row_filter=row_filter).plan_files())
    new_planned = [t for t in planned if t.file.spec_id == 1]
    if len(new_planned) >= counts[1] or pyiceberg_rows(table, row_filter) != normalized(
            [r for r in rows if day <= r["ts"] < day + dt.timedelta(days=1)]):
        fail(f"{name}: day filter planned {len(new_planned)} of {counts[1]} spec-1 files")
    print(f"{name}: files per spec {counts}; day filter planned {len(planned)} files "
          f"({len(new_planned)} of spec 1's {counts[1]})")

    dry = maintain(databox, project, name, "--rewrite-specs")
    if f"would rewrite {counts[0]} data file(s) of 200 row(s)" not in dry.stdout:
        fail(f"{name}: maintain --rewrite-specs dry run said {dry.stdout!r}")
    if catalog.load_table(name).current_snapshot().snapshot_id != \
            table.current_snapshot().snapshot_id:
        fail(f"{name}: the dry run committed")
    kept = {t.file.file_path for t in table.scan().plan_files()}
    maintain(databox, project, name, "--rewrite-specs", "--remove")
    table = catalog.load_table(name)
    after = readers_agree(con, table, name, want)
    if spec_counts(table).keys() != {1} or before != after:
        fail(f"{name}: after --rewrite-specs files per spec {spec_counts(table)}, checksum "
             f"{before} -> {after}")
    check_partition_values_of_spec(table, name, 1)
    tuples = [tuple(t.file.partition) for t in table.scan().plan_files()
              if t.file.file_path not in kept]
    if not tuples or len(tuples) != len(set(tuples)):
        fail(f"{name}: the rewrite wrote {len(tuples)} files for {len(set(tuples))} tuples "
             f"(want one file per partition)")
    print(f"{name}: --rewrite-specs moved {counts[0]} files to spec 1; checksum {after}")


def maintain(databox, project, table, *args):
    done = subprocess.run([databox, "--config", str(project / "databox.toml"), "maintain", table,
                           *args], cwd=project, capture_output=True, text=True)
    print(" ".join(["maintain", table, *args]), "->", done.returncode, done.stdout, done.stderr)
    if done.returncode != 0:
        fail(f"maintain {table} {args} exited {done.returncode}: {done.stderr}")
    return done


def check_merge_after_evolution(databox, project, catalog, con):
    """A merge whose --partition changed evolves the spec and, copy-on-write, rewrites the
    affected files of the old spec under the new one; merge-on-read is refused (naming
    --rewrite-specs) until maintain moved the old files, then works; --rewrite-deletes then
    compacts per partition. Each step against the rows Python computes."""
    name = "raw_dump.merge_evolving"
    first = [{"id": i, "ts": BASE + dt.timedelta(hours=5 * i), "station": f"s{i % 3}"}
             for i in range(300)]
    updates = [[{"id": i, "ts": BASE + dt.timedelta(hours=5 * i + k), "station": f"u{k}"}
                for i in range(k, 360, 9)] for k in (1, 2)]
    merge_args = ["--write-disposition", "merge", "--primary-key", "id"]
    ingest(databox, project, name, [merge_input(project, "me0.parquet", first)], *merge_args,
           "--partition", "day(ts)")
    want = {r["id"]: r for r in first}

    def expect(step):
        table = catalog.load_table(name)
        rows = sorted((r["id"], r["ts"], r["station"]) for r in want.values())
        got = sorted((r["id"], r["ts"].astimezone(UTC), r["station"])
                     for r in table.scan().to_arrow().to_pylist())
        duck = sorted((i, t.astimezone(UTC), s) for i, t, s in con.execute(
            "SELECT id, ts, station FROM iceberg_scan(?)", [table.metadata_location]).fetchall())
        if got != rows or duck != rows:
            fail(f"{name} {step}: pyiceberg {len(got)} / DuckDB {len(duck)} rows, want {len(rows)}")
        return table

    old_files = {t.file.file_path for t in catalog.load_table(name).scan().plan_files()}
    ingest(databox, project, name, [merge_input(project, "me1.parquet", updates[0])],
           *merge_args, "--partition", "station")
    want.update({r["id"]: r for r in updates[0]})
    table = expect("copy-on-write merge after the spec changed")
    counts = spec_counts(table)
    kept = {t.file.file_path for t in table.scan().plan_files()} & old_files
    if table.metadata.default_spec_id != 1 or sorted(counts) != [0, 1] or not kept \
            or len(kept) == len(old_files):
        fail(f"{name}: after the copy-on-write merge files per spec {counts}, {len(kept)} of "
             f"{len(old_files)} old files kept: want some old-spec files rewritten, others kept")
    check_partition_values_of_spec(table, name, 1)
    with table.transaction() as tx:
        tx.set_properties({"write.merge.mode": "merge-on-read"})
    before = catalog.load_table(name).current_snapshot().snapshot_id
    done = subprocess.run([databox, "--config", str(project / "databox.toml"), "ingest",
                           str(merge_input(project, "me2.parquet", updates[1])), "--table", name,
                           *merge_args, "--partition", "station"],
                          cwd=project, capture_output=True, text=True)
    if done.returncode == 0 or "--rewrite-specs" not in done.stderr or \
            catalog.load_table(name).current_snapshot().snapshot_id != before:
        fail(f"{name}: merge-on-read over old-spec files exit {done.returncode}, "
             f"{done.stderr!r}: want a refusal naming --rewrite-specs, the table unchanged")
    maintain(databox, project, name, "--rewrite-specs", "--remove")
    expect("after --rewrite-specs")
    ingest(databox, project, name, [project / "me2.parquet"], *merge_args, "--partition",
           "station")
    want.update({r["id"]: r for r in updates[1]})
    table = expect("merge-on-read merge")
    deletes = [d for t in table.scan().plan_files() for d in t.delete_files]
    if not deletes:
        fail(f"{name}: the merge-on-read merge wrote no delete files")
    maintain(databox, project, name, "--rewrite-deletes", "--remove")
    table = expect("after --rewrite-deletes")
    tasks = list(table.scan().plan_files())
    tuples = [tuple(t.file.partition) for t in tasks]
    if any(t.delete_files for t in tasks) or spec_counts(table).keys() != {1}:
        fail(f"{name}: after --rewrite-deletes {spec_counts(table)} files per spec, deletes left")
    check_partition_values_of_spec(table, name, 1)
    print(f"{name}: {len(tasks)} files for {len(set(tuples))} partition tuples after compaction")


def check_partition_values_of_spec(table, name, spec_id):
    """check_partition_values for the files of spec `spec_id` (the table's default)."""
    spec = table.specs()[spec_id]
    schema = table.schema()
    for task in table.scan().plan_files():
        if task.file.spec_id != spec_id:
            continue
        rows = pq.read_table(table.io.new_input(task.file.file_path).open()).to_pylist()
        for pos, field in enumerate(spec.fields):
            source = schema.find_field(field.source_id)
            apply = field.transform.transform(source.field_type)
            for row in rows:
                value = row[source.name]
                if isinstance(value, dt.datetime):
                    value = int(value.timestamp() * 1_000_000)
                elif isinstance(value, dt.date):
                    value = (value - dt.date(1970, 1, 1)).days
                if apply(value) != task.file.partition[pos]:
                    fail(f"{name}: {task.file.file_path}: {field.name} of {row[source.name]!r} "
                         f"is {apply(value)!r}, its partition says {task.file.partition[pos]!r}")
                    return


if __name__ == "__main__":
    main()
