#!/usr/bin/env bash
# Benchmark case (i) of docs/benchmarks.md: `databox publish` of ~SIZE_MB of raw table data to
# SeaweedFS S3 (started here in a private folder, stopped by PID on exit), the first publish and
# an incremental one after one small load, against a floor: boto3 uploading the same data files
# (upload_file, 4 files at once, its default multipart settings). Prints numbers; no limits.
# usage: bench/publish_s3.sh PATH/TO/databox [SIZE_MB]   (default 1024)
set -uo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
databox="${1:?usage: publish_s3.sh PATH/TO/databox [SIZE_MB]}"
size_mb="${2:-1024}"
py="${DATABOX_VENV_DIR:-$root/.venv}/bin/python"
work="$(mktemp -d)"
cleanup() {
  [ -f "$work/svc/s3.pid" ] && "$root/scripts/services/stop" --dir "$work/svc" s3 >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
now() { date +%s.%N; }
secs() { echo "$(now) - $1" | bc; }

"$databox" init "$work/project" >/dev/null || exit 1  # a project of its own; its source is never run
db() { "$databox" --config "$work/project/databox.toml" "$@"; }
rows=$(( size_mb * 1024 * 1024 / 120 ))  # ~120 bytes of incompressible text per row
"$py" - "$work/input.parquet" "$rows" <<'PY' || exit 1
import sys, duckdb
path, rows = sys.argv[1], int(sys.argv[2])
duckdb.sql(f"COPY (SELECT i AS id, md5(i::VARCHAR) || md5((i * 7)::VARCHAR) || md5((i * 13)::VARCHAR) AS payload "
           f"FROM range({rows}) t(i)) TO '{path}' (FORMAT parquet, COMPRESSION zstd)")
PY
t=$(now); db ingest "$work/input.parquet" --table raw_bench.rows >/dev/null || exit 1
echo "ingest of $(du -m "$work/input.parquet" | cut -f1) MB input: $(secs "$t") s"
"$root/scripts/services/start-s3" --dir "$work/svc" >"$work/s3.out" 2>&1 || { cat "$work/s3.out"; exit 1; }
set -a; source "$work/svc/s3.env"; set +a
export DATABOX_S3_ENDPOINT="$S3_ENDPOINT" DATABOX_AWS_ACCESS_KEY_ID="$S3_ACCESS_KEY_ID" \
  DATABOX_AWS_SECRET_ACCESS_KEY="$S3_SECRET_ACCESS_KEY" DATABOX_AWS_REGION="$S3_REGION"
data_mb=$(du -sm "$work/project/.databox/warehouse" | cut -f1)

t=$(now); db publish --to "s3://$S3_BUCKET/published" --only raw_bench >"$work/p1.out" || exit 1
echo "first publish ($data_mb MB of warehouse): $(secs "$t") s; $(grep '^copied' "$work/p1.out")"
printf '{"id": -1, "payload": "one more"}\n' >"$work/more.ndjson"
db ingest "$work/more.ndjson" --table raw_bench.rows >/dev/null || exit 1
t=$(now); db publish --to "s3://$S3_BUCKET/published" --only raw_bench >"$work/p2.out" || exit 1
echo "incremental publish: $(secs "$t") s; $(grep '^copied' "$work/p2.out")"

t=$(now)
"$py" - "$work/project/.databox/warehouse" <<'PY' || exit 1
import os, sys
from concurrent.futures import ThreadPoolExecutor
import boto3
s3 = boto3.client("s3", endpoint_url=os.environ["S3_ENDPOINT"], region_name=os.environ["S3_REGION"],
                  aws_access_key_id=os.environ["S3_ACCESS_KEY_ID"],
                  aws_secret_access_key=os.environ["S3_SECRET_ACCESS_KEY"])
files = [os.path.join(d, f) for d, _, names in os.walk(sys.argv[1]) for f in names if f.endswith(".parquet")]
with ThreadPoolExecutor(4) as pool:
    list(pool.map(lambda p: s3.upload_file(p, os.environ["S3_BUCKET"], "floor/" + os.path.relpath(p, sys.argv[1])), files))
print(f"{len(files)} files", end="; ")
PY
echo "boto3 floor (upload of the same data files): $(secs "$t") s"
