#!/usr/bin/env bash
# Plants one layering violation at a time in a copy of src/ and checks that
# scripts/check-layering fails naming the file and line, that a test file may include what it
# likes, and that a folder outside every module is reported; plants names of specific source kinds
# in generic modules and checks that each fails naming the file and line, while the kind's own
# folder, the generic kind in source and test files may name them; then plants drifts of the module
# table in a copy of docs/architecture.md and checks that each fails naming the row. (Whether the
# real tree and document pass is the test layering.tree.)
# usage: planted_violations.sh CHECK_LAYERING SRC_DIR ARCHITECTURE_MD
set -uo pipefail
usage="usage: planted_violations.sh CHECK_LAYERING SRC_DIR ARCHITECTURE_MD"
check="${1:?$usage}"
src="${2:?$usage}"
doc="${3:?$usage}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
failures=0
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }

copy() { rm -rf "$work/src" && cp -r "$src" "$work/src"; }

# plant FILE LINE_TEXT EXPECTED: appends an include to FILE (relative to src/) and expects the
# check to fail with a line naming FILE:<its line number> and EXPECTED.
plant() {
  local file="$1" text="$2" expected="$3" line out
  copy
  printf '%s\n' "$text" >>"$work/src/$file"
  line="$(wc -l <"$work/src/$file")"
  if out="$("$check" "$work/src" 2>&1)"; then
    fail "planted '$text' in $file: the check passed"
    return
  fi
  if ! grep -qF "$work/src/$file:$line: $expected" <<<"$out"; then
    fail "planted '$text' in $file: the message does not name $file:$line and '$expected':"$'\n'"$out"
  fi
}

# A model including an implementation (the cycle the catalog interface move removed).
plant iceberg/commit/commit.cc '#include "catalog/sql/sql_catalog.h"' \
  'module iceberg may not include "catalog/sql/sql_catalog.h"'
# A driver reading the registry.
plant fileio/s3/s3_file_io.cc '#include "registry/model.h"' \
  'module fileio/s3 may not include "registry/model.h"'
plant catalog/rest/rest_catalog.cc '#include "registry/model.h"' \
  'module catalog/rest may not include "registry/model.h"'
# The loader naming a concrete driver.
plant load/source_load.cc '#include "fileio/s3/s3_file_io.h"' \
  'module load may not include "fileio/s3/s3_file_io.h"'
# A low module including a high one.
plant common/error.cc '#include "cli/cli.h"' 'module common may not include "cli/cli.h"'
# Spacing variants of the directive are still includes.
plant duck/database.cc '#  include   "load/workspace.h"' 'module duck may not include "load/workspace.h"'

# Generic code naming a specific source kind (any case), or switching on kinds above source.
plant load/source_load.cc '// the USFWS image search' "module load names source kind word 'usfws'"
plant refresh/refresh.cc 'constexpr bool kAvonet = true;' "module refresh names source kind word 'avonet'"
plant source/source.h '// kind = targeted needs targets' "module source names source kind word 'targeted'"
plant cli/cmd_load.cc 'auto kind = registry::SourceKind::kRestJson;' \
  "module cli names source kind word 'SourceKind::'"
# A kind in its own folder, the generic kind in source, and test files may name kinds.
copy
echo '// usfws: kind targeted' >>"$work/src/sources/usfws/usfws_kind.cc"
echo 'auto kind = registry::SourceKind::kRestJson;' >>"$work/src/source/rest_json_kind.cc"
echo '// the avonet workbook' >>"$work/src/load/source_load_test.cc"
if ! out="$("$check" "$work/src" 2>&1)"; then
  fail "a kind's own folder, the generic kind in source or a test file was refused: $out"
fi

# A test file may include what its program links.
copy
echo '#include "catalog/sql/sql_catalog.h"' >"$work/src/iceberg/planted_test.cc"
out="$("$check" "$work/src" 2>&1)"
if grep -q "planted_test.cc" <<<"$out"; then
  fail "a *_test.cc file was checked like product code: $out"
fi

# A folder that is in no module is reported, not ignored.
copy
mkdir -p "$work/src/newmodule" && echo '#include "common/error.h"' >"$work/src/newmodule/x.cc"
if out="$("$check" "$work/src" 2>&1)" || ! grep -q "newmodule/x.cc: is in no module" <<<"$out"; then
  fail "a file outside every listed module was not reported: $out"
fi

# drift SED_SCRIPT EXPECTED: edits a copy of the document with SED_SCRIPT and expects the check
# (on the unchanged tree) to fail with a line naming EXPECTED.
drift() {
  local edit="$1" expected="$2" out
  sed "$edit" "$doc" >"$work/architecture.md"
  if cmp -s "$doc" "$work/architecture.md"; then
    fail "drift '$edit' changed nothing in the document: the test is stale"
    return
  fi
  if out="$("$check" "$src" "$work/architecture.md" 2>&1)"; then
    fail "drift '$edit': the check passed"
    return
  fi
  grep -qF "$expected" <<<"$out" ||
    fail "drift '$edit': the message does not say '$expected':"$'\n'"$out"
}
platform_line="$(grep -n '^| `platform` |' "$doc" | cut -d: -f1)"
# The composition root allowed one module more in the document than in the script.
drift '/^| `platform` |/s/ | load, / | normalize, load, /' \
  "architecture.md:$platform_line: the table lets module platform include:"
# A module allowed one module less in the document.
drift '/^| `report` |/s/, registry, common |$/, common |/' 'the table lets module report include:'
# A row lost, and a row for a module the script does not know.
drift '/^| `trino` |/d' 'the module table has no row for module trino'
drift 's/^| `normalize` |/| `normalise` |/' 'module normalise is not in scripts/check-layering'"'"'s table'
# No table at all.
drift 's/^| module | owns | may include |$/| module | what it owns | may include |/' 'has no table'

if [ "$failures" -gt 0 ]; then
  echo "planted_violations: $failures check(s) failed"
  exit 1
fi
echo "planted_violations: every planted violation was caught with its file and line, and every" \
  "drift of the module table with its row"
