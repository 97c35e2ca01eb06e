#!/usr/bin/env bash
# End to end: `databox catalog recover --from-warehouse` of a REST catalog, against `fallback`
# (Iceberg's reference REST adapter over JDBC, NOT Apache Polaris) or `nessie` (Project Nessie),
# with PostgreSQL 15 and SeaweedFS S3 started here in a private temp folder and stopped by PID on
# exit. Recorded sources are refreshed twice into the REST catalog; every table is recorded
# with pyiceberg; the server's database is dropped (the catalog state is lost: the server starts
# empty); a dry run writes nothing and plans every table at its newest file, confirmed by the
# commit markers Databox wrote after each REST commit; with the markers moved aside the newest
# files are unconfirmed and `--apply` is refused; with them back, `--apply` registers every table
# through the server's register endpoint; pyiceberg then reads every table as before, at the same metadata files; one
# more refresh matches an embedded run of the same sources (no duplicates). A service that does
# not start FAILS the test.
# `seaweedfs` (SeaweedFS's own catalog) cannot lose its state while the files stay: its catalog
# lives in the same store as the files and a DROP deletes them whatever purgeRequested says
# (docs/services.md). There the test recovers over the intact catalog: the dry run must find
# every table at the metadata file the catalog holds ("up to date"), naming each by databox's
# name (the folder dbx_dlt_loads is table _dlt_loads: underscore_table_prefix), and --apply must
# write nothing; then one more refresh matches the embedded run.
# usage: run.sh fallback|nessie|seaweedfs PATH/TO/databox
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../catalog_server.sh
source "$here/../catalog_server.sh"
catalog_test_begin "${1:-}" "${2:-}" "run.sh fallback|nessie|seaweedfs PATH/TO/databox"
rest_here="$root/tests/integration/refresh_rest"
started=$SECONDS
catalog_banner "catalog_recover_rest.$server"
sources=(--source usgs --source noaa --source usgs_earthquakes)

step "starting S3 (SeaweedFS) and the $server catalog (with PostgreSQL, but for SeaweedFS's own)"
catalog_start "$work/start"
catalog_env
# Where the server puts table folders (its warehouse location, from scripts/services).
tables_under="$CATALOG_WAREHOUSE"
[ "$server" = nessie ] && tables_under="$CATALOG_WAREHOUSE_LOCATION"
[ "$server" = seaweedfs ] && tables_under="s3://$CATALOG_WAREHOUSE"  # its table bucket

catalog_registries
rest() { "$databox" --config "$work/rest/databox.toml" "$@"; }
embedded() { "$databox" --config "$work/embedded/databox.toml" "$@"; }

for round in 1 2; do
  step "refresh $round (usgs, noaa, usgs_earthquakes) into REST + S3 and into the embedded reference"
  rest refresh --skip-transform "${sources[@]}" >"$work/refresh-$round.out" 2>&1 ||
    { cat "$work/refresh-$round.out"; fail "refresh $round into the $server catalog failed"; }
  embedded refresh --skip-transform "${sources[@]}" >"$work/embedded-$round.out" 2>&1 ||
    { cat "$work/embedded-$round.out"; fail "refresh $round into the embedded catalog failed"; }
done
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/before.json" ||
  fail "pyiceberg could not read the REST catalog"
catalog_locations "$work/before-locations.json" || fail "pyiceberg could not list the REST catalog"
grep -q "$tables_under/" "$work/before-locations.json" ||
  fail "the $server server does not put tables under $tables_under: $(head -3 "$work/before-locations.json")"

# dry_run ACTION: `recover --dry-run` into $work/dry.json must plan every table with ACTION at
# the metadata file pyiceberg read before (databox's names: a _dlt_* table's folder is dbx_dlt_*
# on SeaweedFS), confirmed by commit markers, writing nothing.
dry_run() {
  rest catalog recover --from-warehouse --tables-under "$tables_under" --json \
    >"$work/dry.json" 2>"$work/dry.err" || { cat "$work/dry.err"; fail "the dry run failed"; }
  "$py" - "$work/dry.json" "$work/before-locations.json" "$1" <<'PY' || fail "the dry run's plan is wrong"
import json, sys
r = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
action = sys.argv[3]
assert r["applied"] is False, r
assert r["commit_markers"] > 0, f"no commit markers were read: {r}"
got = {t["table"]: t["metadata_location"] for t in r["tables"]}
assert got == want, f"the dry run chose {got}, pyiceberg had {want}"
assert any(t.endswith("._dlt_loads") for t in got), f"no _dlt_loads table among {sorted(got)}"
assert all(t["action"] == action and not t["applied"] for t in r["tables"]), r["tables"]
assert r["evidence_note"] == "", r["evidence_note"]
print(f"dry run: {action}: {len(got)} tables at the metadata files pyiceberg read before, "
      f"confirmed by {r['commit_markers']} commit markers")
PY
}

if [ "$server" = seaweedfs ]; then
  step "dry run over the intact catalog: every table up to date, by databox's names, confirmed by commit markers"
  dry_run "up to date"
  tables="$("$py" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$work/before-locations.json")"
  rest catalog recover --from-warehouse --tables-under "$tables_under" --apply \
    >"$work/again.out" 2>&1 || { cat "$work/again.out"; fail "recover --apply over the intact catalog failed"; }
  grep -q "^$tables tables ($tables up to date)" "$work/again.out" ||
    { cat "$work/again.out"; fail "recover --apply did not find every table up to date"; }
  catalog_locations "$work/after-locations.json" || fail "pyiceberg could not list the catalog"
  diff -u "$work/before-locations.json" "$work/after-locations.json" ||
    fail "recover --apply over the intact catalog moved a table"
else
step "lose the catalog state: drop the $catalog_database database while the server is stopped"
catalog_lose_state

step "dry run: every table would be registered from $tables_under, confirmed by commit markers"
dry_run register
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/still-lost.json" >/dev/null 2>&1 &&
  fail "the dry run wrote tables into the catalog"

# markers_move FROM TO: moves every object under s3://$S3_BUCKET/FROM to TO (boto3, not ours).
markers_move() {
  "$py" - "$1" "$2" "$rest_here" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[3])
from tables import s3_client
src, dst = sys.argv[1], sys.argv[2]
s3 = s3_client()
bucket = os.environ["S3_BUCKET"]
keys = [o["Key"] for page in s3.get_paginator("list_objects_v2").paginate(Bucket=bucket, Prefix=src)
        for o in page.get("Contents", [])]
assert keys, f"nothing under s3://{bucket}/{src}"
for key in keys:
    s3.copy_object(Bucket=bucket, Key=dst + key[len(src):], CopySource={"Bucket": bucket, "Key": key})
    s3.delete_object(Bucket=bucket, Key=key)
print(f"moved {len(keys)} objects from {src} to {dst}")
PY
}

step "without the commit markers the newest files are unconfirmed and --apply is refused"
markers_move warehouse/_databox/commits/ warehouse/_databox/aside/ || fail "cannot move the markers aside"
rest catalog recover --from-warehouse --tables-under "$tables_under" >"$work/confirmed.out" 2>&1
confirmed_rc=$?
tail -5 "$work/confirmed.out"
grep -q "no commit markers under s3://$S3_BUCKET/warehouse/_databox/commits/" "$work/confirmed.out" ||
  fail "the report does not say where commit markers were looked for"
grep -q "unconfirmed metadata files skipped" "$work/confirmed.out" ||
  fail "the report does not count the unconfirmed newest files"
echo "exit $confirmed_rc without markers"
rest catalog recover --from-warehouse --tables-under "$tables_under" --apply \
  >"$work/refused.out" 2>&1 && { cat "$work/refused.out"; fail "--apply without markers was accepted"; }
grep -q -- "apply with --include-unconfirmed; nothing was written" "$work/refused.out" ||
  { cat "$work/refused.out"; fail "--apply without markers: no clear refusal"; }
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/still-lost.json" >/dev/null 2>&1 &&
  fail "the refused --apply wrote tables into the catalog"
echo "--apply without commit markers is refused; nothing written"
markers_move warehouse/_databox/aside/ warehouse/_databox/commits/ || fail "cannot put the markers back"

step "databox catalog recover --from-warehouse --apply"
t0=$SECONDS
rest catalog recover --from-warehouse --tables-under "$tables_under" --apply \
  >"$work/recover.out" 2>&1 || { cat "$work/recover.out"; fail "catalog recover --apply failed"; }
recover_seconds=$((SECONDS - t0))
tail -3 "$work/recover.out"
grep -q "^raw_usgs\.[a-z_]*: registered" "$work/recover.out" || fail "recover registered no raw_usgs table"

step "every table as before: pyiceberg rows, columns, keys and the same metadata files"
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/after.json" ||
  fail "pyiceberg could not read the recovered REST catalog"
"$py" "$rest_here/tables.py" compare "$work/before.json" "$work/after.json" ||
  fail "recovered tables differ from the ones before the loss"
catalog_locations "$work/after-locations.json" || fail "pyiceberg could not list the recovered catalog"
diff -u "$work/before-locations.json" "$work/after-locations.json" ||
  fail "recovered tables point at other metadata files"
tables="$("$py" -c 'import json,sys; print(len(json.load(open(sys.argv[1]))))' "$work/after-locations.json")"
files="$("$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["metadata_files"])' "$work/dry.json")"

step "recover again: every table is up to date, nothing written"
rest catalog recover --from-warehouse --tables-under "$tables_under" --apply \
  >"$work/again.out" 2>&1 || { cat "$work/again.out"; fail "the second recover failed"; }
grep -q "^$tables tables ($tables up to date)" "$work/again.out" ||
  { cat "$work/again.out"; fail "the second recover did not find every table up to date"; }

fi

step "one more refresh on the recovered catalog: same rows as the embedded run, no duplicates"
rest refresh --skip-transform "${sources[@]}" >"$work/refresh-3.out" 2>&1 ||
  { cat "$work/refresh-3.out"; fail "the refresh after the recovery failed"; }
embedded refresh --skip-transform "${sources[@]}" >"$work/embedded-3.out" 2>&1 ||
  { cat "$work/embedded-3.out"; fail "the third embedded refresh failed"; }
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/rest-3.json" ||
  fail "pyiceberg could not read the REST catalog after the refresh"
"$py" "$rest_here/tables.py" dump-sql "$work/embedded/.databox/catalog.sqlite" databox_lake \
  "$work/embedded-3.json" || fail "pyiceberg could not read the embedded catalog"
"$py" "$rest_here/tables.py" compare "$work/embedded-3.json" "$work/rest-3.json" ||
  fail "after recovery + refresh the REST tables differ from the embedded run"

if [ "$server" = seaweedfs ]; then
  echo "$tables tables up to date over the intact catalog, whole test $((SECONDS - started))s"
else
  echo "recovered $tables tables from $files metadata files in ${recover_seconds}s (recover --apply), whole test $((SECONDS - started))s"
fi
echo "PASS: catalog recover --from-warehouse into the $server REST catalog ($CATALOG_KIND)"
