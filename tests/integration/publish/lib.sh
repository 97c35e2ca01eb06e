# Shared by run.sh and kill_drills.sh (sourced): paths, fail/step, a private work folder removed
# on exit (after `cleanup_extra`, when the script defines one), and the example project
# refreshed from its recordings with the embedded catalog.
#   publish_test_begin PATH/TO/databox USAGE
# sets: here root databox py ext_dir work state; defines db (databox on the project's registry).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../../.." && pwd)"
py="${DATABOX_VENV_DIR:-$root/.venv}/bin/python"
ext_dir="$root/.deps/duckdb/extensions"
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }
_publish_cleanup() {
  declare -F cleanup_extra >/dev/null && cleanup_extra
  rm -rf "$work"
}
publish_test_begin() {
  databox="$1"
  [ -x "$databox" ] || fail "usage: $2"
  work="$(mktemp -d)"
  trap _publish_cleanup EXIT
  step "the example project, refreshed from its recordings (embedded catalog)"
  mkdir -p "$work/project"
  "$py" "$root/tests/integration/refresh_rest/make_rest_registry.py" --absolute-paths --embedded \
    --out "$work/project/databox.toml" || fail "cannot write the registry"
  state="$work/project/.databox"
  DATABOX_VENV_DIR="${DATABOX_VENV_DIR:-$root/.venv}" db refresh >"$work/refresh.out" 2>&1 ||
    { tail -20 "$work/refresh.out"; fail "databox refresh failed"; }
}
db() { "$databox" --config "$work/project/databox.toml" "$@"; }
