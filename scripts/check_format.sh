#!/usr/bin/env bash
# Fails when a C++ file under src/, tests/ or bench/ differs from what clang-format makes of
# it with the repository's .clang-format. The files are formatted with clang-format 14
# (Debian 12's); another major version formats differently, so it skips (exit 77) rather
# than fail on its own opinions, and so does a machine without clang-format.
#   scripts/check_format.sh          check
#   scripts/check_format.sh --fix    rewrite the files in place
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
wanted=14
format=$(command -v "clang-format-$wanted" || command -v clang-format || true)
if [[ -z "$format" ]]; then
  echo "skipped: clang-format is not installed (apt-get install clang-format)"
  exit 77
fi
version=$("$format" --version | sed -n 's/.*version \([0-9]*\)\..*/\1/p')
if [[ "$version" != "$wanted" ]]; then
  echo "skipped: $format is version $version; the sources are formatted with clang-format $wanted"
  exit 77
fi

mapfile -d '' files < <(find "$root/src" "$root/tests" "$root/bench" -path "$root/tests/fixtures" -prune -o \
  \( -name '*.cpp' -o -name '*.h' \) -type f -print0 | sort -z)
if [[ "${1:-}" == --fix ]]; then
  "$format" -i "${files[@]}"
  exit 0
fi
# One process for every file: it names each unformatted one as "FILE:LINE:COL: error: ...".
if ! report=$("$format" --dry-run -Werror "${files[@]}" 2>&1); then
  mapfile -t unformatted < <(sed -n "s|^$root/\([^:]*\):[0-9]*:[0-9]*: error: code should be clang-formatted.*|\1|p" <<<"$report" | sort -u)
  printf '%s\n' "${#unformatted[@]} file(s) are not formatted:" "${unformatted[@]/#/  }"
  echo "run scripts/check_format.sh --fix"
  exit 1
fi
echo "${#files[@]} files formatted"
