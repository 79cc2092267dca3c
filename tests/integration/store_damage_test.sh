#!/usr/bin/env bash
# What a damaged store does, as users meet it: `promote` refuses an image one of whose
# blobs went missing or bad after it passed its verification, naming the blob, and
# accepts it once a build repaired it; with dlenv/refs.json gone, `images` still shows
# the tags index.json lists, `fsck` reports the loss, a build keeps them and `gc` keeps
# their blobs; `gc` removes the temporary files killed writers left.
source "$(dirname "$0")/lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"

# An image whose lock requires only the static tier, so it can be promoted here.
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/static.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
profile["name"] = "static"
profile["validation"] = {"tiers": ["static"]}
profile["files"] = [{"source": "hello.sh", "target": "/app/hello.sh", "mode": "0755"}]
json.dump(profile, open(sys.argv[2], "w"))
PY
cp "$source_dir/examples/quickstart/app/hello.sh" "$scratch/"
"$dlenv" lock "$scratch/static.json" -o "$scratch/static.lock.json" --offline >/dev/null
build() { "$dlenv" build "$scratch/static.lock.json" --store "$store" --base "docker-archive:$scratch/store/quickstart-base.tar" >/dev/null; }
build
digest=$(image_digest "$store" static latest)
"$dlenv" verify static --store "$store" --tier static >/dev/null

# The first layer of the image's manifest: the base's.
base_layer=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["layers"][0]["digest"])' \
  "$store/blobs/sha256/${digest#sha256:}")
blob=$store/blobs/sha256/${base_layer#sha256:}
promote_error() {
  set +e
  "$dlenv" promote static --store "$store" 2>&1 >/dev/null
  echo "rc=$?"
  set -e
}
hint="  hint: build or pull the image again (the same digest keeps its verifications), then promote it; \`dlenv fsck\` lists every damaged blob"

chmod u+w "$blob"
python3 -c 'import sys; f=open(sys.argv[1], "r+b"); f.seek(4096); b=f.read(1); f.seek(4096); f.write(bytes([b[0] ^ 1]))' "$blob"
expect_eq "promote refuses a base layer whose bytes changed" "$(promote_error)" \
  "dlenv: static:latest cannot be promoted: manifest ${digest:0:19} -> $base_layer: blob $blob does not match its digest
$hint
rc=1"
rm -f "$blob"
expect_eq "promote refuses a missing base layer" "$(promote_error)" \
  "dlenv: static:latest cannot be promoted: manifest ${digest:0:19} -> $base_layer: missing blob $base_layer
$hint
rc=1"
expect_eq "production did not move" "$(image_digest "$store" static production)" none
build
"$dlenv" promote static --store "$store" >/dev/null
expect_eq "the rebuilt image is promoted" "$(image_digest "$store" static production)" "$digest"

# refs.json lost: the tags index.json lists are taken back.
rm "$store/dlenv/refs.json"
expect_eq "images shows the tags index.json lists" \
  "$("$dlenv" images --store "$store" --json | python3 -c 'import json,sys; print(" ".join(i["name"]+":"+i["tag"] for i in json.load(sys.stdin)))')" \
  "quickstart:latest static:latest static:production"
set +e
report=$("$dlenv" fsck --store "$store")
rc=$?
set -e
expect_eq "fsck reports the loss and exits 1" "$(head -1 <<<"$report") rc=$rc" \
  "problem: dlenv/refs.json is missing (its history is lost): took quickstart:latest, static:latest, static:production back from index.json; the next build, promote, rollback or gc records them rc=1"
hello_changed() { echo 'echo changed' >>"$scratch/hello.sh"; "$dlenv" lock "$scratch/static.json" -o "$scratch/static.lock.json" --offline >/dev/null; }
hello_changed
build
expect_eq "the build moved latest and kept production" \
  "$(image_digest "$store" static rollback) $(image_digest "$store" static production)" "$digest $digest"
hello_changed
build
"$dlenv" gc --store "$store" --keep 0 >/dev/null
expect_eq "gc kept production's blobs" \
  "$(skopeo inspect --raw "oci:$store:static:production" | sha256sum | cut -d' ' -f1)" "${digest#sha256:}"
"$dlenv" fsck --store "$store" >/dev/null || fail "fsck after the tags were recorded again"
expect_eq "the history says what was taken back" \
  "$("$dlenv" history static --store "$store" --json | python3 -c 'import json,sys; print(" ".join(e["action"]+"("+",".join(m["tag"] for m in e["moved"])+")" for e in json.load(sys.stdin)))')" \
  "recover(latest) recover(production) build(rollback,latest) build(rollback,latest)"

# Temporary files of writers killed half-way.
touch "$store/.index.json.tmp-Ab12Cd" "$store/dlenv/.refs.json.tmp-Xy34Zw"
"$dlenv" gc --store "$store" >/dev/null
expect_eq "gc removed the temporary index.json and refs.json" \
  "$(find "$store" -name '.*.tmp-*' | wc -l)" 0
