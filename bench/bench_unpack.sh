#!/usr/bin/env bash
# Prints, side by side, the time and throughput of unpacking one multi-GB image into a
# root filesystem: dlenv's unpack (what `dlenv verify` does first) against
# `umoci unpack` of the same image in the same OCI layout, and `tar -x` of the same layer
# blobs in order as the floor (one core decompressing, no digest checks, no whiteouts);
# medians of RUNS with the page cache warm. Two images hold every regular file of DIR
# (default: the CUDA toolkit's lib64) over the quickstart base:
# - dlenv's own, the files pinned by a generated profile, in dlenv's 1 MiB gzip members;
# - a foreign one, the files in one layer made by `tar | gzip` (a single gzip member, as
#   `docker push` and NVIDIA's images have), below a layer that dlenv build adds.
# dlenv's figure is the unpack_seconds that `dlenv verify --tier static --json` reports
# (the unpack alone, before any check runs); umoci and tar are timed as whole commands.
# The last column is each row's time over dlenv's for the same image.
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
"$dlenv" lock "$work/bench.json" -o "$work/bench.lock.json" --offline --files-root "$dir" >/dev/null
"$dlenv" build "$work/bench.lock.json" --store "$work/store" --base "docker-archive:$work/quickstart-base.tar" >/dev/null
# The layer blobs of NAME:latest in manifest order, for the tar floor.
blobs_of() { # blobs_of NAME
  python3 - "$work/store" "$1" <<'PY'
import json, os, sys
store, name = sys.argv[1:]
blob = lambda d: os.path.join(store, "blobs", *d.split(":"))
index = json.load(open(os.path.join(store, "index.json")))
ref = next(m for m in index["manifests"] if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == name + ":latest")
print(" ".join(blob(l["digest"]) for l in json.load(open(blob(ref["digest"])))["layers"]))
PY
}

# The foreign image: the quickstart base, then DIR's files under /opt/tree in one layer of
# `tar | gzip`, as an OCI layout that `dlenv build --base oci:` starts from.
skopeo copy --quiet "docker-archive:$work/quickstart-base.tar" "oci:$work/foreign:base" >/dev/null
tar --sort=name --owner=0 --group=0 --numeric-owner --transform 's,^\.,opt/tree,' -C "$dir" -cf - . >"$work/tree.tar"
gzip -6 -n -c "$work/tree.tar" >"$work/tree.tar.gz"
python3 - "$work/foreign" "$work/tree.tar" "$work/tree.tar.gz" <<'PY'
import hashlib, json, os, sys
layout, tar, gz = sys.argv[1:]
def path(digest): return os.path.join(layout, "blobs", *digest.split(":"))
def put(data):
    digest = "sha256:" + hashlib.sha256(data).hexdigest()
    open(path(digest), "wb").write(data)
    return digest, len(data)
def sha256_file(name):
    h = hashlib.sha256()
    with open(name, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return "sha256:" + h.hexdigest()
index = json.load(open(os.path.join(layout, "index.json")))
manifest = json.load(open(path(index["manifests"][0]["digest"])))
config = json.load(open(path(manifest["config"]["digest"])))
layer = sha256_file(gz)
os.replace(gz, path(layer))
manifest["layers"].append({"mediaType": "application/vnd.oci.image.layer.v1.tar+gzip", "digest": layer,
                           "size": os.path.getsize(path(layer))})
config["rootfs"]["diff_ids"].append(sha256_file(tar))
manifest["config"]["digest"], manifest["config"]["size"] = put(json.dumps(config).encode())
digest, size = put(json.dumps(manifest).encode())
index["manifests"] = [{"mediaType": manifest["mediaType"], "digest": digest, "size": size,
                       "annotations": {"org.opencontainers.image.ref.name": "foreign"}}]
json.dump(index, open(os.path.join(layout, "index.json"), "w"))
PY
rm "$work/tree.tar"
python3 - "$here/../examples/quickstart/quickstart.json" "$work/foreign.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
profile["name"] = "foreign"
json.dump(profile, open(sys.argv[2], "w"), indent=2)
PY
cp -r "$here/../examples/quickstart/app" "$work/app"
"$dlenv" lock "$work/foreign.json" -o "$work/foreign.lock.json" --offline >/dev/null
"$dlenv" build "$work/foreign.lock.json" --store "$work/store" --base "oci:$work/foreign:foreign" >/dev/null

tree_bytes=$(du -sb "$dir" | cut -f1)
cat "$work"/store/blobs/sha256/* >/dev/null # warm the page cache

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

dlenv_unpack() { # dlenv_unpack NAME
  local times=()
  for ((i = 0; i < runs; i++)); do
    times+=("$("$dlenv" verify "$1" --store "$work/store" --tier static --json |
      python3 -c 'import json,sys; print(next(f["value"] for f in json.load(sys.stdin)["tiers"][0]["figures"] if f["name"]=="unpack_seconds"))')")
  done
  printf '%s\n' "${times[@]}" | sort -n | sed -n "$(((runs + 1) / 2))p"
}

rootless=$([ "$(id -u)" = 0 ] || echo --rootless)
for image in bench foreign; do
  blobs=$(blobs_of "$image")
  layers=$(du -cb $blobs | tail -1 | cut -f1)
  [[ $image == bench ]] && what="dlenv's gzip members" || what="one tar | gzip member"
  echo "$image: $(find "$dir" -type f | wc -l) files of $dir in $what, $tree_bytes bytes unpacked, $layers bytes of layers; median of $runs"
  dlenv_seconds=$(dlenv_unpack "$image")
  row "dlenv unpack (in dlenv verify)" "$dlenv_seconds"
  row "umoci unpack $rootless" "$(measure "umoci unpack $rootless --image '$work/store:$image:latest' '$work/out/bundle'")"
  row "floor: tar -x of each layer" "$(measure "for b in $blobs; do tar -xf \$b -C '$work/out'; done")"
done
