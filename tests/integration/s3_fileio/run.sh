#!/usr/bin/env bash
# Starts moto (scripts/services/start-s3) in a private state folder, turns on its request
# authentication (auth_setup.py) so it verifies our SigV4 signatures, runs the S3 FileIO
# integration tests (argument 1: the test binary), and stops moto by PID on any exit.
# A moto that cannot start is a test FAILURE, never a skip.
set -euo pipefail
binary="$1"
shift
repo="$(cd "$(dirname "$0")/../../.." && pwd)"
venv="${DATABOX_VENV_DIR:-$repo/.venv}"
state="$(mktemp -d "${TMPDIR:-/tmp}/databox-s3-it.XXXXXX")"
cleanup() {
  "$repo/scripts/services/stop" --dir "$state" s3 || echo "WARNING: could not stop moto (state: $state)" >&2
  rm -rf "$state"
}
trap cleanup EXIT

if ! "$repo/scripts/services/start-s3" --dir "$state" >"$state/start.out" 2>&1; then
  cat "$state/start.out" >&2
  echo "FAILED: the moto S3 server could not be started by scripts/services/start-s3 (see above);" \
    "run scripts/setup to install moto[server] into $venv" >&2
  exit 1
fi
set -a
source "$state/s3.env"
set +a
if ! "$venv/bin/python" "$(dirname "$0")/auth_setup.py" "$S3_ENDPOINT" "$S3_REGION" >"$state/auth.env"; then
  echo "FAILED: could not enable request authentication in moto at $S3_ENDPOINT" >&2
  exit 1
fi
set -a
source "$state/auth.env"
set +a
export DATABOX_VENV_DIR="$venv"
"$binary" "$@"
