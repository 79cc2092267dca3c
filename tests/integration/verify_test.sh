#!/usr/bin/env bash
# `dlenv verify` on the quickstart image in a real container runtime, as users run it:
# the static tier passes; an image whose base lost libc, and one whose pinned file was
# changed after the build, fail with the exact findings; GPU tiers say they cannot run
# here (exit 3); promote is refused until a passing verification covers the tiers the
# lock requires, then moves production; rollback --production puts the previous back;
# the history shows every move.
source "$(dirname "$0")/lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
short=${digest:0:19}

# "code:outcome ..." of each finding of the static tier, from `dlenv verify --json`.
findings() {
  python3 -c 'import json,sys; r=json.load(sys.stdin); print(" ".join(f["code"]+":"+f["outcome"] for t in r["tiers"] for f in t["findings"]))'
}
# The message of the finding with this code and outcome.
message_of() { # message_of CODE OUTCOME
  python3 -c 'import json,sys; c,o=sys.argv[1:]; r=json.load(sys.stdin); print(next(f["message"] for t in r["tiers"] for f in t["findings"] if f["code"]==c and f["outcome"]==o))' "$1" "$2"
}

# The static tier passes, through the runtime a user gets: the first of runc, crun, bwrap.
set +e
report=$("$dlenv" verify quickstart --store "$store" --tier static --json)
rc=$?
set -e
expect_eq "static passes" "$rc" 0
expect_eq "static findings" "$(findings <<<"$report")" \
  "kit-lock:pass file-sha256:pass entrypoint-closure:pass container-start:pass kit-readable:pass framework-import:skip"
expect_eq "the skip says why" "$(message_of framework-import skip <<<"$report")" \
  "the lock pins no torch package, so the image does not install it"
expect_eq "the report names the image" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])' <<<"$report")" "$digest"
record=$store/dlenv/verifications/sha256-${digest#sha256:}.json
expect_eq "the record is stored against the digest" \
  "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); print(r["schema"], list(r["tiers"]), r["tiers"]["static"]["passed"])' "$record")" \
  "dlenv.verification/v1 ['static'] True"
"$dlenv" fsck --store "$store" >/dev/null

# Each runtime installed here gives the same findings.
for runtime in runc bwrap; do
  command -v "$runtime" >/dev/null || continue
  expect_eq "static under $runtime" \
    "$("$dlenv" verify quickstart --store "$store" --tier static --runtime "$runtime" --json | findings)" \
    "kit-lock:pass file-sha256:pass entrypoint-closure:pass container-start:pass kit-readable:pass framework-import:skip"
done

# GPU tiers on a machine without a GPU: exit 3, saying so.
set +e
message=$("$dlenv" verify quickstart --store "$store" --tier gpu 2>&1 >/dev/null)
rc=$?
set -e
expect_eq "--tier gpu without a GPU exits 3" "$rc" 3
expect_eq "--tier gpu says why" "$message" \
  "dlenv: the gpu tier cannot run: no NVIDIA driver or GPU on this machine; run this tier on a GPU machine (\`--tier static\` works without one)"
set +e
"$dlenv" verify quickstart --store "$store" >/dev/null 2>&1
rc=$?
set -e
expect_eq "the lock's tiers (static, gpu, framework) without a GPU exit 3 after static passes" "$rc" 3

# GPU tiers with a driver whose GPUs cannot be given to a container: a stand-in nvidia-smi
# reports an H100 (NVML is absent here), and there are no device nodes and no CDI spec.
if [ ! -e /dev/nvidiactl ] && ! ls /etc/cdi/*.json /var/run/cdi/*.json >/dev/null 2>&1; then
  mkdir -p "$scratch/bin"
  printf '#!/bin/sh\nprintf "NVIDIA H100 80GB HBM3, 550.54.15, 9.0, 81559\\n"\n' >"$scratch/bin/nvidia-smi"
  chmod +x "$scratch/bin/nvidia-smi"
  set +e
  message=$(PATH="$scratch/bin:$PATH" "$dlenv" verify quickstart --store "$store" --tier gpu 2>&1 >/dev/null)
  rc=$?
  set -e
  expect_eq "--tier gpu with a driver but no device nodes exits 3" "$rc" 3
  expect_eq "--tier gpu says the GPUs cannot be injected" "$message" \
    "dlenv: the gpu tier was not run: GPU injection cannot be planned: no NVIDIA device nodes in /dev and no CDI spec (install the NVIDIA driver, or generate a CDI spec: \`nvidia-ctk cdi generate --output=/etc/cdi/nvidia.yaml\`)"
fi

# Promotion needs every tier the lock requires: quickstart's lock requires all three.
set +e
message=$("$dlenv" promote quickstart --store "$store" 2>&1)
rc=$?
set -e
expect_eq "promote without gpu and framework passes exits 1" "$rc" 1
expect_eq "promote names what is missing" "$(head -1 <<<"$message")" \
  "dlenv: quickstart:latest cannot be promoted: no passing \`gpu\` verification for $short (run \`dlenv verify quickstart --tier gpu\` on a GPU machine); no passing \`framework\` verification for $short (run \`dlenv verify quickstart --tier framework\` on a GPU machine)"
expect_eq "no production tag" "$(image_digest "$store" quickstart production)" none

# A profile that requires only the static tier: refused before a pass, accepted after.
static_quickstart_profile "$scratch/static"
build_static() {
  "$dlenv" lock "$scratch/static/quickstart-static.json" -o "$scratch/static/lock.json" --offline >/dev/null
  "$dlenv" build "$scratch/static/lock.json" --store "$store" --base "docker-archive:$scratch/store/quickstart-base.tar" >/dev/null
  image_digest "$store" quickstart-static latest
}
first=$(build_static)
set +e
message=$("$dlenv" promote quickstart-static --store "$store" 2>&1)
rc=$?
set -e
expect_eq "promote before any verification exits 1" "$rc" 1
expect_eq "promote names the missing static pass" "$(head -1 <<<"$message")" \
  "dlenv: quickstart-static:latest cannot be promoted: no passing \`static\` verification for ${first:0:19} (run \`dlenv verify quickstart-static --tier static\`)"
"$dlenv" verify quickstart-static --store "$store" >/dev/null
"$dlenv" promote quickstart-static --store "$store" >/dev/null
expect_eq "promote after a pass moves production" "$(image_digest "$store" quickstart-static production)" "$first"

echo 'echo changed' >>"$scratch/static/app/hello.sh"
second=$(build_static)
"$dlenv" verify quickstart-static --store "$store" --tier static >/dev/null
"$dlenv" promote quickstart-static --store "$store" >/dev/null
expect_eq "the second promotion moves production" "$(image_digest "$store" quickstart-static production)" "$second"
expect_eq "the first stays as production-previous" "$(image_digest "$store" quickstart-static production-previous)" "$first"
"$dlenv" gc --store "$store" --keep 0 >/dev/null
expect_eq "gc keeps the production-previous image" "$(skopeo inspect --raw "oci:$store:quickstart-static:production-previous" | sha256sum | cut -d' ' -f1)" "${first#sha256:}"
"$dlenv" rollback quickstart-static --production --store "$store" >/dev/null
expect_eq "rollback --production restores the previous production" "$(image_digest "$store" quickstart-static production)" "$first"
expect_eq "and leaves no production-previous" "$(image_digest "$store" quickstart-static production-previous)" none
expect_eq "latest is untouched" "$(image_digest "$store" quickstart-static latest)" "$second"
expect_eq "the history shows every move" \
  "$("$dlenv" history quickstart-static --store "$store" --json | python3 -c 'import json,sys; print(" ".join(e["action"]+"("+",".join(m["tag"] for m in e["moved"])+")" for e in json.load(sys.stdin)))')" \
  "build(latest) promote(production) build(rollback,latest) promote(production-previous,production) rollback-production(production,production-previous)"

# A base that lost libc: /bin/sh cannot load, and the static tier says exactly why.
python3 - "$scratch/store/quickstart-base.tar" "$scratch/broken-base.tar" <<'PY'
import hashlib, io, json, sys, tarfile
src = tarfile.open(sys.argv[1])
manifest = json.load(src.extractfile("manifest.json"))
layer_name = manifest[0]["Layers"][0]
layer_in = tarfile.open(fileobj=io.BytesIO(src.extractfile(layer_name).read()))
layer_bytes = io.BytesIO()
with tarfile.open(fileobj=layer_bytes, mode="w", format=tarfile.GNU_FORMAT) as out:
    for member in layer_in.getmembers():
        if member.name != "lib/x86_64-linux-gnu/libc.so.6":
            out.addfile(member, layer_in.extractfile(member) if member.isfile() else None)
layer = layer_bytes.getvalue()
diff_id = hashlib.sha256(layer).hexdigest()
config = json.load(src.extractfile(manifest[0]["Config"]))
config["rootfs"]["diff_ids"] = ["sha256:" + diff_id]
config_bytes = json.dumps(config).encode()
config_name = hashlib.sha256(config_bytes).hexdigest() + ".json"
entries = {diff_id + "/layer.tar": layer, config_name: config_bytes,
           "manifest.json": json.dumps([{"Config": config_name, "RepoTags": manifest[0]["RepoTags"],
                                         "Layers": [diff_id + "/layer.tar"]}]).encode()}
with tarfile.open(sys.argv[2], "w") as out:
    for name, data in entries.items():
        info = tarfile.TarInfo(name)
        info.size = len(data)
        out.addfile(info, io.BytesIO(data))
PY
broken=$scratch/broken/.dlenv
"$dlenv" build "$scratch/store/quickstart.lock.json" --store "$broken" --base "docker-archive:$scratch/broken-base.tar" >/dev/null
set +e
report=$("$dlenv" verify quickstart --store "$broken" --tier static --json)
rc=$?
set -e
expect_eq "an image without libc fails the static tier" "$rc" 1
expect_eq "its findings" "$(findings <<<"$report")" \
  "kit-lock:pass file-sha256:pass entrypoint-closure:fail container-start:fail kit-readable:skip framework-import:skip"
expect_eq "the closure names the missing library" "$(message_of entrypoint-closure fail <<<"$report")" \
  "/bin/sh: libc.so.6, needed by /bin/sh, is not in the image"
expect_eq "the failed record blocks promotion" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["tiers"]["static"]["passed"])' \
      "$broken/dlenv/verifications/sha256-$(image_digest "$broken" quickstart latest | cut -d: -f2).json")" False

# A pinned file changed after the build (a layer added by another tool): file-sha256 fails.
umoci unpack --image "$store:quickstart:latest" "$scratch/bundle" >/dev/null
echo 'echo tampered' >>"$scratch/bundle/rootfs/app/hello.sh"
repack_as "$store" "$scratch/bundle" quickstart tampered
set +e
report=$("$dlenv" verify quickstart:tampered --store "$store" --tier static --json)
rc=$?
set -e
expect_eq "a changed pinned file fails the static tier" "$rc" 1
expect_eq "its findings" "$(findings <<<"$report")" \
  "kit-lock:pass file-sha256:fail entrypoint-closure:pass container-start:pass kit-readable:pass framework-import:skip"
pinned=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["image"]["files"][0]["sha256"])' "$scratch/store/quickstart.lock.json")
actual=$(sha256sum "$scratch/bundle/rootfs/app/hello.sh" | cut -d' ' -f1)
expect_eq "the finding names both digests" "$(message_of file-sha256 fail <<<"$report")" \
  "/app/hello.sh has sha256 $actual, the lock pins $pinned"
