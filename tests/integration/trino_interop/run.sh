#!/usr/bin/env bash
# End to end: Trino 476 (a second engine, on another JVM) over the same Iceberg REST catalog and
# S3 as `databox`. Starts PostgreSQL, SeaweedFS S3 and the REST catalog server (nessie or fallback),
# or SeaweedFS alone with its own catalog (seaweedfs: Trino signs every catalog request with
# SigV4; databox's _dlt_* tables are dbx_dlt_* there, underscore_table_prefix), and then Trino, all in a private temp folder, stopped by PID on exit, pass or fail. A service
# that does not start (Trino included) FAILS the test.
#   1. `databox refresh --skip-transform` twice into REST + S3, the second round merging
#      raw_usgs_earthquakes.events with position delete files (merge-on-read).
#      `databox ingest` then evolves raw_interop.evolving (a column and a child table added).
#   2. For EVERY raw table: Trino's row count and checksum equal pyiceberg's (checksums.py).
#   3. Trino creates a table in a raw namespace (CTAS from TPC-H into raw_usgs_earthquakes,
#      beside databox's tables) and MERGEs into it (update, delete, insert): pyiceberg and
#      `databox query` (the attached catalog polaris_aws_iceberg: the polaris_aws views name
#      only the registry's tables) read what Trino reads.
#      databox ingest appends to that table (its load columns added, optional); a merge by key
#      into it is refused (Trino sets no identifier fields) and changes nothing.
#   4. Trino deletes one row and updates another of databox's raw_usgs_earthquakes.events; `databox run
#      usgs_earthquakes` then merges the same replayed records into the table Trino changed:
#      every deleted row is back, no Trino update is left, and Trino reads what pyiceberg reads.
#   5. `databox publish` of raw_usgs_earthquakes to S3 (beside the warehouse): Trino registers
#      each published table (register_table) and reads the same rows as from the catalog's table.
#   6. Partitioned tables (partitions.py): a databox table partitioned by day(d) is pruned by
#      Trino (EXPLAIN ANALYZE of a one-day filter reads only that day's file; $files and
#      $partitions agree with pyiceberg); its spec then evolves through the REST catalog (a
#      second ingest adds bucket[2](id)) and all three readers read both specs' files; a merge-on-read merge on a day(ts) table reads the same
#      through Trino, pyiceberg and DuckDB, and databox appends to a table Trino created WITH
#      (partitioning = ARRAY['day(d)']) into the right partitions.
# usage: run.sh nessie|fallback|seaweedfs PATH/TO/databox
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../catalog_server.sh
source "$here/../catalog_server.sh"
catalog_test_begin "${1:-}" "${2:-}" "run.sh nessie|fallback|seaweedfs PATH/TO/databox"
catalog_banner "trino_interop.$server"

step "starting S3 (SeaweedFS) and the $server catalog (with PostgreSQL)"
catalog_start "$work/start"
catalog_env
catalog_registries
echo "catalog: $CATALOG_KIND at $CATALOG_URI (warehouse $REST_WAREHOUSE); S3: $S3_ENDPOINT bucket $S3_BUCKET"
rest_databox() { "$databox" --config "$work/rest/databox.toml" "$@"; }

step "databox refresh --skip-transform into REST + S3, twice (events merge-on-read the second time)"
rest_databox refresh --skip-transform >"$work/refresh-1.out" 2>&1 ||
  { cat "$work/refresh-1.out"; fail "the first refresh into the $server REST catalog failed"; }
catalog_merge_on_read "$work/rest/databox.toml"
rest_databox refresh --skip-transform >"$work/refresh-2.out" 2>&1 ||
  { cat "$work/refresh-2.out"; fail "the second refresh into the $server REST catalog failed"; }
delete_files() {
  rest_databox inspect raw_usgs_earthquakes.events --json |
    "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["delete_files"]))'
}
deletes="$(delete_files)" || fail "databox inspect of raw_usgs_earthquakes.events failed"
[ "$deletes" -gt 0 ] || fail "the merge-on-read round left no delete files (got $deletes)"
echo "raw_usgs_earthquakes.events has $deletes position delete file(s)"

step "starting Trino over the same $server catalog and S3"
catalog_trino_start
trino_cli() {
  "$TRINO_JAVA_HOME/bin/java" -jar "$TRINO_CLI_JAR" --server "$TRINO_URI" --catalog iceberg \
    --user databox "$@"
}
# compare_engines NAME: every raw table read by pyiceberg and by Trino: same rows and checksum.
compare_engines() {
  "$py" "$here/checksums.py" pyiceberg "$work/pyiceberg-$1.json" ||
    fail "$1: pyiceberg could not read the REST catalog"
  "$py" "$here/checksums.py" trino "$work/pyiceberg-$1.json" "$work/trino-$1.json" ||
    fail "$1: Trino could not read the tables pyiceberg lists"
  "$py" "$REST_HERE/tables.py" compare "$work/pyiceberg-$1.json" "$work/trino-$1.json" ||
    fail "$1: Trino reads other rows than pyiceberg"
}
# trino_value SQL: the single value SQL's first row has (through checksums.py sql).
trino_value() {
  "$py" "$here/checksums.py" sql "$1" | "$py" -c 'import json,sys; print(list(json.loads(sys.stdin.readline()).values())[0])'
}

step "databox ingest evolves a table's schema (a column added by the second file, a nested list)"
printf '%s\n' '{"id": 1, "name": "a"}' '{"id": 2, "name": "b"}' >"$work/evolve-1.ndjson"
printf '%s\n' '{"id": 3, "name": "c", "depth_km": 10.5, "tags": ["x", "y"]}' >"$work/evolve-2.ndjson"
for f in evolve-1 evolve-2; do
  rest_databox ingest "$work/$f.ndjson" --table raw_interop.evolving >"$work/$f.out" 2>&1 ||
    { cat "$work/$f.out"; fail "databox ingest of $f.ndjson failed"; }
done
rest_databox inspect raw_interop.evolving --json >"$work/evolving.json" ||
  fail "databox inspect raw_interop.evolving failed"
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); c=[f["name"] for f in d["schema"]]; print("raw_interop.evolving columns:", c); sys.exit(0 if "depth_km" in c else 1)' \
  "$work/evolving.json" || fail "the second ingest did not add depth_km to raw_interop.evolving"

step "every raw table: Trino's row count and checksum equal pyiceberg's (delete files, evolved schema)"
compare_engines refreshed
evolved="$(trino_value "SELECT count(*) FILTER (WHERE depth_km IS NULL) * 10 + count(depth_km) FROM iceberg.raw_interop.evolving")" ||
  fail "Trino could not read raw_interop.evolving"
[ "$evolved" = 21 ] || fail "Trino reads raw_interop.evolving's old rows with depth_km NULL and the new one with it: expected 2*10+1, got $evolved"

step "Trino: CTAS into raw_usgs_earthquakes.trino_orders from TPC-H, then MERGE (update, delete, insert) with the CLI"
cat >"$work/trino-writes.sql" <<'SQL'
CREATE TABLE iceberg.raw_usgs_earthquakes.trino_orders AS
  SELECT orderkey, custkey, orderstatus, totalprice, orderdate, comment FROM tpch.tiny.orders;
MERGE INTO iceberg.raw_usgs_earthquakes.trino_orders t
USING (SELECT orderkey, custkey FROM tpch.tiny.orders WHERE orderkey % 7 = 0
       UNION ALL
       SELECT orderkey + 1000000, custkey FROM tpch.tiny.orders WHERE orderkey % 11 = 0) s
ON t.orderkey = s.orderkey
WHEN MATCHED AND s.custkey % 2 = 0 THEN DELETE
WHEN MATCHED THEN UPDATE SET comment = 'merged by trino'
WHEN NOT MATCHED THEN INSERT (orderkey, custkey, orderstatus, totalprice, orderdate, comment)
  VALUES (s.orderkey, s.custkey, 'N', 0.0, DATE '2026-01-01', 'inserted by trino');
SQL
trino_cli --file "$work/trino-writes.sql" >"$work/trino-writes.out" 2>&1 ||
  { cat "$work/trino-writes.out"; fail "Trino could not CTAS and MERGE into raw_usgs_earthquakes.trino_orders"; }
grep -v "^WARNING\|jline\|^$" "$work/trino-writes.out"
orders_sql="SELECT count(*) AS n, count(*) FILTER (WHERE comment = 'merged by trino') AS merged, count(*) FILTER (WHERE comment = 'inserted by trino') AS inserted, count(DISTINCT orderkey) AS orderkeys"
trino_orders="$("$py" "$here/checksums.py" sql "$orders_sql FROM iceberg.raw_usgs_earthquakes.trino_orders")" ||
  fail "Trino could not read raw_usgs_earthquakes.trino_orders"
echo "Trino: $trino_orders"
"$py" -c 'import json,sys; r=json.loads(sys.argv[1]); sys.exit(0 if r["merged"] > 0 and r["inserted"] > 0 and r["n"] == r["orderkeys"] != 15000 else 1)' \
  "$trino_orders" || fail "Trino's MERGE did not update, delete and insert rows: $trino_orders"
databox_orders="$(rest_databox query "$orders_sql FROM polaris_aws_iceberg.raw_usgs_earthquakes.trino_orders" --json)" ||
  fail "databox query could not read the table Trino wrote: $databox_orders"
echo "databox query: $databox_orders"
"$py" -c 'import json,sys; a=json.loads(sys.argv[1]); b=json.loads(sys.argv[2]); sys.exit(0 if {k: int(v) for k, v in a.items()} == {k: int(v) for k, v in b.items()} else 1)' \
  "$trino_orders" "$databox_orders" || fail "databox query reads other rows than Trino in raw_usgs_earthquakes.trino_orders"
rest_databox inspect raw_usgs_earthquakes.trino_orders --json >"$work/orders-inspect.json" ||
  fail "databox inspect could not read the table Trino wrote"
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); n=len(d["delete_files"]); print("databox inspect:", n, "delete file(s) written by Trino"); sys.exit(0 if n else 1)' \
  "$work/orders-inspect.json" || fail "Trino's MERGE left no delete files in raw_usgs_earthquakes.trino_orders"
compare_engines trino-wrote

step "databox ingest appends to the table Trino wrote; a merge by key into it is refused"
printf '%s\n' '{"orderkey": 9000001, "custkey": 1, "orderstatus": "D", "totalprice": 1.5, "comment": "appended by databox"}' \
  '{"orderkey": 9000002, "custkey": 2, "orderstatus": "D", "totalprice": 2.5, "comment": "appended by databox"}' \
  >"$work/orders-append.ndjson"
orders_before="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.trino_orders")"
rest_databox ingest "$work/orders-append.ndjson" --table raw_usgs_earthquakes.trino_orders >"$work/orders-append.out" 2>&1 ||
  { cat "$work/orders-append.out"; fail "databox ingest could not append to the table Trino wrote"; }
appended="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.trino_orders WHERE comment = 'appended by databox' AND _dlt_load_id IS NOT NULL")"
orders_after="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.trino_orders")"
echo "trino_orders: $orders_before rows, $orders_after after the databox append ($appended with a load id)"
[ "$appended" = 2 ] && [ "$orders_after" -eq $((orders_before + 2)) ] ||
  fail "Trino does not read databox's two appended rows in trino_orders"
rest_databox ingest "$work/orders-append.ndjson" --table raw_usgs_earthquakes.trino_orders \
  --write-disposition merge --primary-key orderkey >"$work/orders-merge.out" 2>&1 &&
  fail "databox merged by key into a table without identifier fields"
grep -q "created without a primary key" "$work/orders-merge.out" ||
  { cat "$work/orders-merge.out"; fail "the refused merge did not say why"; }
[ "$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.trino_orders")" = "$orders_after" ] ||
  fail "the refused merge changed trino_orders"
compare_engines databox-appended

step "Trino deletes and updates rows of databox's raw_usgs_earthquakes.events"
events_before="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.events")" ||
  fail "Trino could not count raw_usgs_earthquakes.events"
[ "$events_before" -ge 2 ] || fail "raw_usgs_earthquakes.events has $events_before rows, fewer than 2"
trino_cli --execute "DELETE FROM iceberg.raw_usgs_earthquakes.events WHERE id IN (SELECT id FROM iceberg.raw_usgs_earthquakes.events ORDER BY id LIMIT 1);
UPDATE iceberg.raw_usgs_earthquakes.events SET title = 'changed by trino' WHERE id IN (SELECT id FROM iceberg.raw_usgs_earthquakes.events ORDER BY id DESC LIMIT 1)" \
  >"$work/trino-events.out" 2>&1 || { cat "$work/trino-events.out"; fail "Trino could not change raw_usgs_earthquakes.events"; }
events_changed="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.events")"
titles="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.events WHERE title = 'changed by trino'")"
echo "events: $events_before rows, $events_changed after Trino's DELETE, $titles with Trino's title"
[ "$events_changed" -eq $((events_before - 1)) ] && [ "$titles" -eq 1 ] ||
  fail "Trino's DELETE and UPDATE did not change raw_usgs_earthquakes.events as asked"
compare_engines trino-changed

step "databox run usgs_earthquakes merges the replayed records into the table Trino changed"
rest_databox run usgs_earthquakes >"$work/run-after-trino.out" 2>&1 ||
  { cat "$work/run-after-trino.out"; fail "databox run usgs_earthquakes into the table Trino changed failed"; }
events_after="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.events")"
titles="$(trino_value "SELECT count(*) FROM iceberg.raw_usgs_earthquakes.events WHERE title = 'changed by trino'")"
ids="$(trino_value "SELECT count(DISTINCT id) FROM iceberg.raw_usgs_earthquakes.events")"
echo "events after the databox merge: $events_after rows, $ids ids, $titles with Trino's title"
[ "$events_after" -eq "$events_before" ] && [ "$ids" -eq "$events_before" ] && [ "$titles" -eq 0 ] ||
  fail "the databox merge did not restore raw_usgs_earthquakes.events ($events_before rows before Trino)"
compare_engines databox-merged

# SeaweedFS's catalog registers only metadata inside its own table bucket ("metadata-location must
# be within bucket warehouse"), and that bucket takes no objects but its tables' (a publish there
# is refused, HTTP 403): Trino's register_table of a publication is checked on Nessie.
if [ "$server" = seaweedfs ]; then
  echo "register_table of a publication: checked by trino_interop.nessie (SeaweedFS's catalog registers only tables inside its table bucket)"
else
  step "databox publish to S3; Trino registers every published raw table (register_table) and reads what the catalog's table holds"
  export DATABOX_S3_ENDPOINT="$S3_ENDPOINT" DATABOX_AWS_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" \
    DATABOX_AWS_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" DATABOX_AWS_REGION="$S3_REGION"
  published="s3://$S3_BUCKET/published"
  rest_databox publish --to "$published" --only raw_usgs_earthquakes >"$work/publish.out" 2>&1 ||
    { cat "$work/publish.out"; fail "databox publish to $published failed"; }
  "$py" "$root/tests/integration/publish/check_publish.py" tables "$published" >"$work/published.tsv" ||
    fail "the published version could not be read"
  [ -s "$work/published.tsv" ] || fail "the publication names no raw table"
  registered=0
  while IFS=$'\t' read -r name location metadata_file rows; do
    ns="${name%%.*}" table="${name#*.}"
    trino_cli --execute "CREATE SCHEMA IF NOT EXISTS iceberg.published_$ns;
  CALL iceberg.system.register_table(schema_name => 'published_$ns', table_name => '$table', table_location => '$location', metadata_file_name => '$metadata_file')" \
      >"$work/register.out" 2>&1 || { cat "$work/register.out"; fail "Trino could not register the published $name"; }
    source_table="iceberg.$ns.\"$table\"" copy="iceberg.published_$ns.\"$table\""
    got="$(trino_value "SELECT count(*) FROM $copy")" || fail "Trino could not read the published $name"
    differ="$(trino_value "SELECT (SELECT count(*) FROM (SELECT * FROM $copy EXCEPT ALL SELECT * FROM $source_table)) + (SELECT count(*) FROM (SELECT * FROM $source_table EXCEPT ALL SELECT * FROM $copy))")" ||
      fail "Trino could not compare the published $name with the catalog's"
    echo "published $name: $got rows (manifest: $rows), $differ rows differ from the catalog's table"
    [ "$got" = "$rows" ] && [ "$differ" = 0 ] || fail "Trino reads the published $name differently"
    registered=$((registered + 1))
  done <"$work/published.tsv"
  echo "Trino registered and read $registered published table(s)"
fi

step "partitioned tables: Trino prunes databox's day partitions, merge-on-read reads alike, databox appends to a table Trino partitioned"
partitions_began=$(date +%s)
partitions() { "$py" "$here/partitions.py" "$@" || fail "partitions.py $*"; }
duck_rows() {
  rest_databox query "SELECT id, v FROM polaris_aws_iceberg.$1" --json >"$work/$1.duck" ||
    fail "databox query (DuckDB) could not read $1"
}
"$py" -c 'import datetime as dt
print("id,d,v")
for i in range(240): print(f"{i},{dt.date(2024, 3, 1) + dt.timedelta(days=i % 12)},v{i}")' >"$work/days.csv"
rest_databox ingest "$work/days.csv" --table raw_interop.by_day --partition 'day(d)' \
  >"$work/by-day.out" 2>&1 || { cat "$work/by-day.out"; fail "databox ingest --partition 'day(d)' failed"; }
partitions pruning raw_interop.by_day d 2024-03-05
partitions tuples raw_interop.by_day d
"$py" -c 'import datetime as dt
print("id,d,v")
for i in range(240, 480): print(f"{i},{dt.date(2024, 3, 1) + dt.timedelta(days=i % 12)},v{i}")' >"$work/days-2.csv"
rest_databox ingest "$work/days-2.csv" --table raw_interop.by_day --partition 'day(d),bucket[2](id)' \
  >"$work/by-day-2.out" 2>&1 || { cat "$work/by-day-2.out"; fail "databox ingest with a changed --partition failed"; }
partitions specs raw_interop.by_day 2
partitions tuples raw_interop.by_day d
duck_rows raw_interop.by_day
partitions same raw_interop.by_day "$work/raw_interop.by_day.duck"
"$py" -c 'import datetime as dt, sys, pyarrow as pa, pyarrow.parquet as pq
start = dt.datetime(2024, 3, 1, 6, tzinfo=dt.timezone.utc)
def write(path, ids, text):
    rows = [{"id": i, "ts": start + dt.timedelta(days=i % 12), "v": f"{text}{i}"} for i in ids]
    pq.write_table(pa.Table.from_pylist(rows), path)
write(sys.argv[1], range(240), "v")
write(sys.argv[2], range(0, 240, 5), "changed")' "$work/mor-1.parquet" "$work/mor-2.parquet" ||
  fail "could not write the merge inputs"
for f in mor-1 mor-2; do
  rest_databox ingest "$work/$f.parquet" --table raw_interop.by_day_merged --partition 'day(ts)' \
    --write-disposition merge --primary-key id --merge-mode merge-on-read >"$work/$f.out" 2>&1 ||
    { cat "$work/$f.out"; fail "databox merge-on-read ingest of $f.parquet failed"; }
done
rest_databox inspect raw_interop.by_day_merged --json >"$work/by-day-merged.json" ||
  fail "databox inspect raw_interop.by_day_merged failed"
"$py" -c 'import json,sys; d=json.load(open(sys.argv[1])); n=len(d["delete_files"]); print("raw_interop.by_day_merged:", n, "position delete file(s)"); sys.exit(0 if n >= 12 else 1)' \
  "$work/by-day-merged.json" || fail "the merge-on-read merge did not leave a delete file per day partition"
duck_rows raw_interop.by_day_merged
partitions same raw_interop.by_day_merged "$work/raw_interop.by_day_merged.duck"
[ "$(trino_value "SELECT count(*) FROM iceberg.raw_interop.by_day_merged WHERE v LIKE 'changed%'")" = 48 ] ||
  fail "Trino does not read the 48 rows the merge-on-read merge changed"
trino_cli --execute "CREATE TABLE iceberg.raw_interop.trino_days (id bigint, d date, v varchar) WITH (partitioning = ARRAY['day(d)']);
INSERT INTO iceberg.raw_interop.trino_days VALUES (1000, DATE '2024-03-01', 'trino'), (1001, DATE '2024-04-01', 'trino')" \
  >"$work/trino-days.out" 2>&1 || { cat "$work/trino-days.out"; fail "Trino could not create raw_interop.trino_days"; }
rest_databox ingest "$work/days.csv" --table raw_interop.trino_days >"$work/trino-days-ingest.out" 2>&1 ||
  { cat "$work/trino-days-ingest.out"; fail "databox ingest could not append to the table Trino partitioned"; }
[ "$(trino_value "SELECT count(*) FROM iceberg.raw_interop.\"trino_days\$partitions\"")" = 13 ] ||
  fail "raw_interop.trino_days: Trino's \$partitions does not list 13 days (12 from databox, one more from Trino)"
partitions tuples raw_interop.trino_days d
duck_rows raw_interop.trino_days
partitions same raw_interop.trino_days "$work/raw_interop.trino_days.duck"
echo "partition checks took $(($(date +%s) - partitions_began)) s"

echo "PASS: Trino and databox read and write the same tables through $server ($CATALOG_KIND)"
