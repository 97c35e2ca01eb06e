#!/usr/bin/env bash
# Starts SeaweedFS (scripts/services/start-s3) in a private state folder, runs the S3 FileIO
# integration tests (argument 1: the test binary) with the random key pair start-s3 gave it (the
# only one it accepts, so it verifies our SigV4 signatures), and stops it by PID on any exit.
# A server that cannot start is a test FAILURE, never a skip.
set -euo pipefail
binary="$1"
shift
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="${DATABOX_VENV_DIR:-$repo/.venv}"
state="$(mktemp -d "${TMPDIR:-/tmp}/databox-s3-it.XXXXXX")"
cleanup() {
  "$repo/scripts/services/stop" --dir "$state" s3 || echo "WARNING: could not stop SeaweedFS (state: $state)" >&2
  rm -rf "$state"
}
trap cleanup EXIT

if ! "$repo/scripts/services/start-s3" --dir "$state" >"$state/start.out" 2>&1; then
  cat "$state/start.out" >&2
  echo "FAILED: the SeaweedFS S3 server could not be started by scripts/services/start-s3 (see" \
    "above); run scripts/setup --services to install it into .deps/seaweedfs" >&2
  exit 1
fi
set -a
source "$state/s3.env"
IT_KEY_ID="$S3_ACCESS_KEY_ID"
IT_SECRET="$S3_SECRET_ACCESS_KEY"
set +a
# Session credentials from SeaweedFS's STS (the role start-s3 sets up), assumed by boto3.
if ! "$venv/bin/python" - >"$state/sts.env" <<'PY'; then
import os
import boto3
sts = boto3.client("sts", endpoint_url=os.environ["S3_ENDPOINT"], region_name=os.environ["S3_REGION"],
                   aws_access_key_id=os.environ["IT_KEY_ID"],
                   aws_secret_access_key=os.environ["IT_SECRET"])
vended = sts.assume_role(RoleArn=os.environ["S3_STS_ROLE_ARN"], RoleSessionName="databox-it",
                         DurationSeconds=3600)["Credentials"]
print(f"IT_STS_KEY_ID={vended['AccessKeyId']}")
print(f"IT_STS_SECRET={vended['SecretAccessKey']}")
print(f"IT_STS_TOKEN={vended['SessionToken']}")
PY
  echo "FAILED: SeaweedFS at $S3_ENDPOINT gave no session credentials for $S3_STS_ROLE_ARN" >&2
  exit 1
fi
set -a
source "$state/sts.env"
set +a
export DATABOX_VENV_DIR="$venv"
"$binary" "$@"
