#!/usr/bin/env bash
# A registry that dies in the middle of a chunked push and comes back: the push resumes
# where the registry says the upload stands, and the image arrives with its digest.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"

# A `docker save` archive whose one layer holds 384 MiB of random bytes.
archive=$scratch/archive
mkdir -p "$archive" "$scratch/content"
head -c $((384 << 20)) /dev/urandom >"$scratch/content/weights.bin"
tar -cf "$scratch/layer.tar" -C "$scratch/content" weights.bin
diff_id=$(sha256sum "$scratch/layer.tar" | cut -d' ' -f1)
mkdir "$archive/$diff_id"
mv "$scratch/layer.tar" "$archive/$diff_id/layer.tar"
printf '{"architecture":"amd64","os":"linux","config":{},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
  "$diff_id" >"$scratch/config.json"
config=$(sha256sum "$scratch/config.json" | cut -d' ' -f1)
mv "$scratch/config.json" "$archive/$config.json"
printf '[{"Config":"%s.json","RepoTags":["big:latest"],"Layers":["%s/layer.tar"]}]' "$config" "$diff_id" \
  >"$archive/manifest.json"
tar -cf "$scratch/big.tar" -C "$archive" .
rm -rf "$archive" "$scratch/content"
"$dlenv" build "$scratch/store/quickstart.lock.json" --store "$store" --name big \
  --base "docker-archive:$scratch/big.tar" >/dev/null
digest=$(image_digest "$store" big latest)

start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port
"$dlenv" push big "$remote/team/big:v1" --store "$store" --insecure --chunk-size 8 --json \
  >"$scratch/push.json" 2>"$scratch/push.err" &
push=$!

# Kill the registry once it holds 64 MiB of the upload, and bring it back a second later.
uploads=$scratch/registry/storage/docker/registry/v2/repositories/team/big/_uploads
for _ in $(seq 600); do
  held=$({ find "$uploads" -name data -printf '%s\n' 2>/dev/null || true; } | sort -n | tail -1)
  [[ "${held:-0}" -ge $((64 << 20)) ]] && break
  sleep 0.05
done
[[ "${held:-0}" -ge $((64 << 20)) ]] || fail "the upload never reached 64 MiB: $(cat "$scratch/push.err")"
stop_registry
lines_before=$(wc -l <"$registry_log")
sleep 1
start_registry "$scratch/registry"

wait "$push" || fail "the push did not survive the restart: $(cat "$scratch/push.err")"
echo "ok: the push survived a registry restart at $((held >> 20)) MiB"
expect_eq "the pushed manifest keeps the digest" \
  "sha256:$(skopeo inspect --tls-verify=false --raw "docker://$remote/team/big:v1" | sha256sum | cut -d' ' -f1)" "$digest"
resumed=$(tail -n +"$((lines_before + 1))" "$registry_log" | grep -c '"GET /v2/team/big/blobs/uploads/' || true)
[[ "$resumed" -ge 1 ]] || fail "the push did not ask the registry where the upload stood"
echo "ok: the push asked where the upload stood ($resumed status requests)"
# The reference registry forgets an upload whose file holds part of a chunk past the last
# acknowledged offset (distribution 2.8: "upload resumed at wrong offset"); the client then
# starts that blob again, once. Killed between chunks, it resumes with no new upload.
# Only the image's blobs count: its lock and SBOM go up after its manifest, as new uploads.
restarted=$(tail -n +"$((lines_before + 1))" "$registry_log" | sed '/"PUT \/v2\/team\/big\/manifests\/v1 /q' |
  grep -c '"POST /v2/team/big/blobs/uploads/' || true)
forgotten=$(tail -n +"$((lines_before + 1))" "$registry_log" | grep -c 'upload resumed at wrong offest' || true)
expect_eq "a new upload starts only when the registry forgot the old one" "$restarted" "$forgotten"
