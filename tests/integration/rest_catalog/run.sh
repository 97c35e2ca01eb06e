#!/usr/bin/env bash
# Integration test of catalog::rest::RestCatalog against one real Iceberg REST catalog server:
# `fallback` (Iceberg's reference REST adapter, NOT Apache Polaris) or `nessie` (Project
# Nessie), each over PostgreSQL 15 + SeaweedFS S3, all started here in a private temp folder and
# stopped by PID on exit, pass or fail. The test program runs, the server restarts on the same
# port, and the tests named *AfterRestart* check that nothing was lost.
# A service that does not start is a FAILURE (exit 1), never a skip.
# usage: run.sh fallback|nessie PATH/TO/rest_catalog_integration_test [gtest args...]
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
svc="$root/scripts/services"
server="${1:?usage: run.sh fallback|nessie TEST_BINARY [gtest args]}"
binary="${2:?usage: run.sh fallback|nessie TEST_BINARY [gtest args]}"
shift 2
state="$(mktemp -d)"
chmod o+x "$state"  # PostgreSQL runs as user postgres when we are root
cleanup() { "$svc/stop" --dir "$state" >/dev/null 2>&1 || echo "WARNING: stopping services in $state failed"; rm -rf "$state"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }
# shellcheck source=../catalog_server.sh
source "$here/../catalog_server.sh"
catalog_select "$server"
catalog_banner "rest_catalog.$server"
catalog_start "$state/start"
# The log of the server under test, for failure messages.
log="$state/polaris/server.log"
[ "$server" = nessie ] && log="$state/nessie/server.log"
[ "$server" = seaweedfs ] && log="$state/s3/weed.log"

export DATABOX_SERVICES_STATE="$state" DATABOX_CATALOG_ENV="$catalog_env_file"
"$binary" --gtest_filter='-*AfterRestart*' "$@"
rc=$?
[ $rc -eq 0 ] || fail "rest_catalog_integration_test exited $rc against $server (catalog log: $log)"

echo "--- restarting the $server catalog server on the same port"
catalog_restart "$state/restart-catalog.out"
"$binary" --gtest_filter='*AfterRestart*' "$@"
rc=$?
[ $rc -eq 0 ] || fail "rest_catalog_integration_test (after the restart) exited $rc against $server (catalog log: $log)"
echo "PASS: rest_catalog against $server ($(sed -n 's/^CATALOG_KIND=//p' "$catalog_env_file"))"
