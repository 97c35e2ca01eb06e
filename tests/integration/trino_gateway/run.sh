#!/usr/bin/env bash
# End to end: SQLMesh on a Trino gateway ([project.transform] gateway = "trino"). Starts
# PostgreSQL, SeaweedFS S3, the REST catalog server and Trino (catalogs iceberg, polaris_aws and
# databox_analytics over the same REST catalog), all in a private temp folder, stopped by PID on
# exit, pass or fail. A service that does not start FAILS the test.
#   1. `databox refresh` with the Trino gateway: the sources load into REST + S3, then SQLMesh
#      runs every model of examples/databox on Trino (outputs in databox_analytics, SQLMesh's
#      state in a PostgreSQL database), twice (the second run restates from the new data).
#   2. The placeholder views of the tables no load wrote (explicit sources) are gone again; the
#      platform views databox made on Trino (polaris_aws.databox.*) are there.
#   3. `databox transform` with the DuckDB gateway over the same raw tables, and every model's
#      rows compared between the two gateways (compare_models.py).
# usage: run.sh nessie|fallback PATH/TO/databox
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../catalog_server.sh
source "$here/../catalog_server.sh"
catalog_test_begin "${1:-}" "${2:-}" "run.sh nessie|fallback PATH/TO/databox"
catalog_banner "trino_gateway.$server"

step "starting S3 (SeaweedFS) and the $server catalog (with PostgreSQL), then Trino"
catalog_start "$work/start"
catalog_env
catalog_registries
catalog_trino_start --names iceberg,polaris_aws,databox_analytics
catalog_as_owner createdb sqlmesh_state || fail "cannot create the database sqlmesh_state"
pg_url="$(catalog_as_owner sh -c 'echo "postgresql://$PGUSER@$PGHOST:$PGPORT/sqlmesh_state"')"
pg_password="$(catalog_as_owner sh -c 'echo "$PGPASSWORD"')"

# The Trino gateway's registry: the REST registry with its own state folder and the gateway keys.
mkdir -p "$work/trino"
sed -e '/^\[project.transform\]$/a gateway = "trino"\ntrino_uri = "'"$TRINO_URI"'"\nanalytics_catalog = "databox_analytics"\nstate_database_url = "'"$pg_url"'"\nstate_database_password = "${SQLMESH_STATE_PASSWORD}"' \
  "$work/rest/databox.toml" >"$work/trino/databox.toml"
grep -q '^gateway = "trino"$' "$work/trino/databox.toml" || fail "could not write the Trino gateway registry"
export SQLMESH_STATE_PASSWORD="$pg_password"
trino_databox() { "$databox" --config "$work/trino/databox.toml" "$@"; }
duckdb_databox() { "$databox" --config "$work/rest/databox.toml" "$@"; }

step "databox refresh with the Trino gateway (state in PostgreSQL), twice"
for round in 1 2; do
  started=$SECONDS
  trino_databox refresh >"$work/refresh-$round.out" 2>&1 ||
    { cat "$work/refresh-$round.out"; tail -60 "$work"/trino/.databox/transform_runs/*/transform.log
      fail "refresh $round with the Trino gateway failed"; }
  echo "refresh $round: $((SECONDS - started)) s"
done
grep -i "transform" "$work/refresh-2.out" | head -5
log="$(ls -t "$work"/trino/.databox/transform_runs/*/transform.log | head -1)"
grep -q "restate-model" "$log" || fail "the second refresh did not restate the models ($log)"
grep -q "gateway\|trino" "$log" || true

step "placeholders dropped, platform views kept"
"$py" - <<'PY' || fail "the views databox made on Trino are not as expected"
import os, sys, urllib.parse
import trino.dbapi
uri = urllib.parse.urlparse(os.environ["TRINO_URI"])
cur = trino.dbapi.connect(host=uri.hostname, port=uri.port, user="databox").cursor()
cur.execute("SELECT table_schema, table_name FROM polaris_aws.information_schema.views")
views = sorted(f"{s}.{t}" for s, t in cur.fetchall())
# The analytics catalog is the same REST catalog: its analytics.* views show here too.
ours = [v for v in views if v.startswith(("raw_", "databox."))]
print("views of raw_* and databox on polaris_aws:", ours)
if ours != ["databox.platform_loads", "databox.sources"]:
    sys.exit("expected only databox.platform_loads and databox.sources (placeholders dropped)")
if "analytics.platform_health" not in views:
    sys.exit("the models' views are missing: " + ", ".join(views))
cur.execute("SELECT source, status FROM polaris_aws.databox.platform_loads ORDER BY source")
loads = cur.fetchall()
print("platform_loads:", loads)
if not loads or any(status != 0 for _, status in loads):
    sys.exit("platform_loads should list every routine source with status 0")
cur.execute("SELECT count(*) FROM databox_analytics.analytics.dim_species_traits")
print("dim_species_traits (over a placeholder: AVONET never loaded):", cur.fetchall()[0][0], "rows")
PY

step "databox transform with the DuckDB gateway over the same raw tables"
duckdb_databox transform >"$work/transform-duckdb.out" 2>&1 ||
  { cat "$work/transform-duckdb.out"; fail "the DuckDB gateway's transform failed"; }

step "every model: the same rows on both gateways"
"$py" "$here/compare_models.py" "$root/examples/databox/transform/models" \
  "$work/rest/.databox/databox.duckdb" databox_analytics ||
  fail "the gateways computed different rows"

echo "PASS: SQLMesh on the Trino gateway computes what the DuckDB gateway computes ($server)"
