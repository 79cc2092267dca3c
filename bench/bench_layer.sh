#!/usr/bin/env bash
# Prints, side by side, the time, input throughput, output size and peak RSS of writing a
# large tree as one OCI layer: dlenv (gzip, zstd) against `umoci insert`, and against
# `tar | pigz` and `tar | zstd` with both digests taken, medians of 3 runs with the page
# cache warm; then checks that rebuilding gives byte-identical blobs.
#   bench/bench_layer.sh BENCH_LAYER_BINARY [DIR] [RUNS]
set -euo pipefail

bench=$(realpath "$1")
dir=$(realpath "${2:-$( [ -d /usr/local/cuda/lib64 ] && echo /usr/local/cuda/lib64 || echo /usr/lib/x86_64-linux-gnu)}")
runs=${3:-3}
threads=$(nproc)
work=$(mktemp -d /tmp/dlenv-bench-layer.XXXXXX)
trap 'rm -rf "$work"' EXIT

input_bytes=$(tar --sort=name -C "$dir" -cf - . | wc -c)
files=$(find "$dir" -type f | wc -l)
tar -C "$dir" -cf - . >/dev/null # warm the page cache
echo "tree: $dir, $files files, tar stream $input_bytes bytes; $threads threads; median of $runs"

# Runs the command `runs` times under /usr/bin/time; prints "seconds rss_kib" of the median
# run (RSS is the largest process of a pipeline, not their sum).
measure() {
  local line times=()
  for ((i = 0; i < runs; i++)); do
    rm -rf "$work/out" && mkdir -p "$work/out"
    line=$(/usr/bin/time -f '%e %M' bash -c "$1" 2>&1 >/dev/null | tail -1)
    times+=("$line")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

row() { # name seconds rss output_bytes
  awk -v n="$1" -v s="$2" -v r="$3" -v o="$4" -v i="$input_bytes" \
    'BEGIN { printf "%-44s %8.2f s %8.0f MB/s %14d B %8.0f MiB\n", n, s, i / s / 1e6, o, r / 1024 }'
}

tar_cmd="tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -C '$dir' -cf - ."
largest_blob() { find "$work/out" -path '*blobs/sha256/*' -type f -printf '%s\n' | sort -n | tail -1; }

printf '%-44s %10s %13s %16s %12s\n' work time input output "peak RSS"
read -r s r <<<"$(measure "'$bench' '$dir' '$work/out/layout' gzip $threads")"
row "dlenv gzip layer (libdeflate)" "$s" "$r" "$(largest_blob)"
read -r s r <<<"$(measure "cd '$work/out' && umoci init --layout l && umoci new --image l:t && umoci insert --image l:t '$dir' /tree")"
row "umoci insert (gzip)" "$s" "$r" "$(largest_blob)"
read -r s r <<<"$(measure "$tar_cmd | tee >(sha256sum >'$work/out/diff_id') | pigz -6 -p $threads -n | tee >(sha256sum >'$work/out/digest') >'$work/out/layer.gz'")"
row "tar | pigz -6 -p $threads -n, both sha256sum" "$s" "$r" "$(stat -c %s "$work/out/layer.gz")"
read -r s r <<<"$(measure "'$bench' '$dir' '$work/out/layout' zstd $threads")"
row "dlenv zstd layer (level 3)" "$s" "$r" "$(largest_blob)"
read -r s r <<<"$(measure "$tar_cmd | tee >(sha256sum >'$work/out/diff_id') | zstd -q -3 -T$threads | tee >(sha256sum >'$work/out/digest') >'$work/out/layer.zst'")"
row "tar | zstd -3 -T$threads, both sha256sum" "$s" "$r" "$(stat -c %s "$work/out/layer.zst")"

for compression in gzip zstd; do
  first=$("$bench" "$dir" "$work/a" "$compression" 1 | cut -d' ' -f4-)
  second=$("$bench" "$dir" "$work/b" "$compression" "$threads" | cut -d' ' -f4-)
  verdict=$([ "$first" = "$second" ] && echo identical || echo DIFFERENT)
  echo "rebuild $compression with 1 and $threads threads: $verdict ($second)"
  rm -rf "$work/a" "$work/b"
done
