#!/usr/bin/env bash
# dlenv pushes to and pulls from the reference registry (anonymous, plain HTTP), and skopeo,
# which no one here wrote, reads what it pushed.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port

"$dlenv" push quickstart "$remote/team/quickstart:v1" --store "$store" --insecure --json >"$scratch/push.json"
expect_eq "push reports the store's digest" "$(json_field 'j["pushed"][0]["digest"]' <"$scratch/push.json")" "$digest"
expect_eq "every blob of the first push is uploaded" \
  "$(json_field '",".join(sorted({b["state"] for b in j["pushed"][0]["blobs"]}))' <"$scratch/push.json")" "transferred"
inspected=$(skopeo inspect --tls-verify=false --raw "docker://$remote/team/quickstart:v1" | sha256sum | cut -d' ' -f1)
expect_eq "skopeo reads the manifest dlenv pushed" "sha256:$inspected" "$digest"

uploads_before=$(count_requests POST /v2/team/quickstart/blobs/uploads/)
"$dlenv" push quickstart "$remote/team/quickstart:v1" --store "$store" --insecure --json >"$scratch/repush.json"
expect_eq "a re-push finds every blob there" \
  "$(json_field '",".join(sorted({b["state"] for b in j["pushed"][0]["blobs"]}))' <"$scratch/repush.json")" "present"
expect_eq "a re-push starts no upload" "$(count_requests POST /v2/team/quickstart/blobs/uploads/)" "$uploads_before"

"$dlenv" push quickstart "$remote/team/other:v1" --store "$store" --insecure --mount-from team/quickstart \
  --json >"$scratch/mount.json"
expect_eq "blobs of another repository are mounted, not uploaded" \
  "$(json_field '",".join(sorted({b["state"] for b in j["pushed"][0]["blobs"]}))' <"$scratch/mount.json")" "mounted"

"$dlenv" push quickstart "$remote/team/chunked:v1" --store "$store" --insecure --chunk-size 1 >/dev/null
chunks=$(count_requests PATCH /v2/team/chunked/blobs/uploads/)
[[ "$chunks" -gt 1 ]] || fail "a push in 1 MiB chunks sent $chunks PATCH requests"
echo "ok: a push in 1 MiB chunks sends $chunks PATCH requests"
inspected=$(skopeo inspect --tls-verify=false --raw "docker://$remote/team/chunked:v1" | sha256sum | cut -d' ' -f1)
expect_eq "the chunked push keeps the digest" "sha256:$inspected" "$digest"

pulled=$scratch/pulled/.dlenv
"$dlenv" pull "$remote/team/quickstart:v1" --store "$pulled" --insecure --json >"$scratch/pull.json"
expect_eq "pull gives the same digest" "$(json_field 'j["digest"]' <"$scratch/pull.json")" "$digest"
expect_eq "the pulled image is tagged in the store" "$(image_digest "$pulled" "$remote/team/quickstart" v1)" "$digest"
"$dlenv" fsck --store "$pulled" >/dev/null || fail "fsck of the pulled store"
echo "ok: fsck passes on the pulled store"
"$dlenv" pull "$remote/team/quickstart@$digest" --store "$pulled" --insecure --json >"$scratch/pull-digest.json"
expect_eq "a pull by digest finds every blob there" \
  "$(json_field '",".join(sorted({b["state"] for b in j["blobs"]}))' <"$scratch/pull-digest.json")" "present"
expect_eq "a pull by digest is tagged by it" \
  "$(image_digest "$pulled" "$remote/team/quickstart" "sha256-${digest#sha256:}")" "$digest"

"$dlenv" push "$remote/team/quickstart" "$remote/team/alltags" --store "$pulled" --insecure --all-tags >/dev/null
expect_eq "--all-tags pushes every tag under its own name" \
  "$(skopeo list-tags --tls-verify=false "docker://$remote/team/alltags" | json_field '" ".join(sorted(j["Tags"]))')" \
  "sha256-${digest#sha256:} v1"

skopeo copy --quiet --dest-tls-verify=false "oci:$store:quickstart:latest" "docker://$remote/team/fromskopeo:v1"
"$dlenv" pull "$remote/team/fromskopeo:v1" --store "$scratch/fromskopeo" --insecure >/dev/null
expect_eq "dlenv pulls what skopeo pushed" "$(image_digest "$scratch/fromskopeo" "$remote/team/fromskopeo" v1)" \
  "$(skopeo inspect --tls-verify=false --raw "docker://$remote/team/fromskopeo:v1" | sha256sum | sed 's/^/sha256:/; s/ .*//')"

# A blob whose bytes no longer match its digest is refused and not stored.
layer=$(skopeo inspect --tls-verify=false --raw "docker://$remote/team/quickstart:v1" | json_field 'j["layers"][-1]["digest"]')
data=$scratch/registry/storage/docker/registry/v2/blobs/sha256/${layer:7:2}/${layer#sha256:}/data
printf 'X' | dd of="$data" bs=1 seek=100 conv=notrunc status=none
set +e
"$dlenv" pull "$remote/team/quickstart:v1" --store "$scratch/tampered" --insecure 2>"$scratch/tampered.err"
status=$?
set -e
expect_eq "a tampered blob fails the pull" "$status" "1"
grep -q "${layer#sha256:}" "$scratch/tampered.err" || fail "the error names the blob: $(cat "$scratch/tampered.err")"
echo "ok: the error names the tampered blob"
expect_eq "the tampered blob is not stored" "$(test -e "$scratch/tampered/blobs/sha256/${layer#sha256:}" && echo yes || echo no)" "no"

set +e
"$dlenv" pull "$remote/team/missing:v1" --store "$scratch/missing" --insecure 2>"$scratch/missing.err"
status=$?
set -e
expect_eq "an unknown repository exits 2" "$status" "2"
