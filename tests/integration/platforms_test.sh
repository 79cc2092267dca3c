#!/usr/bin/env bash
# One profile for linux/amd64 and linux/arm64: `dlenv lock` pins each platform's manifest
# of a two-platform base from the registry's index and each machine's wheels from an index
# replica; `dlenv build` builds both images and tags the OCI index over them, the same
# index digest from a fresh store; `dlenv push` writes that index, which skopeo reads
# with both platforms; the arm64 image verifies statically without running, the amd64 one
# in a container. A platform the framework build has no wheels for exits 2 naming both.
# Promotion, from the store or the registry, wants each platform's image verified, naming
# the one that is not, and once both are, tags production on the index.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"
command -v skopeo >/dev/null || { echo "skip: skopeo is not installed"; exit 77; }
command -v docker-registry >/dev/null || { echo "skip: docker-registry is not installed"; exit 77; }

fixtures=$source_dir/tests/fixtures
python3 "$fixtures/platform_base/make_platform_base.py" "$scratch/base"
python3 "$fixtures/platform_base/make_platform_wheels.py" "$scratch/wheels"
python3 "$fixtures/wheels/make_index.py" "$scratch/wheels" "$scratch/index"
start_serving "$scratch/index" json
index_url=$served_origin/simple/

start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port
skopeo copy -q --all --dest-tls-verify=false "oci:$scratch/base:platform-base" "docker://$remote/base/platform:1"
platform_digest() { # platform_digest RAW_INDEX_JSON ARCH
  python3 -c 'import json,sys; print(next(m["digest"] for m in json.loads(sys.argv[1])["manifests"] if m["platform"]["architecture"]==sys.argv[2]))' "$1" "$2"
}
base_index=$(skopeo inspect --raw --tls-verify=false "docker://$remote/base/platform:1")

profile() { # profile FILE NAME TORCH CUDA PYTHON: torch alone, on the registry's base, for both platforms
  cat >"$1" <<JSON
{"format": "dlenv.profile/v1", "name": "$2", "python": "$5", "base_image": "$remote/base/platform:1",
 "framework": {"name": "torch", "version": "$3", "cuda": "$4"}, "platforms": ["linux/amd64", "linux/arm64"],
 "validation": {"tiers": ["static"]}}
JSON
}
lock_json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print($2)" "$1"; }

profile "$scratch/fleet.json" fleet 2.7.0 12.8 3.11
"$dlenv" lock "$scratch/fleet.json" -o "$scratch/fleet.lock.json" --insecure \
  --index "pypi=$index_url" --index "pytorch=$index_url" >"$scratch/lock.out"
lock=$scratch/fleet.lock.json
expect_eq "the lock pins the base's index" "$(lock_json "$lock" 'j["base_image"]["digest"]')" \
  "sha256:$(printf '%s' "$base_index" | sha256sum | cut -d' ' -f1)"
expect_eq "its own platform" "$(lock_json "$lock" 'j["base_image"]["platform"]')" "linux/amd64"
expect_eq "the amd64 manifest" "$(lock_json "$lock" 'j["base_image"]["manifest"]')" "$(platform_digest "$base_index" amd64)"
expect_eq "the other platform" "$(lock_json "$lock" '[p["platform"] for p in j["other_platforms"]]')" "['linux/arm64']"
expect_eq "the arm64 manifest" "$(lock_json "$lock" 'j["other_platforms"][0]["base_manifest"]')" \
  "$(platform_digest "$base_index" arm64)"
expect_eq "the amd64 wheels" "$(lock_json "$lock" '" ".join(p["filename"] for p in j["packages"])')" \
  "filelock-3.13.1-py3-none-any.whl nvidia_cuda_runtime_cu12-12.8.57-py3-none-manylinux2014_x86_64.manylinux_2_17_x86_64.whl torch-2.7.0+cu128-cp311-cp311-manylinux_2_28_x86_64.whl"
expect_eq "the arm64 wheels" \
  "$(lock_json "$lock" '" ".join(p["filename"] for p in j["other_platforms"][0]["packages"])')" \
  "filelock-3.13.1-py3-none-any.whl torch-2.7.0+cu128-cp311-cp311-manylinux_2_28_aarch64.whl"
expect_eq "the arm64 machine" "$(lock_json "$lock" 'j["other_platforms"][0]["python"]["machine"]')" "aarch64"

store=$scratch/store/.dlenv
"$dlenv" build "$lock" --store "$store" --insecure --json >"$scratch/build.json"
digest=$(json_field 'j["digest"]' <"$scratch/build.json")
raw=$(skopeo inspect --raw "oci:$store:fleet:latest")
expect_eq "the store tags an index" "$(printf '%s' "$raw" | json_field 'j["mediaType"]')" \
  "application/vnd.oci.image.index.v1+json"
expect_eq "over both platforms" \
  "$(printf '%s' "$raw" | json_field '" ".join(m["platform"]["os"]+"/"+m["platform"]["architecture"] for m in j["manifests"])')" \
  "linux/amd64 linux/arm64"
expect_eq "the arm64 config" \
  "$(skopeo inspect --override-arch arm64 --config "oci:$store:fleet:latest" | json_field 'j["architecture"]')" "arm64"
arm64=$(platform_digest "$raw" arm64)
expect_eq "the arm64 image is built on the arm64 base" \
  "$(json_field 'j["annotations"]["org.opencontainers.image.base.digest"]' <"$store/blobs/sha256/${arm64#sha256:}")" \
  "$(platform_digest "$base_index" arm64)"

"$dlenv" build "$lock" --store "$scratch/fresh/.dlenv" --insecure --json >"$scratch/rebuild.json"
expect_eq "a fresh store builds the same index" "$(json_field 'j["digest"]' <"$scratch/rebuild.json")" "$digest"

"$dlenv" push fleet "$remote/team/fleet:1" --store "$store" --insecure >"$scratch/push.out" 2>&1
pushed=$(skopeo inspect --raw --tls-verify=false "docker://$remote/team/fleet:1")
expect_eq "the registry holds the index" "sha256:$(printf '%s' "$pushed" | sha256sum | cut -d' ' -f1)" "$digest"
expect_eq "with both platforms" \
  "$(printf '%s' "$pushed" | json_field '" ".join(m["platform"]["architecture"] for m in j["manifests"])')" "amd64 arm64"
expect_eq "skopeo reads the arm64 image" \
  "$(skopeo inspect --override-arch arm64 --tls-verify=false "docker://$remote/team/fleet:1" | json_field 'j["Architecture"] + " " + str(len(j["Layers"]))')" \
  "arm64 $(json_field 'str(len(j["layers"]))' <"$store/blobs/sha256/${arm64#sha256:}")"
expect_eq "the registry's arm64 config" \
  "$(skopeo inspect --override-arch arm64 --config --tls-verify=false "docker://$remote/team/fleet:1" | json_field 'j["architecture"]')" \
  "arm64"

profile "$scratch/old.json" old 2.1 11.8 3.11
set +e
"$dlenv" lock "$scratch/old.json" -o "$scratch/old.lock.json" --insecure \
  --index "pypi=$index_url" --index "pytorch=$index_url" >/dev/null 2>"$scratch/old.err"
status=$?
set -e
expect_eq "a platform without the framework's wheels exits 2" "$status" "2"
expect_eq "the error names the platform and the wheels it has" "$(head -1 "$scratch/old.err")" \
  "dlenv: lock the packages for linux/arm64: profile old requires torch==2.1.2+cu118, but index pytorch has only torch 2.7.0+cu128 for CPython 3.11 on aarch64 with glibc 2.28"
[[ ! -e $scratch/old.lock.json ]] || fail "no lock is written"
echo "ok: $(head -1 "$scratch/old.err")"

# The SBOM of each platform: the arm64 one names the arm64 manifest and its own wheels.
"$dlenv" sbom fleet --platform linux/arm64 --store "$store" -o "$scratch/arm64.spdx.json"
expect_eq "the arm64 SBOM names the arm64 image" "$(json_field 'j["name"]' <"$scratch/arm64.spdx.json")" \
  "fleet@$arm64"
expect_eq "and its torch" \
  "$(json_field '" ".join(p["versionInfo"] for p in j["packages"] if p["name"] == "torch")' <"$scratch/arm64.spdx.json")" \
  "2.7.0+cu128"
expect_eq "the default is this machine's platform" \
  "$("$dlenv" sbom fleet --store "$store" | json_field 'j["name"]')" "fleet@$(platform_digest "$raw" amd64)"

# A diff per platform: the lock against the arm64 image it built is equal; another platform
# is refused naming the lock's.
expect_eq "the lock and its arm64 image are equal for linux/arm64" \
  "$("$dlenv" diff "$lock" fleet --platform linux/arm64 --store "$store" >/dev/null; echo $?)" "0"
set +e
"$dlenv" diff "$lock" "$lock" --platform linux/s390x >/dev/null 2>"$scratch/diff.err"
status=$?
set -e
expect_eq "a platform the lock lacks is refused, naming it" "$status $(head -1 "$scratch/diff.err")" \
  "2 dlenv: $lock: the lock has no platform linux/s390x"

# The arm64 image, on this machine: read, not run.
set +e
"$dlenv" verify fleet --tier static --platform linux/arm64 --store "$store" --json >"$scratch/verify.json" 2>"$scratch/verify.err"
status=$?
set -e
expect_eq "the static tier passes the arm64 image" "$status" "0"
expect_eq "its findings" "$(json_field '" ".join(f["code"] + ":" + f["outcome"] for f in j["tiers"][0]["findings"])' <"$scratch/verify.json")" \
  "kit-lock:pass package-version:pass package-version:pass entrypoint-closure:pass container-start:skip framework-import:skip"
expect_eq "against the arm64 manifest" "$(json_field 'j["digest"]' <"$scratch/verify.json")" "$arm64"
grep -q "torch 2.7.0+cu128 is installed" "$scratch/verify.json" || fail "the arm64 packages were checked"

# Promotion wants every platform's image verified: the arm64 one passed, the amd64 one was
# never verified.
set +e
"$dlenv" promote fleet --store "$store" >"$scratch/promote.out" 2>"$scratch/promote.err"
status=$?
set -e
amd64=$(platform_digest "$raw" amd64)
expect_eq "promote refuses while one platform is unverified, naming that one" \
  "$status $(head -1 "$scratch/promote.err")" \
  "1 dlenv: fleet:latest cannot be promoted: no passing \`static\` verification for ${amd64:0:19} (linux/amd64) (run \`dlenv verify fleet --tier static --platform linux/amd64\`)"

# From the registry each platform's image needs its own report there: `push` attaches the
# arm64 report to the arm64 manifest and the amd64 image has none yet.
"$dlenv" push fleet "$remote/team/fleet:1" --store "$store" --insecure >/dev/null 2>&1
from_registry() { # from_registry: promote on the registry's reports; prints the exit code and the error
  set +e
  "$dlenv" promote fleet --store "$store" --from-registry "$remote/team/fleet:1" --insecure >"$scratch/promote.out" 2>"$scratch/promote.err"
  echo "$? $(head -1 "$scratch/promote.err")"
  set -e
}
expect_eq "promote --from-registry refuses while the registry has no amd64 report, naming the platform and tier" \
  "$(from_registry)" \
  "1 dlenv: fleet:latest cannot be promoted: no passing \`static\` verification for ${amd64:0:19} (linux/amd64) in $remote/team/fleet:1 (run \`dlenv verify fleet --tier static --platform linux/amd64\`)"
expect_eq "and production is not tagged" \
  "$(skopeo inspect --raw "oci:$store:fleet:production" >/dev/null 2>&1 && echo tagged || echo untagged)" "untagged"

# The amd64 image runs here: its Debian python3.11 imports each pinned package in a container.
set +e
"$dlenv" verify fleet --tier static --platform linux/amd64 --store "$store" --json >"$scratch/amd64.json"
status=$?
set -e
expect_eq "the static tier passes the amd64 image" "$status $(json_field 'j["digest"]' <"$scratch/amd64.json")" "0 $amd64"
expect_eq "its imports" \
  "$(json_field '" ".join(f["code"] + ":" + f["outcome"] for f in j["tiers"][0]["findings"] if "import" in f["code"])' <"$scratch/amd64.json")" \
  "package-import:pass package-import:pass package-import:pass framework-import:pass"

# With both reports in the registry, promotion from it tags production on the index.
"$dlenv" push fleet "$remote/team/fleet:1" --store "$store" --insecure >/dev/null 2>&1
expect_eq "with a passing report of each platform in the registry, promote --from-registry succeeds" \
  "$(from_registry)" "0 "
expect_eq "production names the index over both platforms" \
  "sha256:$(skopeo inspect --raw "oci:$store:fleet:production" | sha256sum | cut -d' ' -f1)" "$digest"
