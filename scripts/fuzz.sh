#!/usr/bin/env bash
# Fuzzes dlenv's parsers of outside input with libFuzzer, under ASan and UBSan:
#   scripts/fuzz.sh build                  configure and build build-sanitize/ only
#   scripts/fuzz.sh TARGET|all [SECONDS]   fuzz one target, or each in turn (default 60 s)
# TARGET is a parser with a tests/fuzz/TARGET_fuzz.cpp (profile, lock, layer, wheel, ...).
# build-sanitize/ is clang with -DDLENV_SANITIZE=ON -DDLENV_FUZZ=ON; it also holds the
# sanitized unit tests that `scripts/setup.sh test` runs. Each target starts from its
# seed corpus in tests/fuzz/corpus/TARGET/, which it never writes to; a crashing input
# is kept in build-sanitize/tests/fuzz/artifacts/ and the script exits non-zero.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build-sanitize"
what=${1:-}
seconds=${2:-60}
targets=()
for source in "$root"/tests/fuzz/*_fuzz.cpp; do
  name=$(basename "$source" .cpp)
  targets+=("${name%_fuzz}")
done
if [[ -z "$what" || ( "$what" != build && "$what" != all && ! " ${targets[*]} " =~ " $what " ) ]]; then
  echo "usage: $0 build | all [SECONDS] | TARGET [SECONDS]; targets: ${targets[*]}" >&2
  exit 2
fi

# -O1 with line tables, as OSS-Fuzz builds its targets: what a sanitizer report needs to name
# the line, at half the compile time of -O2 with full debug info.
cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_COMPILER=clang++ \
  -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1 -DNDEBUG" -DDLENV_SANITIZE=ON -DDLENV_FUZZ=ON >/dev/null
if [[ "$what" == build ]]; then
  cmake --build "$build" --parallel "$(nproc)" --target unit_tests dlenv dlenv_fuzz_targets
  exit 0
fi
[[ "$what" == all ]] || targets=("$what")
cmake --build "$build" --parallel "$(nproc)" --target "${targets[@]/%/_fuzz}"

logs="$build/tests/fuzz/logs"
mkdir -p "$logs"
status=0
for target in "${targets[@]}"; do
  log="$logs/$target.log"
  if bash "$root/tests/fuzz/run_target.sh" "$build/tests/fuzz/${target}_fuzz" "$root/tests/fuzz/corpus/$target" \
    "$seconds" "$build/tests/fuzz/artifacts" >"$log" 2>&1; then
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
    echo "$target: clean for ${seconds} s, ${runs:-?} runs"
  else
    echo "$target: FINDING, see $log"
    status=1
  fi
done
exit "$status"
