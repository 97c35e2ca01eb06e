# Shared helpers of the scripts/services/* commands; sourced, never run.
# Every service keeps its state in "$state/<service>/" and writes:
#   <service>.pid   the PID of the server process (stop reads only this)
#   <service>.env   KEY=VALUE lines describing how to reach it (safe to `source`)
# The state folder is --dir DIR, else $DATABOX_SERVICES_DIR, else <repo>/.deps/run.

services_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
services_venv="${DATABOX_VENV_DIR:-$services_root/.venv}"
services_deps="${DATABOX_DEPS_DIR:-$services_root/.deps}"

svc_log() { printf '%s: %s\n' "$svc_name" "$*" >&2; }
svc_die() {
  printf '%s: FAILED: %s\n' "$svc_name" "$*" >&2
  exit 1
}

# Parses the common options and sets $state (absolute, created).
svc_parse_args() {
  state="${DATABOX_SERVICES_DIR:-$services_root/.deps/run}"
  while (($#)); do
    case "$1" in
      --dir) state="${2:?--dir needs a folder}"; shift 2 ;;
      --dir=*) state="${1#--dir=}"; shift ;;
      -h | --help) svc_usage; exit 0 ;;
      *) svc_die "unknown argument '$1' (try --help)" ;;
    esac
  done
  mkdir -p "$state" || svc_die "cannot create state folder $state"
  state="$(cd "$state" && pwd)"
}

# A TCP port on 127.0.0.1 that nothing listens on right now.
svc_free_port() {
  python3 -c 'import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# True when the PID in file $1 names a live process.
svc_pid_alive() {
  local pid
  [ -f "$1" ] || return 1
  pid="$(cat "$1" 2>/dev/null)"
  [[ "$pid" =~ ^[0-9]+$ ]] && kill -0 "$pid" 2>/dev/null
}

# Polls command "$@" every 0.5 s until it succeeds, the process in pid file
# $svc_pidfile dies, or $svc_timeout seconds pass. Returns 0 only on success.
svc_wait_until() {
  local deadline=$((SECONDS + svc_timeout))
  while ((SECONDS < deadline)); do
    "$@" >/dev/null 2>&1 && return 0
    svc_pid_alive "$svc_pidfile" || return 1
    sleep 0.5
  done
  return 1
}

# Why svc_wait_until failed, for messages: "exited" or "did not become ready within Ns".
svc_not_ready() {
  if svc_pid_alive "$svc_pidfile"; then
    echo "did not become ready within ${svc_timeout}s"
  else
    echo "exited during startup"
  fi
}

# Prints the last lines of log $1 to stderr (for failure messages).
svc_tail_log() {
  [ -f "$1" ] || return 0
  printf -- '--- last lines of %s ---\n' "$1" >&2
  tail -n "${2:-30}" "$1" >&2
  printf -- '---\n' >&2
}

# Prints the env file $1 to stdout (what callers parse) after a one-line summary.
svc_report() {
  cat "$1"
}
