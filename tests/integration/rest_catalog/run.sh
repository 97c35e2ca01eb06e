#!/usr/bin/env bash
# Integration test of catalog::rest::RestCatalog. Needs PostgreSQL 15, moto S3 and the
# FALLBACK Iceberg REST catalog (Iceberg's reference REST adapter, NOT Apache Polaris),
# all started here in a private temp folder and stopped by PID on exit, pass or fail.
# A service that does not start is a FAILURE (exit 1), never a skip.
# usage: run.sh PATH/TO/rest_catalog_integration_test [gtest args...]
set -uo pipefail
root="$(cd "$(dirname "$0")/../../.." && pwd)"
svc="$root/scripts/services"
binary="${1:?usage: run.sh TEST_BINARY [gtest args]}"
shift
state="$(mktemp -d)"
cleanup() { "$svc/stop" --dir "$state" >/dev/null 2>&1 || echo "WARNING: stopping services in $state failed"; rm -rf "$state"; }
trap cleanup EXIT
fail() { echo "FAIL: $*"; exit 1; }

echo "=================================================================="
echo " rest_catalog: the catalog server is the FALLBACK Iceberg REST"
echo " reference server over PostgreSQL + moto S3. It is NOT Polaris:"
echo " no OAuth, no management API, no credential vending are exercised."
echo "=================================================================="
"$svc/start-s3" --dir "$state" >"$state/start-s3.out" 2>&1 || { cat "$state/start-s3.out"; fail "the S3 server (moto) did not start"; }
"$svc/start-polaris" --dir "$state" --allow-fallback >"$state/start-catalog.out" 2>&1 || { cat "$state/start-catalog.out"; fail "the FALLBACK REST catalog did not start"; }
grep -q '^CATALOG_FALLBACK=1' "$state/polaris.env" || echo "NOTE: start-polaris started real Polaris; this test expects the FALLBACK (no auth)"

DATABOX_SERVICES_STATE="$state" "$binary" "$@"
rc=$?
[ $rc -eq 0 ] || fail "rest_catalog_integration_test exited $rc (catalog log: $state/polaris/server.log)"
echo "PASS: rest_catalog against the FALLBACK Iceberg REST catalog (not Polaris)"
