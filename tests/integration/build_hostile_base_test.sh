#!/usr/bin/env bash
# A base that would escape its root is refused when it enters the store, not when the
# image is verified: `dlenv build --base oci:DIR:REF` and `--base docker-archive:FILE`
# exit 2 naming the layer and the entry, tag nothing and write nothing outside the store;
# `dlenv pull` of such an image from the reference registry does the same. A sound base
# is checked once and then remembered by its manifest digest.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"
trap 'stop_registry; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

store=$scratch/store/.dlenv
build_quickstart "$store"
lock=$scratch/store/quickstart.lock.json
outside=$scratch/outside
mkdir -p "$outside"

# Writes an OCI layout DIR with one image tagged REF whose layers are made by the Python
# snippets given (one a layer), with helpers f(name, data), s(name, target), c(name).
hostile_layout() { # hostile_layout DIR REF SNIPPET...
  python3 - "$@" <<'PY'
import hashlib, io, json, os, sys, tarfile
out, ref, snippets = sys.argv[1], sys.argv[2], sys.argv[3:]
os.makedirs(out + "/blobs/sha256", exist_ok=True)
def blob(data):
    digest = hashlib.sha256(data).hexdigest()
    open(out + "/blobs/sha256/" + digest, "wb").write(data)
    return {"digest": "sha256:" + digest, "size": len(data)}
layers, diff_ids = [], []
for snippet in snippets:
    b = io.BytesIO()
    t = tarfile.open(fileobj=b, mode="w", format=tarfile.PAX_FORMAT)
    def add(i, data=b""):
        i.size = len(data)
        t.addfile(i, io.BytesIO(data))
    def f(name, data): i = tarfile.TarInfo(name); i.mode = 0o644; add(i, data)
    def s(name, target): i = tarfile.TarInfo(name); i.type = tarfile.SYMTYPE; i.linkname = target; add(i)
    def c(name): i = tarfile.TarInfo(name); i.type = tarfile.CHRTYPE; i.devmajor = 1; i.devminor = 3; add(i)
    exec(snippet)
    t.close()
    layer = blob(b.getvalue())
    layers.append(dict(mediaType="application/vnd.oci.image.layer.v1.tar", **layer))
    diff_ids.append(layer["digest"])
config = blob(json.dumps({"architecture": "amd64", "os": "linux", "config": {},
                          "rootfs": {"type": "layers", "diff_ids": diff_ids}}).encode())
manifest = blob(json.dumps({"schemaVersion": 2, "mediaType": "application/vnd.oci.image.manifest.v1+json",
                            "config": dict(mediaType="application/vnd.oci.image.config.v1+json", **config),
                            "layers": layers}).encode())
json.dump({"schemaVersion": 2, "manifests": [dict(mediaType="application/vnd.oci.image.manifest.v1+json",
           annotations={"org.opencontainers.image.ref.name": ref}, **manifest)]}, open(out + "/index.json", "w"))
open(out + "/oci-layout", "w").write('{"imageLayoutVersion": "1.0.0"}')
print(layers[-1]["digest"])
PY
}

# Builds the quickstart lock on BASE; sets rc and the first line of stderr in `refusal_of`.
build_on() { # build_on BASE
  set +e
  message=$("$dlenv" build "$lock" --store "$store" --base "$1" 2>&1 >/dev/null)
  rc=$?
  set -e
  refusal_of=$(grep -m1 '^dlenv:' <<<"$message" || true)
}

# Each attack: the layers' snippets, then what the refusal says of the last layer's entry.
attacks=(
  "f('/abs', b'x')|/abs: absolute path"
  "f('../outside/x', b'x')|../outside/x: path has a \"..\" component"
  "s('link', '$outside')#f('link/pwned', b'x')|link/pwned: goes through the symbolic link link -> $outside, which leads out of the root"
  "s('up', '../../../../../../..$outside')|up: symbolic link to ../../../../../../..$outside leads out of the root"
  "c('dev/null')|dev/null: device nodes, fifos and sockets are not unpacked"
)
n=0
for attack in "${attacks[@]}"; do
  n=$((n + 1))
  IFS='#' read -ra snippets <<<"${attack%%|*}"
  refusal=${attack#*|}
  layout=$scratch/evil-$n
  layer=$(hostile_layout "$layout" evil "${snippets[@]}")
  build_on "oci:$layout:evil"
  expect_eq "attack $n: build exits 2" "$rc" 2
  expect_eq "attack $n: the refusal names the layer and the entry" "$refusal_of" \
    "dlenv: base image oci:$layout:evil: layer ${#snippets[@]} ${layer:0:19}: apply layer $layer: $refusal"
done
expect_eq "nothing was written outside" "$(ls -A "$outside" | wc -l)" 0
expect_eq "no check directory is left" "$(ls -A "$store/dlenv/staging" 2>/dev/null | wc -l)" 0

# Across layers: the first makes a link out, the second writes through it.
layout=$scratch/evil-layers
layer=$(hostile_layout "$layout" evil "s('usr', '$outside')" "f('usr/pwned', b'x')")
build_on "oci:$layout:evil"
expect_eq "a link made by a lower layer: build exits 2" "$rc" 2
expect_eq "a link made by a lower layer: the refusal" "$refusal_of" \
  "dlenv: base image oci:$layout:evil: layer 2 ${layer:0:19}: apply layer $layer: usr/pwned: goes through the symbolic link usr -> $outside, which leads out of the root"

# The same refusal from a `docker save` archive.
skopeo copy --quiet "oci:$scratch/evil-3:evil" "docker-archive:$scratch/evil.tar:evil:latest" >/dev/null
build_on "docker-archive:$scratch/evil.tar"
expect_eq "a hostile docker archive: build exits 2" "$rc" 2
expect_eq "a hostile docker archive: the refusal names the entry" \
  "$(sed 's/.*: apply layer sha256:[0-9a-f]*: //' <<<"$refusal_of")" \
  "link/pwned: goes through the symbolic link link -> $outside, which leads out of the root"
expect_eq "no image was tagged" "$("$dlenv" images --store "$store" --json | python3 -c 'import json,sys; print(sorted({i["name"] for i in json.load(sys.stdin)}))')" "['quickstart']"

# A pull refuses the same image and tags nothing.
start_registry "$scratch/registry"
skopeo copy --quiet --dest-tls-verify=false "oci:$scratch/evil-3:evil" "docker://127.0.0.1:$registry_port/evil:1" >/dev/null
set +e
message=$("$dlenv" pull "127.0.0.1:$registry_port/evil:1" --store "$store" --insecure 2>&1 >/dev/null)
rc=$?
set -e
expect_eq "a hostile pull exits 2" "$rc" 2
expect_eq "a hostile pull names the entry" "$(grep "^dlenv:" <<<"$message" | sed 's/.*: apply layer sha256:[0-9a-f]*: //')" \
  "link/pwned: goes through the symbolic link link -> $outside, which leads out of the root"
expect_eq "the pull tagged nothing" "$("$dlenv" images --store "$store" --json | python3 -c 'import json,sys; print(sorted({i["name"] for i in json.load(sys.stdin)}))')" "['quickstart']"
expect_eq "still nothing outside" "$(ls -A "$outside" | wc -l)" 0

# A sound base is checked once, in a store that never saw it: the record names its manifest.
fresh=$scratch/fresh/.dlenv
"$dlenv" build "$lock" --store "$fresh" --base "docker-archive:$scratch/store/quickstart-base.tar" >/dev/null
records=$(ls "$fresh/dlenv/checked")
expect_eq "one base is remembered" "$(wc -l <<<"$records")" 1
expect_eq "by its manifest's digest" "$(cat "$fresh/dlenv/checked/$records")" "sha256:${records#sha256-}"
expect_eq "the manifest is in the store" "$(test -f "$fresh/blobs/sha256/${records#sha256-}" && echo yes)" yes
