#!/usr/bin/env bash
# A short libFuzzer run of one target, as a ctest test (label "fuzz"):
#   run_fuzz.sh <fuzzer binary> <work dir> <seconds> <seed file or folder>...
# Seeds are copied into <work dir>/seeds (libFuzzer reads corpora only from folders); inputs
# that add coverage are kept in <work dir>/corpus across runs. A crash, leak, UBSan report,
# timeout (10 s per input) or out-of-memory ends the run with a non-zero exit and leaves the
# input as <work dir>/crash-*, leak-*, timeout-* or oom-*; reproduce with
# `<fuzzer binary> <that file>`.
set -euo pipefail
fuzzer="$1" work="$2" seconds="$3"
shift 3
[ -x "$fuzzer" ] || { echo "run_fuzz: no fuzzer binary $fuzzer (build the target first)" >&2; exit 2; }
rm -rf "$work/seeds"
mkdir -p "$work/seeds" "$work/corpus"
for seed in "$@"; do
  if [ -d "$seed" ]; then
    find "$seed" -type f -exec cp -t "$work/seeds" {} +
  elif [ -f "$seed" ]; then
    cp "$seed" "$work/seeds/"
  else
    echo "run_fuzz: no such seed $seed" >&2; exit 2
  fi
done
echo "run_fuzz: $(basename "$fuzzer") for ${seconds}s, $(ls "$work/seeds" | wc -l) seeds," \
  "$(ls "$work/corpus" | wc -l) inputs kept from earlier runs; load average $(cut -d' ' -f1-3 /proc/loadavg)"
# The environment's ASAN_OPTIONS/UBSAN_OPTIONS are kept; libFuzzer turns leak detection on itself.
# clang's runtimes print file:line only through llvm-symbolizer (package llvm-19).
if [ -z "${ASAN_SYMBOLIZER_PATH:-}" ] && [ -x /usr/lib/llvm-19/bin/llvm-symbolizer ]; then
  export ASAN_SYMBOLIZER_PATH=/usr/lib/llvm-19/bin/llvm-symbolizer
fi
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
  -print_final_stats=1 -artifact_prefix="$work/" "$work/corpus" "$work/seeds"
