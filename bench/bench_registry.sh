#!/usr/bin/env bash
# Prints, side by side, the time and throughput of moving a large image between an OCI
# store and the reference registry (plain HTTP on 127.0.0.1): `dlenv push` and `dlenv pull`
# against `skopeo copy` (oci: -> docker:// and back), plus a re-push of the unchanged image,
# one run each with the page cache warm. The image is the quickstart with the files of DIR
# (default the CUDA toolkit's lib dir) in a gzip layer at /usr/local/cuda/lib, so both
# tools move the same blobs. Throughput is the bytes of blobs the registry holds for the
# image divided by the time.
#   bench/bench_registry.sh [DLENV] [DIR]
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
export DLENV=$(realpath "${1:-$root/build/src/dlenv}") DLENV_SOURCE_DIR=$root
dir=$(realpath "${2:-$( [ -d /usr/local/cuda/lib ] && echo /usr/local/cuda/lib || echo /usr/lib/x86_64-linux-gnu)}")
source "$root/tests/integration/lib.sh"
source "$root/tests/integration/registry_lib.sh"

# The quickstart with every regular file of DIR as a profile file under /usr/local/cuda/lib:
# dlenv writes them as one gzip layer, which skopeo then copies as it is.
store=$scratch/store/.dlenv
mkdir -p "$scratch/store"
bash "$root/examples/quickstart/run.sh" "$store" >/dev/null
ln -s "$dir" "$scratch/tree"
python3 - "$root/examples/quickstart/quickstart.json" "$dir" "$scratch/big.json" <<'PYTHON'
import json, os, sys
profile_path, tree, out = sys.argv[1:]
profile = json.load(open(profile_path))
profile["name"] = "big"
profile["files"] = [
    {"source": "tree/" + name, "target": "/usr/local/cuda/lib/" + name, "mode": "0644"}
    for name in sorted(os.listdir(tree))
    if os.path.isfile(os.path.join(tree, name)) and not os.path.islink(os.path.join(tree, name))
]
json.dump(profile, open(out, "w"))
PYTHON
"$dlenv" lock "$scratch/big.json" -o "$scratch/big.lock.json" --offline >/dev/null
"$dlenv" build "$scratch/big.lock.json" --store "$store" --base "docker-archive:$scratch/store/quickstart-base.tar" \
  >/dev/null

start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port
blob_bytes='j["config"]["size"] + sum(l["size"] for l in j["layers"])'
media_types='",".join(sorted({l["mediaType"].rsplit(".", 1)[-1] for l in j["layers"]}))'
image_bytes=$(skopeo inspect --raw "oci:$store:big:latest" | json_field "$blob_bytes")
echo "tree: $dir, $(du -sb "$dir" | cut -f1) bytes; image: $image_bytes bytes of blobs" \
  "(layers $(skopeo inspect --raw "oci:$store:big:latest" | json_field "$media_types"));" \
  "registry $(docker-registry --version | cut -d' ' -f3), $(nproc) cores"

seconds() { # seconds COMMAND...: runs it, output discarded, and prints its wall time
  local start end
  start=$(date +%s.%N)
  "$@" >/dev/null 2>&1 || fail "$* failed"
  end=$(date +%s.%N)
  echo "$end - $start" | bc
}
row() { # row NAME SECONDS BYTES
  awk -v n="$1" -v s="$2" -v b="$3" 'BEGIN { printf "%-52s %8.2f s %14.0f B %8.0f MB/s\n", n, s, b, b / s / 1e6 }'
}

printf '%-52s %10s %16s %13s\n' work time "blobs in registry" throughput
s=$(seconds "$dlenv" push big "$remote/bench/dlenv:v1" --store "$store" --insecure)
row "dlenv push" "$s" "$image_bytes"
s=$(seconds skopeo copy --dest-tls-verify=false "oci:$store:big:latest" "docker://$remote/bench/skopeo:v1")
skopeo_bytes=$(skopeo inspect --tls-verify=false --raw "docker://$remote/bench/skopeo:v1" | json_field "$blob_bytes")
row "skopeo copy oci: docker://" "$s" "$skopeo_bytes"
s=$(seconds "$dlenv" push big "$remote/bench/dlenv:v1" --store "$store" --insecure)
row "dlenv push, unchanged (every blob there)" "$s" "$image_bytes"
s=$(seconds skopeo copy --dest-tls-verify=false "oci:$store:big:latest" "docker://$remote/bench/skopeo:v1")
row "skopeo copy oci: docker://, unchanged" "$s" "$skopeo_bytes"
s=$(seconds "$dlenv" pull "$remote/bench/dlenv:v1" --store "$scratch/pulled" --insecure)
row "dlenv pull (into an empty store)" "$s" "$image_bytes"
s=$(seconds skopeo copy --src-tls-verify=false "docker://$remote/bench/skopeo:v1" "oci:$scratch/skopeo-pulled:big")
row "skopeo copy docker:// oci: (into an empty layout)" "$s" "$skopeo_bytes"
s=$(seconds "$dlenv" pull "$remote/bench/dlenv:v1" --store "$scratch/pulled" --insecure)
row "dlenv pull, unchanged (every blob there)" "$s" "$image_bytes"
# dlenv first tries HTTPS and, with --insecure, falls back to HTTP: this is that cost,
# included in each dlenv row above.
start=$(date +%s.%N)
"$dlenv" pull "$remote/bench/none:v1" --store "$scratch/none" --insecure >/dev/null 2>&1 || true
echo "dlenv pull of a missing tag (the HTTPS probe and fallback alone): $(echo "$(date +%s.%N) - $start" | bc | cut -c1-5) s"
