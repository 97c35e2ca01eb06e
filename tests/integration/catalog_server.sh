# Sourced by the run.sh of the Iceberg REST integration tests (rest_catalog, refresh_rest, trino_interop,
# catalog_backup_rest);
# never run. Starts, restarts and names the catalog server a test runs against, from
# scripts/services, in the state folder $state. Servers ($catalog_server):
#   fallback  Iceberg's reference REST adapter (start-polaris --allow-fallback): NOT Polaris
#   nessie    Project Nessie 0.99.0 (start-nessie), REST at /iceberg, authentication off
#   seaweedfs SeaweedFS's own Iceberg REST catalog (start-s3), every request SigV4-signed
# The first two keep their metadata in the private PostgreSQL (database $catalog_database: the
# FALLBACK `iceberg_fallback`, Nessie `nessie`) and their files on SeaweedFS S3; SeaweedFS keeps
# both in its own store (table bucket `warehouse`).
# The caller defines $svc (scripts/services) and fail(), and $state unless it calls
# catalog_workspace.
# After catalog_start, $catalog_env_file is the server's KEY=VALUE file.

# catalog_test_begin SERVER DATABOX USAGE: the common start of a run.sh that drives `databox`
# against SERVER ($here is the run.sh's folder): sets $root, $svc, $py (the venv's python),
# $server, $databox, fail() and step(), then catalog_workspace and catalog_select. USAGE is
# printed (exit 2) when SERVER or DATABOX is missing.
catalog_test_begin() {
  [ -n "${1:-}" ] && [ -n "${2:-}" ] || { echo "usage: $3" >&2; exit 2; }
  root="$(cd "$here/../../.." && pwd)"
  svc="$root/scripts/services"
  py="${DATABOX_VENV_DIR:-$root/.venv}/bin/python"
  server="$1"
  databox="$2"
  fail() { echo "FAIL: $*"; exit 1; }
  step() { echo "--- [${SECONDS} s] $*"; }  # seconds since the test began: where its time goes
  catalog_workspace
  catalog_select "$server"
}

# catalog_workspace: a private temp folder $work with the services' state folder $state in it;
# on exit the services started there are stopped by PID and the folder is removed.
catalog_workspace() {
  work="$(mktemp -d)"
  state="$work/services"
  mkdir -p "$state"
  chmod o+x "$work"  # PostgreSQL runs as user postgres when we are root
  trap _catalog_workspace_cleanup EXIT
}
_catalog_workspace_cleanup() {
  "$svc/stop" --dir "$state" >/dev/null 2>&1 || echo "WARNING: stopping services in $state failed"
  rm -rf "$work"
}

# catalog_select NAME: checks the server name and sets $catalog_server, $catalog_env_file.
catalog_select() {
  catalog_server="$1"
  case "$catalog_server" in
    fallback) catalog_env_file="$state/polaris.env" catalog_service=polaris
      catalog_database=iceberg_fallback ;;
    nessie) catalog_env_file="$state/nessie.env" catalog_service=nessie catalog_database=nessie ;;
    seaweedfs) catalog_env_file="$state/seaweedfs.env" catalog_service=s3 catalog_database= ;;
    *) fail "unknown catalog server '$catalog_server' (known: fallback, nessie, seaweedfs)" ;;
  esac
}

# catalog_banner TEST: says which server this run tests, and what it does not exercise.
catalog_banner() {
  echo "=================================================================="
  case "$catalog_server" in
    fallback)
      echo " $1: the catalog server is the FALLBACK Iceberg REST"
      echo " reference server over PostgreSQL + SeaweedFS S3. It is NOT Polaris:"
      echo " no OAuth, no management API, no credential vending are exercised." ;;
    nessie)
      echo " $1: the catalog server is Project Nessie 0.99.0 (Iceberg REST"
      echo " at /iceberg, authentication OFF on loopback) over PostgreSQL +"
      echo " SeaweedFS S3. It is NOT Polaris: Nessie issues no OAuth tokens"
      echo " (501) and has no Polaris management API." ;;
    seaweedfs)
      echo " $1: the catalog server is SeaweedFS $("${DATABOX_DEPS_DIR:-$root/.deps}/seaweedfs/bin/weed" version 2>/dev/null | awk '{print $3}')'s Iceberg REST catalog"
      echo " (weed mini, S3 Tables bucket 'warehouse'), every request signed with"
      echo " AWS SigV4 (signing name s3tables). No OAuth, no PostgreSQL." ;;
  esac
  echo "=================================================================="
}

# _catalog_run_start OUT [port]: starts the selected server (REST on `port` when given).
_catalog_run_start() {
  local out="$1" port="${2:-}"
  case "$catalog_server" in
    fallback)
      DATABOX_POLARIS_PORT="${port:-${DATABOX_POLARIS_PORT:-}}" \
        "$svc/start-polaris" --dir "$state" --allow-fallback >"$out" 2>&1 ;;
    nessie)
      DATABOX_NESSIE_PORT="${port:-${DATABOX_NESSIE_PORT:-}}" \
        "$svc/start-nessie" --dir "$state" >"$out" 2>&1 ;;
    seaweedfs)  # the catalog is part of the S3 server: a restart keeps the S3 port too
      local s3_port=
      [ -n "$port" ] && s3_port="$(sed -n 's/^S3_ENDPOINT=http:\/\/127.0.0.1://p' "$state/s3.env")"
      DATABOX_S3_ICEBERG_PORT="$port" DATABOX_S3_PORT="$s3_port" \
        "$svc/start-s3" --dir "$state" >"$out" 2>&1 ;;
  esac
}

# catalog_start OUT_PREFIX: starts SeaweedFS S3, then the server (with PostgreSQL); fails the test
# with the scripts' own messages when one does not start. Output goes to OUT_PREFIX-*.out.
catalog_start() {
  "$svc/start-s3" --dir "$state" >"$1-s3.out" 2>&1 ||
    { cat "$1-s3.out"; fail "the S3 server (SeaweedFS) did not start"; }
  _catalog_run_start "$1-catalog.out" ||
    { cat "$1-catalog.out"; fail "the $catalog_server REST catalog did not start"; }
  grep -q "^CATALOG_KIND=" "$catalog_env_file" || fail "no CATALOG_KIND in $catalog_env_file"
  grep -h " ready on " "$1-catalog.out" || true  # which server, port, start-up time, Java
  if [ "$catalog_server" = fallback ]; then
    grep -q '^CATALOG_FALLBACK=1' "$catalog_env_file" ||
      fail "start-polaris did not start the FALLBACK (this test drives the no-auth fallback)"
  fi
}

# catalog_restart OUT [COMMAND...]: stops the server by PID and starts it again on the same REST
# port; COMMAND (when given) runs while it is stopped and must succeed.
catalog_restart() {
  local uri port out="$1"
  shift
  uri="$(sed -n 's/^CATALOG_URI=//p' "$catalog_env_file")"
  port="${uri#http://127.0.0.1:}" port="${port%%/*}"
  "$svc/stop" --dir "$state" "$catalog_service" >/dev/null || fail "the catalog server did not stop"
  if (($#)); then "$@" || fail "while the catalog server was stopped: $* failed"; fi
  set -- "$out"
  _catalog_run_start "$1" "$port" ||
    { cat "$1"; fail "the $catalog_server REST catalog did not restart"; }
  grep -q "^CATALOG_URI=$uri\$" "$catalog_env_file" || fail "the restarted catalog is not at $uri"
}

# The helpers below also need $root (the repository) and $py (the venv's python) from the caller.

# catalog_env: after catalog_start, exports the server's and S3's KEY=VALUE files, REST_HERE
# (tests/integration/refresh_rest: tables.py) and REST_WAREHOUSE, the warehouse the registry
# names: the FALLBACK ignores it; Nessie and SeaweedFS have the one their start script made.
# SeaweedFS refuses table names starting with '_': its registry maps them with
# underscore_table_prefix = "dbx" (REST_UNDERSCORE_PREFIX, which tables.py reads them back with).
catalog_env() {
  # shellcheck disable=SC1090,SC1091
  set -a; source "$catalog_env_file"; source "$state/s3.env"; set +a
  export REST_HERE="$root/tests/integration/refresh_rest"
  export REST_WAREHOUSE=databox_lake
  case "$catalog_server" in
    nessie) REST_WAREHOUSE="$CATALOG_WAREHOUSE" ;;
    seaweedfs) REST_WAREHOUSE="$CATALOG_WAREHOUSE"; export REST_UNDERSCORE_PREFIX=dbx ;;
  esac
  return 0
}

# catalog_as_owner COMMAND...: runs COMMAND as the PostgreSQL cluster's owner (test setup only).
catalog_as_owner() { (set -a; source "$state/postgres.env"; set +a; "$@"); }

# catalog_registries: writes $work/rest/databox.toml (the REST catalog, warehouse on SeaweedFS S3)
# and $work/embedded/databox.toml (the same sources, embedded) and exports the S3 keys as AWS_*.
catalog_registries() {
  local server_options=()
  [ "$catalog_server" = seaweedfs ] && server_options=(--sigv4 --underscore-table-prefix dbx)
  mkdir -p "$work/rest" "$work/embedded"
  "$py" "$REST_HERE/make_rest_registry.py" --absolute-paths --no-credential "${server_options[@]}" \
    --uri "$CATALOG_URI" \
    --warehouse "$REST_WAREHOUSE" --location "s3://$S3_BUCKET/warehouse" --endpoint "$S3_ENDPOINT" \
    --region "$S3_REGION" --out "$work/rest/databox.toml" || fail "cannot write the REST registry"
  "$py" "$REST_HERE/make_rest_registry.py" --absolute-paths --embedded \
    --out "$work/embedded/databox.toml" || fail "cannot write the embedded registry"
  export AWS_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" AWS_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY"
}

# catalog_locations OUT: every table the REST catalog lists with its metadata location
# (pyiceberg), as JSON in OUT.
catalog_locations() {
  "$py" - "$1" <<'PY'
import json, os, sys
sys.path.insert(0, os.environ["REST_HERE"])
from tables import databox_name, rest_catalog
catalog = rest_catalog("databox_lake")
out = {}
for (ns,) in catalog.list_namespaces():
    for ident in catalog.list_tables(ns):
        out[f"{ns}.{databox_name(ident[-1])}"] = catalog.load_table(ident).metadata_location
json.dump(out, open(sys.argv[1], "w"), indent=1, sort_keys=True)
print(f"pyiceberg lists {len(out)} tables")
PY
}

# catalog_lose_state: drops the server's database while the server is stopped, starts it on an
# empty one and fails unless pyiceberg then finds no raw_* table.
catalog_lose_state() {
  _catalog_drop_database() { catalog_as_owner dropdb "$catalog_database"; }
  catalog_restart "$work/restart-lost.out" _catalog_drop_database
  # shellcheck disable=SC1090
  set -a; source "$catalog_env_file"; set +a
  "$py" "$REST_HERE/tables.py" dump-rest databox_lake "$work/lost.json" >"$work/lost.out" 2>&1 &&
    fail "the REST catalog still has tables after its database was dropped"
  grep -q "the catalog holds no raw_\* table" "$work/lost.out" ||
    { cat "$work/lost.out"; fail "the REST catalog did not come back empty"; }
}

# catalog_merge_on_read REGISTRY...: raw_usgs_earthquakes.events merges with position deletes
# (merge_mode = "merge-on-read") in each registry file.
catalog_merge_on_read() {
  local r
  for r in "$@"; do
    sed -i '/^name = "events"$/{n;s/^records_path = "features"$/&\nmerge_mode = "merge-on-read"/}' "$r"
    grep -q '^merge_mode = "merge-on-read"$' "$r" || fail "could not set merge_mode in $r"
  done
}

# Trino runs as a cluster in the tests: a coordinator that schedules no work on itself and this
# many workers (start-trino --workers), so every Trino query of a test runs on worker nodes.
catalog_trino_workers="${DATABOX_TEST_TRINO_WORKERS:-2}"
# Its nodes compile with C1 only: a test's queries are small and many, so the optimizing compiler
# costs more CPU than it saves (trino_gateway.nessie alone on an idle machine: 239 against 175 CPU
# s, 161 against 136 s). Set DATABOX_TRINO_JAVA_OPTS (even empty) to run them otherwise.
export DATABOX_TRINO_JAVA_OPTS="${DATABOX_TRINO_JAVA_OPTS--XX:TieredStopAtLevel=1}"

# catalog_trino_start [START-TRINO OPTIONS...]: starts Trino over this test's catalog and S3 with
# $catalog_trino_workers workers, exports trino.env, and fails unless system.runtime.nodes has the
# coordinator and every worker active (asked through Trino's own CLI, not start-trino's check).
catalog_trino_start() {
  local started=$SECONDS nodes
  "$svc/start-trino" --dir "$state" --catalog "$catalog_server" --workers "$catalog_trino_workers" \
    "$@" >"$work/start-trino.out" 2>&1 ||
    { cat "$work/start-trino.out"; fail "Trino did not start (logs: $state/trino/server.log, $state/trino/worker-*/server.log)"; }
  grep -h " ready on " "$work/start-trino.out" || true
  echo "Trino started in $((SECONDS - started)) s"
  # shellcheck disable=SC1091
  set -a; source "$state/trino.env"; set +a
  # A worker starved of CPU (the suite runs tests side by side) can miss an announcement and be
  # briefly inactive: ask again for up to a minute before failing.
  local deadline=$((SECONDS + 60))
  while :; do
    nodes="$("$TRINO_JAVA_HOME/bin/java" -jar "$TRINO_CLI_JAR" --server "$TRINO_URI" --user databox \
      --output-format CSV_UNQUOTED --execute "SELECT count_if(coordinator), count_if(NOT coordinator)
        FROM system.runtime.nodes WHERE state = 'active'" 2>"$work/trino-nodes.err")" ||
      { cat "$work/trino-nodes.err"; fail "cannot read system.runtime.nodes from Trino"; }
    [ "$nodes" = "1,$catalog_trino_workers" ] && break
    if ((SECONDS >= deadline)); then
      local log
      for log in "$state"/trino/worker-*/server.log; do
        [ -f "$log" ] && { echo "--- last lines of $log"; tail -n 15 "$log"; }
      done
      fail "Trino's active nodes (coordinators,workers) are '$nodes', not 1,$catalog_trino_workers"
    fi
    sleep 3
  done
  echo "Trino cluster: 1 coordinator + $catalog_trino_workers workers active (system.runtime.nodes)"
}
