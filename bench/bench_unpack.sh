#!/usr/bin/env bash
# Prints, side by side, the time and throughput of unpacking one multi-GB image into a
# root filesystem: dlenv's unpack (what `dlenv verify` does first) against
# `umoci unpack` of the same image in the same OCI layout, and `tar -x` of the same layer
# blobs in order as the floor (one core decompressing, no digest checks, no whiteouts);
# medians of RUNS with the page cache warm. The image is made by dlenv itself: the
# quickstart base plus every regular file of DIR (default: the CUDA toolkit's lib64)
# pinned by a generated profile.
# dlenv's figure is the unpack_seconds that `dlenv verify --tier static --json` reports
# (the unpack alone, before any check runs); umoci and tar are timed as whole commands.
# The last column is each row's time over dlenv's.
#   bench/bench_unpack.sh DLENV [DIR] [RUNS]
set -euo pipefail

dlenv=$(realpath "$1")
dir=$(realpath "${2:-$(ls -d /usr/local/cuda*/lib64 2>/dev/null | head -1)}")
runs=${3:-3}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/dlenv-bench-unpack.XXXXXX)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

# The image: a profile pinning DIR's files under /opt/tree, locked and built by dlenv.
DLENV=$dlenv bash "$here/../examples/quickstart/run.sh" "$work/store" >/dev/null
ln -s "$dir" "$work/tree" # profile sources are relative to the profile
python3 - "$here/../examples/quickstart/quickstart.json" "$dir" "$work/bench.json" <<'PY'
import json, os, sys
profile = json.load(open(sys.argv[1]))
profile["name"] = "bench"
files = []
for root, _, names in os.walk(sys.argv[2]):
    for name in sorted(names):
        path = os.path.join(root, name)
        if os.path.isfile(path) and not os.path.islink(path):
            relative = os.path.relpath(path, sys.argv[2])
            files.append({"source": "tree/" + relative, "target": "/opt/tree/" + relative, "mode": "0644"})
profile["files"] = sorted(files, key=lambda f: f["target"])
json.dump(profile, open(sys.argv[3], "w"), indent=2)
PY
"$dlenv" lock "$work/bench.json" -o "$work/bench.lock.json" --offline >/dev/null
"$dlenv" build "$work/bench.lock.json" --store "$work/store" --base "docker-archive:$work/quickstart-base.tar" >/dev/null
# The image's layer blobs in manifest order, for the tar floor.
blobs=$(python3 - "$work/store" <<'PY'
import json, os, sys
store = sys.argv[1]
blob = lambda d: os.path.join(store, "blobs", *d.split(":"))
index = json.load(open(os.path.join(store, "index.json")))
ref = next(m for m in index["manifests"] if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == "bench:latest")
print(" ".join(blob(l["digest"]) for l in json.load(open(blob(ref["digest"])))["layers"]))
PY
)
layers=$(du -cb $blobs | tail -1 | cut -f1)
tree_bytes=$(du -sb "$dir" | cut -f1)
cat "$work"/store/blobs/sha256/* >/dev/null # warm the page cache
echo "image: $(find "$dir" -type f | wc -l) files of $dir, $tree_bytes bytes unpacked, $layers bytes of layers; median of $runs"

# Runs the command `runs` times; prints the median wall-clock seconds.
measure() {
  local times=()
  for ((i = 0; i < runs; i++)); do
    chmod -R u+w "$work/out" 2>/dev/null || true
    rm -rf "$work/out"
    mkdir -p "$work/out"
    sync
    times+=("$(/usr/bin/time -f '%e' bash -c "$1" 2>&1 >/dev/null | tail -1)")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

row() { # name seconds
  awk -v n="$1" -v s="$2" -v l="$layers" -v t="$tree_bytes" -v d="${dlenv_seconds:-$2}" \
    'BEGIN { printf "%-32s %8.2f s %8.0f MB/s of layers %8.0f MB/s unpacked %6.2fx\n", n, s, l / s / 1e6, t / s / 1e6, s / d }'
}

dlenv_unpack() {
  local times=()
  for ((i = 0; i < runs; i++)); do
    times+=("$("$dlenv" verify bench --store "$work/store" --tier static --json |
      python3 -c 'import json,sys; print(next(f["value"] for f in json.load(sys.stdin)["tiers"][0]["figures"] if f["name"]=="unpack_seconds"))')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

dlenv_seconds=$(dlenv_unpack)
row "dlenv unpack (in dlenv verify)" "$dlenv_seconds"
rootless=$([ "$(id -u)" = 0 ] || echo --rootless)
row "umoci unpack $rootless" "$(measure "umoci unpack $rootless --image '$work/store:bench:latest' '$work/out/bundle'")"
row "floor: tar -x of each layer" "$(measure "for b in $blobs; do tar -xf \$b -C '$work/out'; done")"
