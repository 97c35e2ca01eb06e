#!/usr/bin/env bash
# Plants paths that leave the repository in a small git repository made for the purpose and
# checks that scripts/check-paths fails naming the file and line of each, and that the paths it
# must accept (relative to another folder of the repository, part of a longer path, marked as
# outside on purpose) pass. (Whether the real tree passes is the test paths.tree.)
# usage: planted_paths.sh CHECK_PATHS
set -uo pipefail
check="${1:?usage: planted_paths.sh CHECK_PATHS}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

# A repository with the folders the plants refer to, inside a parent folder of its own so that
# "beside the checkout" is $work.
repo="$work/repo"
fresh() {
  rm -rf "$repo"
  mkdir -p "$repo/examples/demo" "$repo/fixtures/recordings/usgs" "$repo/docs" "$repo/src/cli"
  echo 'interactions: []' >"$repo/fixtures/recordings/usgs/a.yaml"
  echo '# docs' >"$repo/docs/index.md"
  echo 'int main() {}' >"$repo/src/cli/main.cc"
  git -C "$repo" init -q
}
commit() { git -C "$repo" add -A && git -C "$repo" -c user.name=t -c user.email=t@t commit -qm t; }

# plant FILE TEXT: adds TEXT as the last line of FILE and expects the check to fail naming
# FILE:<that line>.
plant() {
  local file="$1" text="$2" line out
  fresh
  printf '%s\n' "$text" >>"$repo/$file"
  line="$(wc -l <"$repo/$file")"
  commit
  if out="$("$check" "$repo" 2>&1)"; then
    fail "planted '$text' in $file: the check passed"
    return
  fi
  grep -qF "$file:$line: " <<<"$out" ||
    fail "planted '$text' in $file: the message does not name $file:$line:"$'\n'"$out"
}

# accept FILE TEXT: the same line must pass.
accept() {
  local file="$1" text="$2" out
  fresh
  printf '%s\n' "$text" >>"$repo/$file"
  commit
  out="$("$check" "$repo" 2>&1)" || fail "'$text' in $file was refused:"$'\n'"$out"
}

# Three folders up from a file two folders deep: beside the checkout (built here, so this script
# does not itself name a path outside the repository).
up="$(printf '../%.0s' 1 2 3)"
# A registry replaying recordings from a folder beside the checkout.
plant examples/demo/databox.toml "replay = \"${up}shared/fixtures/recordings\""
# A test reading a document beside the checkout.
plant src/cli/main.cc "const char* kDesign = \"${up}shared/DESIGN.md\";"
# A relative path that climbs out and names nothing of the repository.
plant docs/index.md 'See ../../notes/plan.md.'
# An absolute path beside the checkout.
plant docs/index.md "The recordings are in $work/shared/fixtures."
# A new file (not only a changed one) is read too.
plant src/cli/other.cc "const char* kDir = \"${up}elsewhere/data\";"

# Written relative to another folder of the repository (the example's folder), quoted in docs.
accept docs/index.md 'The example replays `../../fixtures/recordings`.'
# The same path in the file it is relative to.
accept examples/demo/databox.toml 'replay = "../../fixtures/recordings"'
# Part of a longer path, relative to something else than the file.
accept src/cli/main.cc 'const char* kRpath = "$ORIGIN/../lib";'
# A path-traversal input of a test, marked.
accept src/cli/main.cc 'const char* kBad = "../../../../etc/passwd";  // outside the repository on purpose'

if ((failures)); then
  echo "$failures planted path check(s) failed"
  exit 1
fi
echo "scripts/check-paths caught every planted path outside the repository and accepted the rest"
