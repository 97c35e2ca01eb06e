#!/usr/bin/env bash
# Integration smoke test. Needs: PostgreSQL 15, SeaweedFS S3, and Apache Polaris (or,
# with --allow-fallback, the FALLBACK Iceberg REST catalog, announced as such).
# Starts all three in a private temp folder, writes a table with pyiceberg through
# the catalog onto S3, restarts the catalog, reads the table back, stops everything.
# Exits 77 (ctest: skipped) when Polaris is asked for and is not built; any other
# failure exits 1 with the reason.
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
svc="$root/scripts/services"
py="${DATABOX_VENV_DIR:-$root/.venv}/bin/python"
allow=()
if [ "${1:-}" = --allow-fallback ]; then
  allow=(--allow-fallback)
elif [ ! -f "$root/.deps/polaris/target/quarkus-app/quarkus-run.jar" ]; then
  echo "SKIPPED: Apache Polaris is not built (.deps/polaris); see docs/services.md. The FALLBACK catalog is tested by services_smoke.fallback_catalog"
  exit 77
fi
state="$(mktemp -d)"
cleanup() { "$svc/stop" --dir "$state" || true; rm -rf "$state"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

"$svc/start-s3" --dir "$state" >/dev/null || fail "S3 server (SeaweedFS) did not start"
"$svc/start-polaris" --dir "$state" "${allow[@]}" >/dev/null || fail "catalog did not start"
"$py" "$(dirname "$0")/roundtrip.py" "$state" write || fail "write through the catalog"
"$svc/stop" --dir "$state" polaris || fail "catalog did not stop"
"$svc/start-polaris" --dir "$state" "${allow[@]}" >/dev/null || fail "catalog did not restart"
"$py" "$(dirname "$0")/roundtrip.py" "$state" read || fail "read after a catalog restart"
echo "PASS: services smoke round trip"
