#!/usr/bin/env bash
# SIGKILL drills: `databox publish` of the example project to a local folder is killed at random
# points (after a random delay, or at a random failpoint hit: publish-after-file,
# publish-after-table, publish-before-pointer, publish-after-pointer; docs/reliability.md). After
# every kill the pointer names a complete version that reads back as its manifest says
# (check_publish.py valid), and the next publish completes. Between drills a new ingest gives
# each publish new files to copy. Meanwhile a consumer reads the current version again and again
# (check_publish.py watch): no read sees a version whose relations differ from its manifest.
# usage: kill_drills.sh PATH/TO/databox [DRILLS]   (default 24 drills)
set -uo pipefail
source "$(dirname "$0")/lib.sh"
drills="${2:-24}"
publish_test_begin "${1:-}" "kill_drills.sh PATH/TO/databox [DRILLS]"
target="$work/published"
db publish --to "$target" >"$work/base.out" 2>&1 || { cat "$work/base.out"; fail "the first publish failed"; }
start=$(date +%s%N)
db publish --to "$target" >/dev/null 2>&1 || fail "a publish failed"
took_ms=$(( ($(date +%s%N) - start) / 1000000 ))
echo "one publish takes ${took_ms} ms; $drills drills"

# A consumer reads the current version again and again while the drills publish (and kill).
cleanup_extra() { [ -n "${watcher:-}" ] && kill "$watcher" 2>/dev/null; }
"$py" "$here/check_publish.py" watch "$target" "$ext_dir" "$work/stop-watch" >"$work/watch.out" 2>&1 &
watcher=$!

points=(publish-after-file publish-after-table publish-before-pointer publish-after-pointer)
killed=0
for i in $(seq 1 "$drills"); do
  printf '{"id": %d, "drill": "d%d"}\n' "$i" "$i" >"$work/in.ndjson"
  db ingest "$work/in.ndjson" --table "raw_drill.t$((i % 3))" >/dev/null 2>&1 || fail "ingest $i failed"
  before=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$target/current.json")
  if (( i % 2 )); then
    point=${points[$((RANDOM % ${#points[@]}))]}
    nth=1  # the pointer points are reached once per publish; the others once per file or table
    case "$point" in publish-after-file | publish-after-table) nth=$(( 1 + RANDOM % 3 )) ;; esac
    how="failpoint $point:$nth"
    DATABOX_FAILPOINT="$point:$nth" db publish --to "$target" >"$work/drill.out" 2>&1
    rc=$?
  else
    delay_ms=$(( RANDOM % (took_ms + 1) ))
    how="SIGKILL after ${delay_ms} ms"
    # databox itself, not a subshell running it, must get the SIGKILL.
    "$databox" --config "$work/project/databox.toml" publish --to "$target" >"$work/drill.out" 2>&1 &
    pid=$!
    sleep "$(printf '%d.%03d' $((delay_ms / 1000)) $((delay_ms % 1000)))"
    kill -KILL "$pid" 2>/dev/null
    wait "$pid" 2>/dev/null  # no "Killed" line from the shell
    rc=$?
  fi
  [ "$rc" = 137 ] && killed=$((killed + 1))
  after=$("$py" -c "import json,sys; print(json.load(open(sys.argv[1]))['version'])" "$target/current.json") ||
    fail "drill $i ($how): the pointer cannot be read"
  [ "$after" = "$before" ] || [ "$after" = "$((before + 1))" ] ||
    fail "drill $i ($how): pointer moved from $before to $after"
  "$py" "$here/check_publish.py" valid "$target" "$ext_dir" >"$work/valid.out" 2>&1 ||
    { cat "$work/valid.out"; fail "drill $i ($how, exit $rc): the current version is not valid"; }
  db publish --to "$target" >"$work/next.out" 2>&1 ||
    { cat "$work/next.out"; fail "drill $i ($how): the publish after the kill failed"; }
  "$py" "$here/check_publish.py" valid "$target" "$ext_dir" >"$work/valid.out" 2>&1 ||
    { cat "$work/valid.out"; fail "drill $i: the version after the kill is not valid"; }
  echo "drill $i: $how -> exit $rc, pointer $before -> $after, next publish ok"
done
[ "$killed" -ge $((drills / 2)) ] || fail "only $killed of $drills publishes were killed"
touch "$work/stop-watch"
wait "$watcher"
watch_rc=$?
cat "$work/watch.out"
[ "$watch_rc" = 0 ] || fail "the consumer reading during the drills saw a mixed version or could not read"
seen="$(sed -n 's/.* of \([0-9]*\) versions .*/\1/p' "$work/watch.out")"
[ "${seen:-0}" -ge 2 ] || fail "the consumer did not read more than one version during the drills"
echo "PASS publish.kill_drills ($killed of $drills publishes killed)"
