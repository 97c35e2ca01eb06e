# Sourced by the run.sh of the Iceberg REST integration tests (rest_catalog, refresh_rest,
# catalog_backup_rest);
# never run. Starts, restarts and names the catalog server a test runs against, from
# scripts/services, in the state folder $state. Servers ($catalog_server):
#   fallback  Iceberg's reference REST adapter (start-polaris --allow-fallback): NOT Polaris
#   nessie    Project Nessie 0.99.0 (start-nessie), REST at /iceberg, authentication off
# Both keep their metadata in the private PostgreSQL (database $catalog_database: the FALLBACK
# `iceberg_fallback`, Nessie `nessie`) and their files on moto S3.
# The caller defines $svc (scripts/services) and fail(), and $state unless it calls
# catalog_workspace.
# After catalog_start, $catalog_env_file is the server's KEY=VALUE file.

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
    *) fail "unknown catalog server '$catalog_server' (known: fallback, nessie)" ;;
  esac
}

# catalog_banner TEST: says which server this run tests, and what it does not exercise.
catalog_banner() {
  echo "=================================================================="
  case "$catalog_server" in
    fallback)
      echo " $1: the catalog server is the FALLBACK Iceberg REST"
      echo " reference server over PostgreSQL + moto S3. It is NOT Polaris:"
      echo " no OAuth, no management API, no credential vending are exercised." ;;
    nessie)
      echo " $1: the catalog server is Project Nessie 0.99.0 (Iceberg REST"
      echo " at /iceberg, authentication OFF on loopback) over PostgreSQL +"
      echo " moto S3 and STS. It is NOT Polaris: Nessie issues no OAuth tokens"
      echo " (501) and has no Polaris management API." ;;
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
  esac
}

# catalog_start OUT_PREFIX: starts moto S3, then the server (with PostgreSQL); fails the test
# with the scripts' own messages when one does not start. Output goes to OUT_PREFIX-*.out.
catalog_start() {
  "$svc/start-s3" --dir "$state" >"$1-s3.out" 2>&1 ||
    { cat "$1-s3.out"; fail "the S3 server (moto) did not start"; }
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
