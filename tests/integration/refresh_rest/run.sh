#!/usr/bin/env bash
# End to end: `databox refresh` of the six recorded routine sources into the Iceberg REST
# catalog + S3, checked by pyiceberg against an embedded (SQLite + local) run of the same
# registry. Runs against one REST catalog server: `fallback` (Iceberg's reference REST
# adapter, NOT Apache Polaris), `nessie` (Project Nessie), each with PostgreSQL 15 and SeaweedFS
# S3, or `seaweedfs` (SeaweedFS's own catalog, SigV4-signed, with the registry's
# underscore_table_prefix = "dbx": it refuses table names starting with '_', so databox's
# _dlt_loads is its dbx_dlt_loads; without the prefix a run must fail saying so), all started
# here in a private temp folder and stopped by PID on exit, pass or fail.
# A service that does not start FAILS the test.
# With --vended-only (nessie) the REST registry has NO S3 keys and databox runs without any in
# its environment: every table's files are signed with the credentials Nessie vends (STS
# session credentials from SeaweedFS's STS) with the table's load; two refresh rounds (creates, then
# merges that read the tables' files through DuckDB) are compared with the embedded run.
# usage: run.sh fallback|nessie|seaweedfs PATH/TO/databox [--vended-only]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../catalog_server.sh
source "$here/../catalog_server.sh"
catalog_test_begin "${1:-}" "${2:-}" "run.sh fallback|nessie|seaweedfs PATH/TO/databox [--vended-only]"
vended_only="${3:-}"
case "$vended_only" in
  "") catalog_banner "refresh_rest.$server" ;;
  --vended-only)
    [ "$server" = nessie ] || fail "--vended-only needs a catalog that vends credentials (nessie)"
    catalog_banner "refresh_rest.${server}_vended (no S3 keys: vended credentials only)" ;;
  *) fail "unknown option '$vended_only' (known: --vended-only)" ;;
esac
log="$state/polaris/server.log"
[ "$server" = nessie ] && log="$state/nessie/server.log"
[ "$server" = seaweedfs ] && log="$state/s3/weed.log"

step "the committed REST example is the generator's output"
"$py" "$here/make_rest_registry.py" --out "$work/polaris.expected.toml" || fail "generator failed"
diff -u "$work/polaris.expected.toml" "$root/examples/databox/databox.polaris.toml" ||
  fail "examples/databox/databox.polaris.toml is stale: run $here/make_rest_registry.py --out examples/databox/databox.polaris.toml"

step "starting S3 (SeaweedFS) and the $server catalog (with PostgreSQL, but for SeaweedFS's own)"
catalog_start "$work/start"
# Exported: tables.py reads CATALOG_URI, REST_WAREHOUSE and S3_* from the environment.
# shellcheck disable=SC1091
set -a; source "$catalog_env_file"; source "$state/s3.env"; set +a
# The warehouse the registry names: the FALLBACK ignores it; Nessie has the one start-nessie
# configured (its /v1/config answers 500 "Warehouse ... is not known" for any other).
export REST_WAREHOUSE=databox_lake
[ "$server" = nessie ] || [ "$server" = seaweedfs ] && REST_WAREHOUSE="$CATALOG_WAREHOUSE"
echo "catalog: $CATALOG_KIND at $CATALOG_URI (warehouse $REST_WAREHOUSE); S3: $S3_ENDPOINT bucket $S3_BUCKET"

mkdir -p "$work/rest" "$work/embedded"
no_keys=()
# Vended-only also authenticates with a bearer token (Nessie runs with authentication off and
# ignores it): databox sends it, DuckDB and SQLMesh attach with it, and it must never leak.
if [ -n "$vended_only" ]; then
  no_keys=(--no-s3-keys --token-var DATABOX_TEST_CATALOG_TOKEN)
  export DATABOX_TEST_CATALOG_TOKEN="tok-$RANDOM$RANDOM-bearer"
fi
# SeaweedFS's catalog: every request signed with the S3 keys; it refuses table names that do
# not start with a letter or digit, so the registry maps _dlt_loads to dbx_dlt_loads (tables.py
# reads the catalog's names back the same way, from REST_UNDERSCORE_PREFIX).
if [ "$server" = seaweedfs ]; then
  no_keys=(--sigv4 --underscore-table-prefix dbx)
  export REST_UNDERSCORE_PREFIX=dbx
fi
"$py" "$here/make_rest_registry.py" --absolute-paths --no-credential "${no_keys[@]}" --uri "$CATALOG_URI" \
  --warehouse "$REST_WAREHOUSE" --location "s3://$S3_BUCKET/warehouse" --endpoint "$S3_ENDPOINT" \
  --region "$S3_REGION" --out "$work/rest/databox.toml" || fail "cannot write the REST registry"
"$py" "$here/make_rest_registry.py" --absolute-paths --embedded --out "$work/embedded/databox.toml" ||
  fail "cannot write the embedded registry"
# databox on the REST registry; with --vended-only without any S3 key in its environment.
rest_databox() {
  if [ -n "$vended_only" ]; then
    env -u AWS_ACCESS_KEY_ID -u AWS_SECRET_ACCESS_KEY -u AWS_SESSION_TOKEN \
      -u DATABOX_AWS_ACCESS_KEY_ID -u DATABOX_AWS_SECRET_ACCESS_KEY -u DATABOX_AWS_SESSION_TOKEN \
      "$databox" --config "$work/rest/databox.toml" "$@"
  else
    "$databox" --config "$work/rest/databox.toml" "$@"
  fi
}
if [ -n "$vended_only" ]; then
  grep -q "access_key_id" "$work/rest/databox.toml" && fail "the vended-only registry has S3 keys"
else
  export AWS_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" AWS_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY"
fi

step "databox validate (REST registry)"
rest_databox validate || fail "the REST registry is invalid"

if [ -z "$vended_only" ]; then
  step "databox catalog bootstrap against $server must say there is no Polaris"
  "$databox" --config "$work/rest/databox.toml" catalog bootstrap >"$work/bootstrap.out" 2>&1
  rc=$?
  cat "$work/bootstrap.out"
  [ $rc -ne 0 ] || fail "catalog bootstrap succeeded against $server, which has no Polaris management API"
  grep -q "no Polaris management API at http://127.0.0.1:" "$work/bootstrap.out" ||
    fail "catalog bootstrap did not say that no Polaris management API answers"
fi

# Refreshes both registries (REST + S3, and the embedded reference), then reads both catalogs
# with pyiceberg and compares them. $1 names the round (file names and messages).
refresh_and_compare() {
  local round="$1"
  step "$round: databox refresh --skip-transform into REST + S3, then into the embedded default"
  rest_databox refresh --skip-transform >"$work/refresh-rest-$round.out" 2>&1 ||
    { cat "$work/refresh-rest-$round.out"; fail "$round: refresh into the $server REST catalog failed (catalog log: $log)"; }
  cat "$work/refresh-rest-$round.out"
  "$databox" --config "$work/embedded/databox.toml" refresh --skip-transform ||
    fail "$round: refresh into the embedded catalog failed"
  step "$round: pyiceberg reads both catalogs"
  "$py" "$here/tables.py" dump-sql "$work/embedded/.databox/catalog.sqlite" databox_lake \
    "$work/embedded-$round.json" || fail "$round: pyiceberg could not read the embedded catalog"
  "$py" "$here/tables.py" dump-rest databox_lake "$work/rest-$round.json" ||
    fail "$round: pyiceberg could not read the REST catalog"
  "$py" "$here/tables.py" compare "$work/embedded-$round.json" "$work/rest-$round.json" ||
    fail "$round: REST + S3 tables differ from the embedded run"
}

# Runs `databox query "$1" --json` on both registries and fails unless the answers are the
# same and not empty; the REST + S3 answer is left in $rest_answer.
query_both() {
  local embedded_answer
  rest_answer="$(rest_databox query "$1" --json)" ||
    fail "databox query on the REST + S3 registry failed: $rest_answer ($1)"
  embedded_answer="$("$databox" --config "$work/embedded/databox.toml" query "$1" --json)" ||
    fail "databox query on the embedded registry failed: $embedded_answer ($1)"
  echo "$1 -> REST: $rest_answer  embedded: $embedded_answer"
  [ -n "$rest_answer" ] && [ "$rest_answer" = "$embedded_answer" ] ||
    fail "databox query answers differ: $1"
}

refresh_and_compare first

# A first load creates its tables. Nessie takes them in one transaction with the load's status
# rows (checked in its own commit log); the FALLBACK refuses a transaction that creates tables,
# so the same loads above went table by table there.
if [ "$server" = nessie ]; then
  step "each source's first load is one Nessie commit: data tables and status rows together"
  "$py" "$root/tests/integration/rest_catalog/interop.py" "$catalog_env_file" "$state/s3.env" \
    nessie-one-commit raw_usgs_earthquakes events _dlt_loads _dlt_load_status ||
    fail "the first load of usgs_earthquakes was not one commit in Nessie's log"
  "$py" "$root/tests/integration/rest_catalog/interop.py" "$catalog_env_file" "$state/s3.env" \
    nessie-one-commit raw_ebird recent_observations notable_observations hotspots \
    _dlt_loads _dlt_load_status ||
    fail "the first load of ebird was not one commit in Nessie's log"
fi

if [ -n "$vended_only" ]; then
  step "Nessie vends S3 session credentials with a table load (key names only)"
  "$py" - <<'PY' || fail "Nessie vended no S3 session credentials with the table load"
import json, os, urllib.request
base = os.environ["CATALOG_URI"].rstrip("/")
with urllib.request.urlopen(f"{base}/v1/config?warehouse={os.environ['REST_WAREHOUSE']}") as r:
    body = json.load(r)
prefix = body.get("overrides", {}).get("prefix") or body.get("defaults", {}).get("prefix")
request = urllib.request.Request(
    f"{base}/v1/{prefix}/namespaces/raw_usgs_earthquakes/tables/events",
    headers={"X-Iceberg-Access-Delegation": "vended-credentials"})
with urllib.request.urlopen(request) as r:
    config = json.load(r).get("config", {})
keys = sorted(k for k in config if k.startswith("s3."))
print("vended config keys:", keys)  # names only: the values are secrets
if not {"s3.access-key-id", "s3.secret-access-key", "s3.session-token"} <= set(keys):
    raise SystemExit(1)
# The leak checks below search for the token's form: say so if it is not that form any more.
if not config["s3.session-token"].startswith("eyJhbGciOi"):
    raise SystemExit("the vended session token is not a JWT: the leak checks below would miss it")
PY
  step "merge-on-read for raw_usgs_earthquakes.events: the second round merges into S3 tables"
  for r in rest embedded; do
    sed -i '/^name = "events"$/{n;s/^records_path = "features"$/&\nmerge_mode = "merge-on-read"/}' \
      "$work/$r/databox.toml"
  done
  refresh_and_compare second
  deletes="$(rest_databox inspect raw_usgs_earthquakes.events --json |
    "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["delete_files"]))')" ||
    fail "databox inspect of the S3 events table failed with vended credentials"
  [ "$deletes" -gt 0 ] || fail "the merge-on-read round left no delete files on S3 (got $deletes)"
  # SeaweedFS's session tokens are JWTs: every one starts with the encoding of '{"alg":'.
  step "no vended session token (a JWT, eyJhbGciOi...) in databox's output or files"
  leaks="$(grep -rl "eyJhbGciOi" "$work/rest" "$work"/refresh-rest-*.out)"
  [ -z "$leaks" ] || fail "a vended session token was written to: $leaks"
  leaks="$(grep -rl "$DATABOX_TEST_CATALOG_TOKEN" "$work/rest" "$work"/refresh-rest-*.out)"
  [ -z "$leaks" ] || fail "the catalog's bearer token was written to: $leaks"
  step "databox query reads through the attached catalog with the credentials it vends"
  query_both "SELECT count(*) AS n, count(DISTINCT id) AS events FROM polaris_aws.raw_usgs_earthquakes.events"
  step "full databox refresh with vended credentials only: SQLMesh reads through the attached catalog"
  rest_databox refresh >"$work/full-rest-vended.out" 2>&1 ||
    { tail -40 "$work/full-rest-vended.out"; fail "the full refresh (with SQLMesh) with vended credentials only failed"; }
  "$databox" --config "$work/embedded/databox.toml" refresh >"$work/full-embedded.out" 2>&1 ||
    { tail -40 "$work/full-embedded.out"; fail "the full refresh (with SQLMesh) into the embedded catalog failed"; }
  query_both "SELECT count(*) AS n, count(DISTINCT event_id) AS events FROM analytics.fct_earthquakes"
  step "no bearer token or session token in the full refresh's output, its logs or state"
  leaks="$(grep -rl -e "$DATABOX_TEST_CATALOG_TOKEN" -e "eyJhbGciOi" "$work/rest" \
    "$work/full-rest-vended.out")"
  [ -z "$leaks" ] || fail "a token was written to: $leaks"
  echo "PASS: refresh into REST + S3 with vended credentials only against $server ($CATALOG_KIND)"
  exit 0
fi

step "databox query reads the S3 tables through the attached catalog like the embedded ones"
query_both "SELECT count(*) AS n, count(DISTINCT sub_id) AS subs FROM polaris_aws.raw_ebird.recent_observations"

step "restart the catalog server (same port): nothing is lost"
catalog_restart "$work/restart-catalog.out"
set -a; source "$catalog_env_file"; set +a
"$py" "$here/tables.py" dump-rest databox_lake "$work/rest-restarted.json" ||
  fail "pyiceberg could not read the REST catalog after a restart"
"$py" "$here/tables.py" compare "$work/rest-first.json" "$work/rest-restarted.json" ||
  fail "tables changed across a catalog restart"

# After the restart: a second load appends/merges into existing tables (one transaction). The
# earthquake events merge with position deletes (merge-on-read) in both registries this round.
step "merge-on-read for raw_usgs_earthquakes.events in both registries"
for r in rest embedded; do
  sed -i '/^name = "events"$/{n;s/^records_path = "features"$/&\nmerge_mode = "merge-on-read"/}' \
    "$work/$r/databox.toml"
  grep -q '^merge_mode = "merge-on-read"$' "$work/$r/databox.toml" ||
    fail "could not set merge_mode in the $r registry"
done
refresh_and_compare second

step "the S3 events table has position delete files; --rewrite-deletes folds them, rows unchanged"
events_json() {
  "$databox" --config "$work/rest/databox.toml" inspect raw_usgs_earthquakes.events --json
}
deletes="$(events_json | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["delete_files"]))')" ||
  fail "databox inspect of the S3 events table failed"
[ "$deletes" -gt 0 ] || fail "the merge-on-read round left no delete files on S3 (got $deletes)"
step "databox query honours the delete files (REST: DuckDB's iceberg extension through the attached catalog)"
query_both "SELECT count(*) AS n, count(DISTINCT id) AS events FROM polaris_aws.raw_usgs_earthquakes.events"
case "$rest_answer" in
  *'"n":"0"'*|*'"n":0,'*) fail "no events read through the attached catalog: $rest_answer" ;;
esac
"$py" -c 'import json,sys; r=json.loads(sys.argv[1]); sys.exit(0 if int(r["n"]) == int(r["events"]) else 1)' \
  "$rest_answer" || fail "duplicate events through the attached catalog (delete files ignored?): $rest_answer"
events_json | "$py" -c '
import json, sys
sizes, n = json.load(sys.stdin)["sizes"], int(json.loads(sys.argv[1])["n"])
records, deleted = sizes["data_records"], sizes["deleted_positions"]
print(f"events: {records} records in data files, {deleted} deleted positions, {n} rows read")
sys.exit(0 if deleted > 0 and records - deleted == n else 1)' \
  "$rest_answer" || fail "the rows read through the attached catalog are not the data files minus their deletes"
"$databox" --config "$work/rest/databox.toml" maintain raw_usgs_earthquakes.events \
  --rewrite-deletes --remove || fail "maintain --rewrite-deletes failed on REST + S3"
deletes="$(events_json | "$py" -c 'import json,sys; print(len(json.load(sys.stdin)["delete_files"]))')"
[ "$deletes" = 0 ] || fail "delete files left after --rewrite-deletes: $deletes"
"$py" "$here/tables.py" dump-rest databox_lake "$work/rest-compacted.json" ||
  fail "pyiceberg could not read the REST catalog after the rewrite"
"$py" "$here/tables.py" compare "$work/embedded-second.json" "$work/rest-compacted.json" ||
  fail "the rewrite changed the rows of the REST + S3 tables"

step "an orphan object on S3 is aged by its LastModified and removed by maintain --remove"
metadata="$(events_json | "$py" -c 'import json,sys; print(json.load(sys.stdin)["metadata_location"])')" ||
  fail "databox inspect of the S3 events table failed"
stray="${metadata%/metadata/*}/data/stray-orphan.parquet"
"$py" - "$stray" "$here" <<'PY' || fail "could not plant $stray"
import sys
sys.path.insert(0, sys.argv[2])
from tables import s3_client
bucket, key = sys.argv[1][len("s3://"):].split("/", 1)
s3_client().put_object(Bucket=bucket, Key=key, Body=b"stray")
PY
"$databox" --config "$work/rest/databox.toml" maintain raw_usgs_earthquakes.events >"$work/orphans-dry.out" ||
  { cat "$work/orphans-dry.out"; fail "maintain (dry run) failed on S3"; }
cat "$work/orphans-dry.out"
grep -q "stray-orphan.parquet  5 bytes  [0-9]*s  younger than 3d" "$work/orphans-dry.out" ||
  fail "the dry run did not age the S3 orphan from its LastModified"
# The stray is the only orphan. On Nessie the files that only earlier commits reference (it can
# still serve them) are kept, and said so.
grep -q "^raw_usgs_earthquakes.events: 1 orphan file(s)" "$work/orphans-dry.out" ||
  fail "the dry run found other orphans than the planted stray"
if [ "$server" = nessie ]; then
  grep -q "file(s) only earlier versions (.*) reference are kept" "$work/orphans-dry.out" ||
    fail "the dry run on Nessie did not keep the files of earlier Nessie commits"
fi
"$databox" --config "$work/rest/databox.toml" maintain raw_usgs_earthquakes.events --remove \
  --older-than 0 >"$work/orphans-removed.out" || { cat "$work/orphans-removed.out"; fail "maintain --remove failed on S3"; }
grep -q "stray-orphan.parquet  5 bytes  .*  removed" "$work/orphans-removed.out" ||
  { cat "$work/orphans-removed.out"; fail "the S3 orphan was not removed"; }
"$py" "$here/tables.py" dump-rest databox_lake "$work/rest-maintained.json" ||
  fail "pyiceberg could not read the REST catalog after orphan removal"
"$py" "$here/tables.py" compare "$work/embedded-second.json" "$work/rest-maintained.json" ||
  fail "orphan removal changed the rows of the REST + S3 tables"

step "full databox refresh into REST + S3: SQLMesh reads the raw tables through the attached catalog"
"$databox" --config "$work/rest/databox.toml" refresh >"$work/full-rest.out" 2>&1 ||
  { tail -40 "$work/full-rest.out"; fail "the full refresh (with SQLMesh) into REST + S3 failed"; }
"$databox" --config "$work/embedded/databox.toml" refresh >"$work/full-embedded.out" 2>&1 ||
  { tail -40 "$work/full-embedded.out"; fail "the full refresh (with SQLMesh) into the embedded catalog failed"; }
for model_query in \
  "SELECT count(*) AS n, count(DISTINCT event_id) AS events FROM analytics.fct_earthquakes" \
  "SELECT count(*) AS n, count(DISTINCT station) AS stations FROM analytics.fct_daily_weather" \
  "SELECT count(*) AS n FROM analytics.fct_bird_observations" \
  "SELECT count(*) AS sources, count(*) FILTER (WHERE status = 0) AS ok FROM analytics.platform_health"; do
  query_both "$model_query"
  case "$rest_answer" in *'"n":"0"'*|*'"ok":"0"'*) fail "the model is empty over S3: $model_query";; esac
done

step "a commit made by pyiceberg after the refresh: databox query sees it at once, nothing rebuilt"
views="$work/rest/.databox/polaris_aws.duckdb"  # the raw views file (state_dir .databox)
[ -f "$views" ] || fail "no raw views file at $views"
views_before="$(stat -c %Y.%s "$views")"
count_sql="SELECT count(*) AS n FROM polaris_aws.raw_ebird.recent_observations"
before="$("$databox" --config "$work/rest/databox.toml" query "$count_sql" --format csv | tail -1)" ||
  fail "databox query failed before the pyiceberg commit"
"$py" "$here/tables.py" append-copy databox_lake raw_ebird.recent_observations 7 ||
  fail "pyiceberg could not append to raw_ebird.recent_observations"
after="$("$databox" --config "$work/rest/databox.toml" query "$count_sql" --format csv | tail -1)" ||
  fail "databox query failed after the pyiceberg commit"
echo "raw_ebird.recent_observations through polaris_aws: $before rows before, $after after"
[ "$after" -eq $((before + 7)) ] || fail "databox query did not see the pyiceberg commit ($before -> $after)"
[ "$(stat -c %Y.%s "$views")" = "$views_before" ] || fail "the raw views file was rebuilt"

# Crash atomicity against the REST server (src/common/failpoint.h): SIGKILL just before the
# commit request is sent, then just after the server accepted it.
step "a load killed before its REST commit changes nothing; killed after it, --resume finishes it without a duplicate"
dump_rest() {
  "$py" "$here/tables.py" dump-rest databox_lake "$work/$1.json" >/dev/null ||
    fail "pyiceberg could not read the REST catalog ($1)"
}
loads_rows() {
  "$py" -c 'import json,sys; print(json.load(open(sys.argv[1]))["raw_usgs_earthquakes._dlt_loads"]["rows"])' \
    "$work/$1.json"
}
dump_rest kill-0
DATABOX_FAILPOINT=before-catalog-swap rest_databox run usgs_earthquakes >"$work/kill-before.out" 2>&1 &&
  fail "run usgs_earthquakes was not killed before its commit"
grep -q "failpoint before-catalog-swap" "$work/kill-before.out" ||
  { cat "$work/kill-before.out"; fail "run usgs_earthquakes failed, but not at the failpoint"; }
dump_rest kill-1
"$py" "$here/tables.py" compare "$work/kill-0.json" "$work/kill-1.json" ||
  fail "a load killed before its REST commit changed the tables"
DATABOX_FAILPOINT=after-catalog-swap rest_databox run usgs_earthquakes >"$work/kill-after.out" 2>&1 &&
  fail "run usgs_earthquakes was not killed after its commit"
grep -q "failpoint after-catalog-swap" "$work/kill-after.out" ||
  { cat "$work/kill-after.out"; fail "run usgs_earthquakes failed, but not at the failpoint"; }
dump_rest kill-2
[ "$(loads_rows kill-2)" = "$(($(loads_rows kill-0) + 1))" ] ||
  fail "the load killed after its REST commit did not land whole ($(loads_rows kill-0) -> $(loads_rows kill-2) _dlt_loads rows)"
rest_databox run usgs_earthquakes --resume >"$work/kill-resume.out" 2>&1 ||
  { cat "$work/kill-resume.out"; fail "run --resume after a kill after the REST commit failed"; }
cat "$work/kill-resume.out"
grep -q "was already committed" "$work/kill-resume.out" ||
  fail "run --resume did not recognise the load the kill left committed"
dump_rest kill-3
"$py" "$here/tables.py" compare "$work/kill-2.json" "$work/kill-3.json" ||
  fail "run --resume after a kill after the REST commit changed the tables (a second load?)"

if [ "$server" = seaweedfs ]; then
  # The server trait the prefix is for, detected at run time: a registry without it fails
  # before any commit, naming the setting, and changes nothing.
  step "without underscore_table_prefix SeaweedFS refuses the _dlt_* tables: the run fails naming the setting"
  mkdir -p "$work/unmapped"
  "$py" "$here/make_rest_registry.py" --absolute-paths --sigv4 --uri "$CATALOG_URI" \
    --warehouse "$REST_WAREHOUSE" --location "s3://$S3_BUCKET/warehouse" --endpoint "$S3_ENDPOINT" \
    --region "$S3_REGION" --out "$work/unmapped/databox.toml" || fail "cannot write the unmapped registry"
  grep -q "underscore_table_prefix" "$work/unmapped/databox.toml" && fail "the unmapped registry maps names"
  "$databox" --config "$work/unmapped/databox.toml" run usgs_earthquakes >"$work/unmapped.out" 2>&1 &&
    { cat "$work/unmapped.out"; fail "a run without underscore_table_prefix succeeded against SeaweedFS"; }
  cat "$work/unmapped.out"
  grep -q 'refuses table names that do not start with a letter or digit' "$work/unmapped.out" &&
    grep -q 'set \[project.catalog\] underscore_table_prefix = "dbx"' "$work/unmapped.out" ||
    fail "the refused run did not say which setting maps names starting with '_'"
  dump_rest unmapped
  "$py" "$here/tables.py" compare "$work/kill-3.json" "$work/unmapped.json" ||
    fail "the refused run without underscore_table_prefix changed the tables"

  # DuckDB's iceberg extension (1.5.5) rethrows a failed manifest read from a destructor, which
  # would abort the process: databox must end with one line naming the file and status 1.
  step "a manifest gone from S3: databox query through the attached catalog fails with one line naming it"
  manifest="$("$py" - "$here" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
from tables import rest_catalog, s3_client
table = rest_catalog("databox_lake").load_table(("raw_usgs_earthquakes", "events"))
path = table.current_snapshot().manifests(table.io)[0].manifest_path
bucket, key = path.removeprefix("s3://").split("/", 1)
s3_client().delete_object(Bucket=bucket, Key=key)
print(key.rsplit("/", 1)[-1])
PY
)" || fail "could not delete a manifest of raw_usgs_earthquakes.events"
  rest_databox query "SELECT count(*) FROM polaris_aws.raw_usgs_earthquakes.events" \
    >"$work/broken.out" 2>&1
  r=$?
  cat "$work/broken.out"
  [ "$r" = 1 ] || fail "databox query of a table whose manifest $manifest is gone ended with status $r, not 1"
  grep -q "terminate called" "$work/broken.out" && fail "databox query aborted instead of failing"
  grep -q "^databox: stopped: .*$manifest.*404" "$work/broken.out" ||
    fail "databox query did not name the missing manifest $manifest"
fi

echo "PASS: refresh into REST + S3 against $server ($CATALOG_KIND)"
