#!/usr/bin/env bash
# The same lockfile built twice, in two stores, at different times, gives the same
# manifest digest; a rebuild of an unchanged lock reuses every layer it made; zstd
# layers make another image, and the gzip one becomes rollback.
source "$(dirname "$0")/lib.sh"

build_quickstart "$scratch/one/.dlenv"
first=$(image_digest "$scratch/one/.dlenv" quickstart latest)

sleep 1.1
cp "$scratch/one/quickstart-base.tar" "$scratch/base-elsewhere.tar"
"$dlenv" build "$scratch/one/quickstart.lock.json" --store "$scratch/two/.dlenv" \
  --base "docker-archive:$scratch/base-elsewhere.tar" >/dev/null
expect_eq "a second store, a second later, the base from elsewhere, the same image" "$(image_digest "$scratch/two/.dlenv" quickstart latest)" "$first"

rebuilt=$("$dlenv" build "$scratch/one/quickstart.lock.json" --store "$scratch/one/.dlenv" \
  --base "docker-archive:$scratch/one/quickstart-base.tar" --json)
expect_eq "a rebuild reuses every layer" \
  "$(python3 -c 'import json,sys; print([l["reused"] for l in json.load(sys.stdin)["layers"]])' <<<"$rebuilt")" "[True, True]"
expect_eq "a rebuild moves no tag" "$(python3 -c 'import json,sys; print(json.load(sys.stdin)["moved"])' <<<"$rebuilt")" "[]"

zstd_digest=$("$dlenv" build "$scratch/one/quickstart.lock.json" --store "$scratch/one/.dlenv" --compression zstd \
  --base "docker-archive:$scratch/one/quickstart-base.tar" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["digest"])')
[[ "$zstd_digest" != "$first" ]] || fail "zstd layers gave the gzip image's digest"
expect_eq "the gzip image became rollback" "$(image_digest "$scratch/one/.dlenv" quickstart rollback)" "$first"
