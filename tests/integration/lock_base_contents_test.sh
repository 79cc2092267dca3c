#!/usr/bin/env bash
# `dlenv lock` reads what a registry base carries from its pinned manifest's config and
# records it in the lock; a framework that cannot load the base's CUDA fails the lock,
# naming the finding and its rule, with nothing written; a re-tagged copy of the base is
# read alike.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

tag=11.8.0-cudnn8-runtime-ubuntu22.04
python3 "$source_dir/tests/fixtures/nvidia_cuda/make_base.py" --cuda 11.8.0 --os ubuntu22.04 --flavour cudnn8-runtime \
  --out "$scratch/base" --tag "$tag" >/dev/null
python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$scratch/wheels" resolve
start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port
skopeo copy -q "oci:$scratch/base:$tag" "docker://$remote/nvidia/cuda:$tag" --dest-tls-verify=false
skopeo copy -q "oci:$scratch/base:$tag" "docker://$remote/team/cuda:11.8" --dest-tls-verify=false

profile() { # profile CUDA BASE: torch 2.1 for Python 3.11, as the fixture wheels are built
  cat >"$scratch/team.json" <<JSON
{"format": "dlenv.profile/v1", "name": "team", "python": "3.11",
 "framework": {"name": "torch", "version": "2.1", "cuda": "$1"}, "base_image": "$2"}
JSON
}
lock() { # lock LOCKFILE: the profile, pinned in the registry, packages from the wheelhouse
  "$dlenv" lock "$scratch/team.json" -o "$1" --wheelhouse "$scratch/wheels" --insecure
}
carries() { # carries LOCKFILE
  python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["base_image"]["carries"], sort_keys=True))' "$1"
}
expected_carries='{"cuda": {"origin": "env CUDA_VERSION", "version": "11.8.0"}, "cudnn": {"origin": "env NV_CUDNN_VERSION", "version": "8.9.6.50"}, "nccl": {"origin": "env NV_LIBNCCL_PACKAGE_VERSION", "version": "2.15.5"}, "python": null}'

profile 11.8 "$remote/nvidia/cuda:$tag"
lock "$scratch/match.lock.json" >"$scratch/match.out"
expect_eq "the lock records what the base's config says it carries" "$(carries "$scratch/match.lock.json")" \
  "$expected_carries"
expect_eq "the lock pins the manifest whose config it read" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base_image"]["manifest"])' "$scratch/match.lock.json")" \
  "$(skopeo inspect --raw --tls-verify=false "docker://$remote/nvidia/cuda:$tag" | sha256sum | sed 's/^/sha256:/; s/ .*//')"
expect_eq "a fitting base gives the lock no warnings" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["warnings"])' "$scratch/match.lock.json")" "[]"
expect_eq "the config was fetched once" "$(count_requests GET "/v2/nvidia/cuda/blobs/")" 1

profile 11.8 "$remote/team/cuda:11.8"
lock "$scratch/retagged.lock.json" >/dev/null
expect_eq "a re-tagged copy carries the same" "$(carries "$scratch/retagged.lock.json")" "$expected_carries"

profile 12.1 "$remote/nvidia/cuda:$tag"
set +e
lock "$scratch/mismatch.lock.json" >"$scratch/mismatch.out" 2>"$scratch/mismatch.err"
status=$?
set -e
expect_eq "torch built for CUDA 12.1 on the 11.8 base fails the lock" "$status" 1
expect_eq "the report's first line" "$(head -1 "$scratch/mismatch.out")" "error: profile team does not work (1 error)"
expect_eq "the finding" "$(grep -A1 'base-cuda' "$scratch/mismatch.out" | sed 's/source: .*/source: RULE/')" \
  "  error    base-cuda: torch is built with CUDA 12.1 and loads the base's CUDA libraries, but the base carries CUDA 11.8.0 (env CUDA_VERSION): their sonames carry the major (libcudart.so.12), so a CUDA 12 build cannot load them; use a CUDA 12.1 base
           source: RULE"
grep -A1 'base-cuda' "$scratch/mismatch.out" | grep -q 'source: https://' || fail "the finding cites its rule: $(cat "$scratch/mismatch.out")"
[[ ! -e "$scratch/mismatch.lock.json" ]] || fail "a lock was written for a framework the base cannot serve"
echo "ok: nothing written"
