#!/usr/bin/env bash
# End to end: `databox catalog backup` and `restore` of a REST catalog server's PostgreSQL
# database (pg_dump / pg_restore from Debian's postgresql-client), against `fallback` (Iceberg's
# reference REST adapter over JDBC, NOT Apache Polaris) or `nessie` (Project Nessie), with
# PostgreSQL 15 and SeaweedFS S3 started here in a private temp folder and stopped by PID on exit.
# Recorded sources are refreshed into the REST catalog; the backup is taken as a separate
# PostgreSQL role whose password only the environment holds; the server's database is dropped
# (the catalog state is lost: the server starts empty); restore is refused over the server's
# fresh tables, then forced; every table is compared with pyiceberg against the state before,
# at the same metadata files; one more refresh then matches an embedded run of the same
# sources (no duplicates) and takes its own backup (backup_after_refresh), while backups are
# taken in a loop; those caught between the refresh's commits restore to a catalog pyiceberg
# reads consistently. Auth failure and a missing pg_dump are checked for their messages and
# that no password is printed. A service that does not start FAILS the test.
# usage: run.sh fallback|nessie PATH/TO/databox
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
# shellcheck source=../catalog_server.sh
source "$here/../catalog_server.sh"
catalog_test_begin "${1:-}" "${2:-}" "run.sh fallback|nessie PATH/TO/databox"
rest_here="$root/tests/integration/refresh_rest"
started=$SECONDS
catalog_banner "catalog_backup_rest.$server"
sources=(--source usgs --source noaa --source usgs_earthquakes)

step "starting S3 (SeaweedFS) and the $server catalog (with PostgreSQL)"
catalog_start "$work/start"
catalog_env
pg_port="$(sed -n 's/^PGPORT=//p' "$state/postgres.env")"

step "a backup role with a password only the environment holds"
backup_secret="bk-$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')"
catalog_as_owner psql -X -q -d postgres -c "CREATE ROLE databox_backup LOGIN SUPERUSER PASSWORD '$backup_secret'" ||
  fail "cannot create the backup role"
export CATALOG_DB_PASSWORD="$backup_secret"
db_url="postgresql://databox_backup@127.0.0.1:$pg_port/$catalog_database"

catalog_registries
sed -i "s|^warehouse = \"$REST_WAREHOUSE\".*|&\nbackup_database_url = \"$db_url\"\nbackup_database_password = \"\${CATALOG_DB_PASSWORD}\"|" \
  "$work/rest/databox.toml"
grep -q "^backup_database_url = \"$db_url\"" "$work/rest/databox.toml" ||
  fail "could not add backup_database_url to the REST registry"
rest() { "$databox" --config "$work/rest/databox.toml" "$@"; }
embedded() { "$databox" --config "$work/embedded/databox.toml" "$@"; }
# Fails unless no file or output under $work holds the backup password.
no_secret() {
  local leaks
  leaks="$(grep -rl --exclude-dir=services -- "$backup_secret" "$work" 2>/dev/null)"
  [ -z "$leaks" ] || fail "the backup password was written to: $leaks"
}

step "first refresh (usgs, noaa, usgs_earthquakes) into REST + S3 and into the embedded reference"
rest refresh --skip-transform "${sources[@]}" >"$work/refresh-1.out" 2>&1 ||
  { cat "$work/refresh-1.out"; fail "the first refresh into the $server catalog failed"; }
embedded refresh --skip-transform "${sources[@]}" >"$work/embedded-1.out" 2>&1 ||
  { cat "$work/embedded-1.out"; fail "the first refresh into the embedded catalog failed"; }
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/before.json" ||
  fail "pyiceberg could not read the REST catalog"
catalog_locations "$work/before-locations.json" || fail "pyiceberg could not list the REST catalog"

step "databox catalog backup (pg_dump of $db_url)"
t0=$SECONDS
rest catalog backup --to "$work/backups" >"$work/backup.out" 2>&1 ||
  { cat "$work/backup.out"; fail "catalog backup failed"; }
cat "$work/backup.out"
backup_seconds=$((SECONDS - t0))
backup="$(ls -d "$work"/backups/catalog-* 2>/dev/null | head -1)"
[ -n "$backup" ] && [ -s "$backup/catalog.pgdump" ] || fail "no catalog.pgdump in the backup folder"
grep -q "pg_dump of $db_url" "$work/backup.out" || fail "the backup did not name the database URL"
# The dump is PostgreSQL's custom format, readable by pg_restore (not our code).
pg_restore --list "$backup/catalog.pgdump" | grep -q " TABLE " || fail "pg_restore cannot list the dump"
"$py" - "$backup/manifest.json" "$work/before-locations.json" "$db_url" <<'PY' ||
import json, os, sys
m = json.load(open(sys.argv[1]))
want = json.load(open(sys.argv[2]))
assert m["kind"] == "rest" and m["catalog_name"] == "databox_lake", m
assert m["database_file"] == "catalog.pgdump" and m["source_database"] == sys.argv[3], m
assert m["taken_at"].endswith("Z"), m
got = {t["table"]: t["metadata_location"] for t in m["tables"]}
assert got == want, f"manifest tables {got} != pyiceberg's {want}"
print(f"manifest.json: {len(got)} tables at the metadata locations pyiceberg lists")
PY
  fail "the backup manifest does not describe the catalog"
no_secret

step "a wrong password: a clear authentication error, no password printed"
CATALOG_DB_PASSWORD="wrong-$backup_secret" rest catalog backup --to "$work/bad" >"$work/auth.out" 2>&1 &&
  fail "catalog backup with a wrong password succeeded"
cat "$work/auth.out"
grep -q "authentication to the catalog database $db_url failed" "$work/auth.out" ||
  fail "no authentication error naming the database URL"
grep -q -- "$backup_secret" "$work/auth.out" && fail "the password was printed"
[ -z "$(ls -A "$work/bad" 2>/dev/null)" ] || fail "a failed backup left a folder behind: $(ls "$work/bad")"
step "pg_dump missing: the message names the package"
PATH=/nonexistent "$databox" --config "$work/rest/databox.toml" catalog backup --to "$work/bad" \
  >"$work/nopg.out" 2>&1 && fail "catalog backup without pg_dump succeeded"
cat "$work/nopg.out"
grep -q "pg_dump is not installed.*postgresql-client" "$work/nopg.out" ||
  fail "no message naming postgresql-client when pg_dump is missing"

step "lose the catalog state: drop the $catalog_database database while the server is stopped"
catalog_lose_state

step "restore over the server's fresh (empty) catalog tables is refused without --force"
rest catalog restore "$backup" >"$work/refused.out" 2>&1 && fail "restore into a non-empty database succeeded"
cat "$work/refused.out"
grep -q "the catalog database $db_url is not empty" "$work/refused.out" ||
  fail "the refusal does not say the database is not empty"
step "restore --force"
t0=$SECONDS
rest catalog restore "$backup" --force >"$work/restore.out" 2>&1 ||
  { cat "$work/restore.out"; fail "catalog restore --force failed"; }
restore_seconds=$((SECONDS - t0))
cat "$work/restore.out"
grep -q "restored the REST catalog's database $db_url" "$work/restore.out" || fail "restore said nothing"
no_secret
# Neither server caches table pointers (the FALLBACK reads JDBC, Nessie reads its references
# from the database; only immutable objects are cached): the restored state is served at once.
grep -q "verified through the REST catalog: it serves all [0-9]* tables" "$work/restore.out" ||
  fail "the $server server does not serve the restored state without a restart"

step "every table as before: pyiceberg rows, columns, keys and the same metadata files"
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/after.json" ||
  fail "pyiceberg could not read the restored REST catalog"
"$py" "$rest_here/tables.py" compare "$work/before.json" "$work/after.json" ||
  fail "restored tables differ from the ones backed up"
catalog_locations "$work/after-locations.json" || fail "pyiceberg could not list the restored catalog"
diff -u "$work/before-locations.json" "$work/after-locations.json" ||
  fail "restored tables point at other metadata files"

step "one more refresh on the restored catalog (backup_after_refresh on): same rows as the embedded run, no duplicates"
sed -i 's|^backup_database_password = .*|&\nbackup_after_refresh = true|' "$work/rest/databox.toml"
# Meanwhile backups are taken in a loop: pg_dump needs nothing stopped.
rest refresh --skip-transform "${sources[@]}" >"$work/refresh-2.out" 2>&1 &
refresh_pid=$!
during=0
while kill -0 "$refresh_pid" 2>/dev/null; do
  rest catalog backup --to "$work/during" >>"$work/during.out" 2>&1 ||
    { cat "$work/during.out"; fail "a backup taken while the refresh committed failed"; }
  during=$((during + 1))
done
wait "$refresh_pid" || { cat "$work/refresh-2.out"; fail "the refresh after the restore failed"; }
echo "$during backups taken while the refresh committed"
[ "$during" -gt 0 ] || fail "no backup was taken while the refresh ran"
grep "catalog backed up into" "$work/refresh-2.out" ||
  { cat "$work/refresh-2.out"; fail "backup_after_refresh took no backup of the REST catalog"; }
auto_backup="$(ls -d "$work"/rest/.databox/catalog-backups/catalog-* 2>/dev/null | head -1)"
[ -n "$auto_backup" ] && [ -s "$auto_backup/catalog.pgdump" ] ||
  fail "no catalog.pgdump in the backup_after_refresh folder"
catalog_locations "$work/refreshed-locations.json" || fail "pyiceberg could not list the refreshed catalog"
"$py" - "$auto_backup/manifest.json" "$work/refreshed-locations.json" <<'PY' ||
import json, sys
m = json.load(open(sys.argv[1]))
got = {t["table"]: t["metadata_location"] for t in m["tables"]}
assert m["kind"] == "rest" and got == json.load(open(sys.argv[2])), got
print(f"backup_after_refresh: {len(got)} tables at the refreshed metadata locations")
PY
  fail "the backup after the refresh does not describe the refreshed catalog"
embedded refresh --skip-transform "${sources[@]}" >"$work/embedded-2.out" 2>&1 ||
  { cat "$work/embedded-2.out"; fail "the second embedded refresh failed"; }
"$py" "$rest_here/tables.py" dump-rest databox_lake "$work/rest-2.json" ||
  fail "pyiceberg could not read the REST catalog after the refresh"
"$py" "$rest_here/tables.py" dump-sql "$work/embedded/.databox/catalog.sqlite" databox_lake \
  "$work/embedded-2.json" || fail "pyiceberg could not read the embedded catalog"
"$py" "$rest_here/tables.py" compare "$work/embedded-2.json" "$work/rest-2.json" ||
  fail "after restore + refresh the REST tables differ from the embedded run"
no_secret

step "restore backups taken while the refresh committed: every table readable and consistent"
# Up to three whose manifests list neither the state before the refresh nor the one after it
# (caught between commits), else the first; each restored and read by pyiceberg.
mids="$("$py" - "$work/after-locations.json" "$work/refreshed-locations.json" "$work"/during/catalog-* <<'PY'
import json, sys
known = [json.load(open(p)) for p in sys.argv[1:3]]
folders = sys.argv[3:]
def locations(folder):
    return {t["table"]: t["metadata_location"] for t in json.load(open(folder + "/manifest.json"))["tables"]}
between = [f for f in folders if locations(f) not in known]
print("\n".join((between[:3] if between else folders[:1])))
PY
)" || fail "cannot read the manifests of the backups taken during the refresh"
for mid in $mids; do
  rest catalog restore "$mid" --force >"$work/restore-mid.out" 2>&1 ||
    { cat "$work/restore-mid.out"; fail "restoring $mid (taken during the refresh) failed"; }
  # tables.py checks every table reads, only status 0 rows, and no load's data after its status.
  "$py" "$rest_here/tables.py" dump-rest databox_lake "$work/mid.json" ||
    fail "$mid (taken during the refresh) restores to an inconsistent catalog"
done
echo "restored $(echo "$mids" | wc -w) of the $during backups taken during the refresh"
no_secret

step "restore the backup from before the second refresh with --roll-forward"
# Where the server puts table folders (its warehouse location, from scripts/services).
tables_under="$CATALOG_WAREHOUSE"
[ "$server" = nessie ] && tables_under="$CATALOG_WAREHOUSE_LOCATION"
t0=$SECONDS
rest catalog restore "$backup" --force --roll-forward --tables-under "$tables_under" \
  >"$work/rolled.out" 2>&1 || { cat "$work/rolled.out"; fail "restore --roll-forward failed"; }
roll_seconds=$((SECONDS - t0))
tail -4 "$work/rolled.out"
catalog_locations "$work/rolled-locations.json" || fail "pyiceberg could not list the rolled-forward catalog"
if [ "$server" = fallback ]; then
  # The reference adapter's metadata files keep a metadata-log, which shows that the second
  # refresh's files descend from the backup's: every table moves to the newest commit.
  diff -u "$work/refreshed-locations.json" "$work/rolled-locations.json" ||
    fail "restore --roll-forward did not bring every table to the newest commit"
  grep -q "rolled forward" "$work/rolled.out" || fail "the report names no table rolled forward"
  "$py" "$rest_here/tables.py" dump-rest databox_lake "$work/rolled.json" ||
    fail "pyiceberg could not read the rolled-forward catalog"
  "$py" "$rest_here/tables.py" compare "$work/rest-2.json" "$work/rolled.json" ||
    fail "rolled-forward tables differ from the ones after the second refresh"
  echo "restore --roll-forward: every table at its newest commit in ${roll_seconds}s"
else
  # Nessie's metadata files keep no metadata-log: nothing shows descent, so every table stays
  # at the backup's file and the report says why.
  diff -u "$work/after-locations.json" "$work/rolled-locations.json" ||
    fail "restore --roll-forward on $server moved a table it cannot know descends"
  grep -q "keeps no metadata-log, like Nessie" "$work/rolled.out" ||
    { cat "$work/rolled.out"; fail "the report does not say why the tables were kept"; }
  echo "restore --roll-forward on $server: every table kept at the backup, with the reason"
fi
no_secret

echo "backup ${backup_seconds}s, restore ${restore_seconds}s, whole test $((SECONDS - started))s"
echo "PASS: catalog backup and restore of the $server REST catalog ($CATALOG_KIND)"
