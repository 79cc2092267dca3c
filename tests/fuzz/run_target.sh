#!/usr/bin/env bash
# Runs one libFuzzer target over its seed corpus, then fuzzes it:
#   run_target.sh BINARY CORPUS SECONDS ARTIFACTS
# SECONDS 0 only runs the corpus. New inputs go to a scratch directory, never into
# CORPUS; a crashing input is kept as ARTIFACTS/<target>-crash-<sha1>, and the exit
# status is libFuzzer's (non-zero on any finding).
set -euo pipefail

binary=$1 corpus=$2 seconds=$3 artifacts=$4
name=$(basename "$binary")
mkdir -p "$artifacts"
# The targets unpack into temporary directories on every run: memory is much faster
# than a disk that fsyncs.
if [[ -d /dev/shm && -w /dev/shm ]]; then
  export TMPDIR=/dev/shm
fi
export UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1}

# DLENV_FUZZ_SEED fixes libFuzzer's seed (ctest sets 1, so that a failure there is a
# regression rather than luck); 0, the default, picks one and prints it.
options=(-artifact_prefix="$artifacts/$name-" -timeout=60 -rss_limit_mb=4096 -seed="${DLENV_FUZZ_SEED:-0}")
if [[ "$seconds" == 0 ]]; then
  exec "$binary" "${options[@]}" -runs=0 "$corpus"
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
"$binary" "${options[@]}" -max_total_time="$seconds" -print_final_stats=1 "$scratch" "$corpus"
