#!/usr/bin/env bash
# dlenv pushes and pulls through a proxy that breaks requests (tests/integration/fault_proxy.py)
# in front of the reference registry. Answers that pass (5xx, 429 with Retry-After,
# connections dropped mid-body) end in success with the exact bytes; altered or truncated
# content ends in a clear failure that stores nothing, moves no tag and leaves nothing
# behind; a registry that refuses connections is given up at once.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
start_registry "$scratch/registry"
start_fault_proxy "$scratch/proxy"
remote=127.0.0.1:$proxy_port
direct=http://127.0.0.1:$registry_port
accept=application/vnd.oci.image.manifest.v1+json

# The digest the registry itself holds for REPOSITORY:TAG, or "none".
registry_digest() { # registry_digest REPOSITORY TAG
  if curl -sf -H "Accept: $accept" -o "$scratch/manifest" "$direct/v2/$1/manifests/$2"; then
    echo "sha256:$(sha256sum <"$scratch/manifest" | cut -d' ' -f1)"
  else
    echo none
  fi
}

# Runs dlenv with ARGS, keeping its exit status in $status and its stderr in $scratch/err.
run_dlenv() { # run_dlenv ARGS...
  set +e
  "$dlenv" "$@" >"$scratch/out" 2>"$scratch/err"
  status=$?
  set -e
}

# The last run_dlenv exited STATUS; its stderr is shown when it did not.
expect_status() { # expect_status WHAT STATUS
  [[ "$status" == "$2" ]] || fail "$1: exit $status, expected $2: $(cat "$scratch/err")"
  echo "ok: $1"
}

# Every fault of the list now injected has been used: the proxy logged one request for each.
expect_faults_used() { # expect_faults_used WHAT COUNT
  expect_eq "$1: every fault was injected" "$(grep -vc '"fault": null' "$proxy_log")" "$2"
  : >"$proxy_log"
}

# STORE passes fsck and holds no temporary file.
expect_clean_store() { # expect_clean_store WHAT STORE
  "$dlenv" fsck --store "$2" >/dev/null || fail "$1: fsck of $2"
  expect_eq "$1: no temporary file is left in the store" "$(find "$2" -name '.*.tmp-*' | wc -l)" "0"
}

# Every blob the registry holds has the digest it is stored under.
expect_registry_blobs_intact() { # expect_registry_blobs_intact WHAT
  local data bad=0
  while read -r data; do
    [[ "$(sha256sum "$data" | cut -d' ' -f1)" == "$(basename "$(dirname "$data")")" ]] || bad=$((bad + 1))
  done < <(find "$scratch/registry/storage/docker/registry/v2/blobs" -name data)
  expect_eq "$1: every blob in the registry has its digest" "$bad" "0"
}

# The digests of the image manifests among STORE's blobs, one a line.
stored_manifests() { # stored_manifests STORE
  python3 - "$1/blobs/sha256" <<'PY'
import json, os, sys
for name in sorted(os.listdir(sys.argv[1])):
    try:
        document = json.loads(open(os.path.join(sys.argv[1], name), "rb").read())
        if isinstance(document, dict) and "layers" in document:
            print("sha256:" + name)
    except ValueError:
        pass
PY
}

# --- push -------------------------------------------------------------------------------
inject_faults '[{"method": "GET", "path": "^/v2/$", "fault": "status", "status": 503},
  {"method": "HEAD", "path": "/blobs/", "fault": "status", "status": 500},
  {"method": "POST", "path": "/blobs/uploads/", "fault": "status", "status": 429, "retry_after": 1},
  {"method": "PUT", "path": "/blobs/uploads/", "fault": "drop"},
  {"method": "PUT", "path": "/blobs/uploads/", "fault": "status", "status": 502},
  {"method": "PUT", "path": "/manifests/v1$", "fault": "status", "status": 503}]'
run_dlenv push quickstart "$remote/team/push:v1" --store "$store" --insecure
expect_status "a push through passing faults succeeds" "0"
expect_faults_used "the push" 6
expect_eq "the registry holds the pushed manifest" "$(registry_digest team/push v1)" "$digest"

inject_faults '[{"method": "PATCH", "path": "/blobs/uploads/", "fault": "drop"},
  {"method": "PATCH", "path": "/blobs/uploads/", "fault": "status", "status": 500}]'
run_dlenv push quickstart "$remote/team/chunked:v1" --store "$store" --insecure --chunk-size 1
expect_status "a chunked push through a dropped and a failed chunk succeeds" "0"
expect_faults_used "the chunked push" 2
expect_eq "the registry holds the chunked push's manifest" "$(registry_digest team/chunked v1)" "$digest"
expect_registry_blobs_intact "after the pushes"

# The registry checks what it receives against the digest, so a blob altered once on its
# way up is refused and sent again; one altered every time ends the push.
inject_faults '[{"method": "PUT", "path": "/blobs/uploads/", "fault": "flip"},
  {"method": "PUT", "path": "/blobs/uploads/", "fault": "truncate"}]'
run_dlenv push quickstart "$remote/team/resent:v1" --store "$store" --insecure
expect_status "a push whose blobs are altered once succeeds" "0"
expect_faults_used "the push of blobs altered once" 2
expect_eq "the registry holds the manifest of blobs altered once" "$(registry_digest team/resent v1)" "$digest"
inject_faults '[{"method": "PUT", "path": "/blobs/uploads/", "fault": "flip", "times": 100}]'
run_dlenv push quickstart "$remote/team/altered:v1" --store "$store" --insecure
expect_status "a push whose blobs are altered every time fails" "3"
grep -q "^dlenv: upload blob sha256:[0-9a-f]* to $remote/team/altered: the registry answered 400 (DIGEST_INVALID" \
  "$scratch/err" || fail "the error names the blob and the registry's answer: $(cat "$scratch/err")"
expect_eq "no tag is pushed when the blobs are altered" "$(registry_digest team/altered v1)" none
: >"$proxy_log"
inject_faults '[{"method": "PUT", "path": "/manifests/", "fault": "flip", "at": "\"layers\""},
  {"method": "PUT", "path": "/manifests/", "fault": "truncate"}]'
for fault in flip truncate; do
  run_dlenv push quickstart "$remote/team/$fault-manifest:v1" --store "$store" --insecure
  expect_status "a push whose manifest is altered ($fault) fails" "3"
  grep -q "^dlenv: push manifest $digest as $remote/team/$fault-manifest:v1: the registry answered 400" \
    "$scratch/err" || fail "the error names the manifest: $(cat "$scratch/err")"
  expect_eq "no tag is pushed when the manifest is altered ($fault)" "$(registry_digest "team/$fault-manifest" v1)" none
done
expect_faults_used "the altered pushes" 2
expect_registry_blobs_intact "after the altered pushes"

# --- pull -------------------------------------------------------------------------------
layer=$(curl -sf -H "Accept: $accept" "$direct/v2/team/push/manifests/v1" | json_field 'j["layers"][-1]["digest"]')
pulled=$scratch/pulled/.dlenv
inject_faults '[{"method": "GET", "path": "/manifests/v1$", "fault": "status", "status": 503},
  {"method": "GET", "path": "/manifests/v1$", "fault": "drop"},
  {"method": "GET", "path": "/blobs/sha256:", "fault": "status", "status": 429, "retry_after": 1},
  {"method": "GET", "path": "/blobs/sha256:", "fault": "drop"},
  {"method": "GET", "path": "/blobs/'$layer'$", "fault": "drop"},
  {"method": "GET", "path": "/blobs/sha256:", "fault": "status", "status": 500}]'
run_dlenv pull "$remote/team/push:v1" --store "$pulled" --insecure --json
expect_status "a pull through passing faults succeeds" "0"
expect_faults_used "the pull" 6
expect_eq "the pulled image has the pushed digest" "$(image_digest "$pulled" "$remote/team/push" v1)" "$digest"
expect_clean_store "after the pull" "$pulled"

# The registry's v1 moves to a new image (the same blobs, another title).
old=$digest
curl -sf -H "Accept: $accept" "$direct/v2/team/push/manifests/v1" |
  sed 's/"org.opencontainers.image.title":"quickstart"/&,"dev.dlenv.test":"new"/' >"$scratch/new.json"
new=sha256:$(sha256sum "$scratch/new.json" | cut -d' ' -f1)
[[ "$new" != "$old" ]] || fail "the new manifest is the old one"
curl -sf -X PUT -H "Content-Type: $accept" --data-binary "@$scratch/new.json" "$direct/v2/team/push/manifests/v1" \
  || fail "the new manifest could not be pushed"
inject_faults '[{"method": "GET", "path": "/manifests/v1$", "fault": "flip", "at": "quickstart"},
  {"method": "GET", "path": "/manifests/v1$", "fault": "truncate"}]'
for fault in flip truncate; do
  run_dlenv pull "$remote/team/push:v1" --store "$pulled" --insecure
  expect_status "a pull of an altered manifest ($fault) fails verification" "1"
  grep -q "^dlenv: $remote/team/push manifest v1: the registry sent bytes whose digest is sha256:[0-9a-f]*, but its Docker-Content-Digest says $new\$" \
    "$scratch/err" || fail "the error names both digests: $(cat "$scratch/err")"
  expect_eq "the tag stays where it was ($fault)" "$(image_digest "$pulled" "$remote/team/push" v1)" "$old"
  expect_eq "no altered manifest is stored ($fault)" "$(stored_manifests "$pulled")" "$old"
  expect_clean_store "after the altered manifest ($fault)" "$pulled"
done
expect_faults_used "the altered manifests" 2
run_dlenv pull "$remote/team/push:v1" --store "$pulled" --insecure
expect_status "the next pull succeeds" "0"
expect_eq "it moves the tag to the new image" "$(image_digest "$pulled" "$remote/team/push" v1)" "$new"

for fault in flip truncate; do
  fresh=$scratch/$fault/.dlenv
  inject_faults '[{"method": "GET", "path": "/blobs/'$layer'$", "fault": "'$fault'"}]'
  run_dlenv pull "$remote/team/chunked:v1" --store "$fresh" --insecure
  expect_status "a pull of an altered layer ($fault) fails verification" "1"
  grep -q "^dlenv: blob $layer of $remote/team/chunked: content is sha256:" "$scratch/err" ||
    fail "the error names the blob: $(cat "$scratch/err")"
  expect_eq "the altered layer is not stored ($fault)" "$(test -e "$fresh/blobs/sha256/${layer#sha256:}" && echo yes || echo no)" no
  expect_eq "no tag is made ($fault)" "$(image_digest "$fresh" "$remote/team/chunked" v1)" none
  expect_faults_used "the altered layer ($fault)" 1
  run_dlenv pull "$remote/team/chunked:v1" --store "$fresh" --insecure
  expect_status "the next pull succeeds ($fault)" "0"
  expect_eq "it gives the exact image ($fault)" "$(image_digest "$fresh" "$remote/team/chunked" v1)" "$digest"
  expect_clean_store "after the next pull ($fault)" "$fresh"
done

# --- a registry that refuses connections ------------------------------------------------
closed=127.0.0.1:$(free_port)
for command in "pull $closed/team/app:v1" "push quickstart $closed/team/app:v1"; do
  started=$(date +%s%N)
  run_dlenv $command --store "$store" --insecure
  took_ms=$((($(date +%s%N) - started) / 1000000))
  expect_status "${command%% *} to a refused port exits 3" "3"
  expect_eq "${command%% *} names the registry" "$(head -1 "$scratch/err")" \
    "dlenv: reach registry $closed: GET https://$closed/v2/: connection refused"
  [[ "$took_ms" -lt 2000 ]] || fail "${command%% *} took $took_ms ms to give up on a refused connection"
  echo "ok: ${command%% *} gives up on a refused connection in $took_ms ms"
done
