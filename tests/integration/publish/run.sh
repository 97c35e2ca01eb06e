#!/usr/bin/env bash
# End to end: `databox publish` of the example project (examples/databox, recorded sources,
# embedded catalog) to a local folder or to SeaweedFS S3 (started here in a private folder and
# stopped by PID on exit, pass or fail; a server that does not start FAILS the test). Every
# published relation is read back by DuckDB and pyiceberg and compared with the authoritative
# tables (check_publish.py); a second publish after one more load copies only the new files;
# bad targets are refused and left untouched.
# usage: run.sh local|s3 PATH/TO/databox
set -uo pipefail
source "$(dirname "$0")/lib.sh"
mode="${1:-}"
case "$mode" in local | s3) ;; *) fail "usage: run.sh local|s3 PATH/TO/databox" ;; esac
cleanup_extra() {
  [ -f "$work/svc/s3.pid" ] && "$root/scripts/services/stop" --dir "$work/svc" s3 >/dev/null 2>&1
}
publish_test_begin "${2:-}" "run.sh local|s3 PATH/TO/databox"

if [ "$mode" = s3 ]; then
  step "starting SeaweedFS S3"
  "$root/scripts/services/start-s3" --dir "$work/svc" >"$work/s3.out" 2>&1 ||
    { cat "$work/s3.out"; fail "the S3 server did not start"; }
  set -a; source "$work/svc/s3.env"; set +a
  export DATABOX_S3_ENDPOINT="$S3_ENDPOINT" DATABOX_AWS_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" \
    DATABOX_AWS_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" DATABOX_AWS_REGION="$S3_REGION"
  target="s3://$S3_BUCKET/published"
else
  target="$work/published"
fi

step "publish --dry-run writes nothing"
db publish --to "$target" --dry-run >"$work/dry.out" 2>&1 || { cat "$work/dry.out"; fail "dry run failed"; }
grep -q "^would copy [1-9][0-9]* files" "$work/dry.out" || { cat "$work/dry.out"; fail "the dry run lists no files to copy"; }
"$py" "$here/check_publish.py" valid "$target" "$ext_dir" >/dev/null 2>&1 &&
  fail "a dry run left a current version at $target"

step "first publish to $target"
start=$(date +%s.%N)
db publish --to "$target" >"$work/p1.out" 2>&1 || { cat "$work/p1.out"; fail "publish failed"; }
echo "first publish: $(echo "$(date +%s.%N) - $start" | bc) s"
grep -q "version 1 is current" "$work/p1.out" || { cat "$work/p1.out"; fail "version 1 is not current"; }

step "every relation read by DuckDB and pyiceberg equals the authoritative one; no private path"
"$py" "$here/check_publish.py" verify "$target" "$state" "$ext_dir" || fail "the published version differs"

step "the run history records the publish"
db runs --limit 1 >"$work/runs.out" 2>&1
grep -q "publish" "$work/runs.out" || { cat "$work/runs.out"; fail "no publish run in the history"; }

step "more loads (one leaving a merge-on-read delete file), then a second publish copies only the new files"
printf '{"id": 1, "name": "wren"}\n{"id": 2, "name": "owl"}\n' >"$work/extra.ndjson"
db ingest "$work/extra.ndjson" --table raw_extra.birds --write-disposition merge --primary-key id \
  >"$work/ingest.out" 2>&1 || { cat "$work/ingest.out"; fail "ingest failed"; }
# Another engine (pyiceberg) sets merge-on-read, so the next merge writes a position delete file.
"$py" - "$state" <<'PY' || fail "cannot set write.merge.mode with pyiceberg"
import os, sys
from pyiceberg.catalog.sql import SqlCatalog
state = sys.argv[1]
catalog = SqlCatalog("databox_lake", uri=f"sqlite:///{state}/catalog.sqlite", warehouse=f"file://{state}/warehouse")
with catalog.load_table("raw_extra.birds").transaction() as tx:
    tx.set_properties({"write.merge.mode": "merge-on-read"})
PY
printf '{"id": 2, "name": "barn owl"}\n{"id": 3, "name": "kite"}\n' >"$work/extra2.ndjson"
db ingest "$work/extra2.ndjson" --table raw_extra.birds --write-disposition merge --primary-key id \
  >"$work/ingest2.out" 2>&1 || { cat "$work/ingest2.out"; fail "second ingest failed"; }
db inspect raw_extra.birds --json >"$work/inspect.json" 2>&1 || fail "inspect failed"
"$py" -c "import json,sys; n=json.load(open(sys.argv[1]))['sizes']['delete_files']; sys.exit(0 if n > 0 else 1)" \
  "$work/inspect.json" || fail "the merge left no delete file to publish"
"$py" "$here/check_publish.py" files "$target" 1 | sort -u >"$work/files1"
db publish --to "$target" --dry-run >"$work/dry2.out" 2>&1 || fail "second dry run failed"
db publish --to "$target" >"$work/p2.out" 2>&1 || { cat "$work/p2.out"; fail "second publish failed"; }
"$py" "$here/check_publish.py" files "$target" 2 | sort -u >"$work/files2"
new=$(comm -13 "$work/files1" "$work/files2" | wc -l)
[ "$new" -gt 0 ] || fail "version 2 names no new file"
grep -q "^copied $new files" "$work/p2.out" || { cat "$work/p2.out"; fail "expected exactly $new files copied"; }
grep -q "^would copy $new files" "$work/dry2.out" || { cat "$work/dry2.out"; fail "the dry run did not list exactly the $new new files"; }
"$py" "$here/check_publish.py" verify "$target" "$state" "$ext_dir" || fail "version 2 differs"

step "a publish with nothing new copies nothing"
db publish --to "$target" >"$work/p3.out" 2>&1 || { cat "$work/p3.out"; fail "third publish failed"; }
grep -q "^copied 0 files" "$work/p3.out" || { cat "$work/p3.out"; fail "the third publish copied files"; }

step "bad targets are refused and change nothing"
refused() {  # refused EXPECTED_TEXT ARGS...: exit 2 and the text on stderr
  local want="$1"; shift
  db publish "$@" >"$work/bad.out" 2>&1
  local rc=$?
  [ "$rc" = 2 ] || { cat "$work/bad.out"; fail "publish $* exited $rc, not 2"; }
  grep -qi -- "$want" "$work/bad.out" || { cat "$work/bad.out"; fail "publish $*: no '$want' in the message"; }
}
if [ "$mode" = s3 ]; then
  refused "bucket does not exist" --to "s3://no-such-bucket-$RANDOM/x"
  DATABOX_AWS_SECRET_ACCESS_KEY=wrong-secret refused "publish target" --to "$target"
  DATABOX_S3_ENDPOINT=http://127.0.0.1:9 refused "publish target" --to "$target"
  PYTHONPATH="$root/tests/integration/refresh_rest" "$py" -c "
import os, tables
tables.s3_client().put_object(Bucket=os.environ['S3_BUCKET'], Key='foreign/notes.txt', Body=b'mine')" ||
    fail "cannot put a foreign object into the publish bucket"
  refused "did not write it" --to "s3://$S3_BUCKET/foreign"
  grep -q "wrong-secret" "$work/bad.out" && fail "a secret was printed"
else
  mkdir -p "$work/foreign" && echo mine >"$work/foreign/notes.txt"
  refused "did not write it" --to "$work/foreign"
  [ "$(ls -A "$work/foreign")" = "notes.txt" ] || fail "the foreign folder was changed"
fi
refused "nothing to publish is named" --to "$target" --only raw_nope.table
"$py" "$here/check_publish.py" valid "$target" "$ext_dir" || fail "the target is no longer valid"
echo "PASS publish.$mode"
