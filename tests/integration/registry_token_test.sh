#!/usr/bin/env bash
# dlenv authenticates to the reference registry with bearer tokens from a token service
# (tests/integration/token_server.py): it asks for exactly the scopes it needs, sends
# Basic credentials only to the token service, keeps a token while it is valid, renews it
# before it expires and when the registry refuses it, and explains a refusal without
# printing the password.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
password=Tok3n-Pa55word
wrong_password=Wr0ng-Pa55word
start_token_server "$scratch/token" "alice:$password"
start_registry "$scratch/registry" "$(token_auth_yaml "$scratch/token")"
remote=127.0.0.1:$registry_port

# The token requests logged since the log had $1 lines, one "credentials scope scope..."
# line each.
tokens_since() { # tokens_since LINES
  tail -n +$(($1 + 1)) "$token_log" | python3 -c '
import json, sys
for line in sys.stdin:
    j = json.loads(line)
    print(j["credentials"], " ".join(j["scopes"]))'
}
token_lines() { wc -l <"$token_log"; }
# The requests the registry logged for a repository, and those of them it answered 401.
repository_requests() { grep -c "\"[A-Z]* /v2/$1/" "$registry_log" || true; }
repository_refusals() { grep -c "\"[A-Z]* /v2/$1/[^\"]*\" 401 " "$registry_log" || true; }
blob_states() { json_field '",".join(sorted({b["state"] for b in j["pushed"][0]["blobs"]}))'; }

before=$(token_lines)
DLENV_REGISTRY_AUTH=alice:$password "$dlenv" push quickstart "$remote/team/app:v1" --store "$store" --insecure \
  --json >"$scratch/push.json"
expect_eq "an authenticated push reports the store's digest" \
  "$(json_field 'j["pushed"][0]["digest"]' <"$scratch/push.json")" "$digest"
expect_eq "the push asks for one token, for pull and push on its repository, with the credentials" \
  "$(tokens_since "$before")" "right repository:team/app:pull,push"
inspected=$(skopeo inspect --tls-verify=false --creds "alice:$password" --raw "docker://$remote/team/app:v1" |
  sha256sum | cut -d' ' -f1)
expect_eq "skopeo, through the same token service, reads the manifest dlenv pushed" "sha256:$inspected" "$digest"

before=$(token_lines)
"$dlenv" pull "$remote/team/app:v1" --store "$scratch/pulled" --insecure --json >"$scratch/pull.json"
expect_eq "an anonymous pull gives the same digest" "$(json_field 'j["digest"]' <"$scratch/pull.json")" "$digest"
expect_eq "the pull asks for a pull token without credentials" \
  "$(tokens_since "$before")" "none repository:team/app:pull"

# Without credentials the token service grants only pull, so the registry refuses the
# manifest; dlenv asks once more for a token, and then names what is missing.
before=$(token_lines)
set +e
"$dlenv" push quickstart "$remote/team/app:v2" --store "$store" --insecure >"$scratch/anonymous.out" \
  2>"$scratch/anonymous.err"
status=$?
set -e
expect_eq "a push without credentials exits 3" "$status" "3"
expect_eq "it says the registry needs credentials" "$(grep "^dlenv:" "$scratch/anonymous.err")" \
  "dlenv: $remote needs credentials"
expect_eq "it asks for a token once, and once more after the refusal" "$(tokens_since "$before")" \
  "$(printf 'none repository:team/app:pull,push\nnone repository:team/app:pull,push')"

set +e
DLENV_REGISTRY_AUTH=alice:$wrong_password "$dlenv" push quickstart "$remote/team/app:v3" --store "$store" \
  --insecure >"$scratch/wrong.out" 2>"$scratch/wrong.err"
status=$?
set -e
expect_eq "a push with a wrong password exits 3" "$status" "3"
expect_eq "it says the credentials were refused" "$(grep "^dlenv:" "$scratch/wrong.err")" \
  "dlenv: $remote refused the credentials from DLENV_REGISTRY_AUTH"
expect_eq "no output shows the password" \
  "$(cat "$scratch/wrong.out" "$scratch/wrong.err" | grep -c -e "$wrong_password" -e "$password" || true)" "0"

before=$(token_lines)
DLENV_REGISTRY_AUTH=alice:$password "$dlenv" push quickstart "$remote/team/copy:v1" --store "$store" --insecure \
  --mount-from team/app --json >"$scratch/mount.json"
expect_eq "a push that mounts from another repository mounts every blob" "$(blob_states <"$scratch/mount.json")" "mounted"
expect_eq "its blob token also grants pull on the repository mounted from" "$(tokens_since "$before" | sort -u)" \
  "$(printf 'right repository:team/copy:pull,push\nright repository:team/copy:pull,push repository:team/app:pull')"

# Tokens are renewed 10 s before they expire: one that lasts 10 s is stale at once, so each
# request to the registry gets a new one, where a 300 s token serves the whole push.
echo '{"expires_in": 10}' >"$token_settings"
before=$(token_lines)
DLENV_REGISTRY_AUTH=alice:$password "$dlenv" push quickstart "$remote/team/short:v1" --store "$store" --insecure \
  >/dev/null
requests=$(repository_requests team/short)
[[ "$requests" -gt 4 ]] || fail "the push to team/short sent only $requests requests"
expect_eq "with 10 s tokens, each of the $requests requests of the push gets a new token" \
  "$(tokens_since "$before" | grep -c -E "^right repository:team/short:pull(,push)?$")" "$requests"
echo '{"expires_in": 300}' >"$token_settings"
before=$(token_lines)
DLENV_REGISTRY_AUTH=alice:$password "$dlenv" push quickstart "$remote/team/long:v1" --store "$store" --insecure \
  >/dev/null
expect_eq "with 300 s tokens, the push to a new repository asks for one" "$(tokens_since "$before")" \
  "right repository:team/long:pull,push"

# A token the registry holds expired (its clocks disagree) is refused with 401: dlenv
# gets a new one and goes on. Blobs go up in parallel, so several requests may carry the
# stale token; each refusal costs exactly one new token.
issued=$(grep -vc '"credentials": "wrong"' "$token_log")
echo "{\"expires_in\": 300, \"stale_through\": $((issued + 1))}" >"$token_settings"
before=$(token_lines)
DLENV_REGISTRY_AUTH=alice:$password "$dlenv" push quickstart "$remote/team/stale:v1" --store "$store" --insecure \
  --json >"$scratch/stale.json"
expect_eq "a push whose first token the registry finds expired succeeds" \
  "$(json_field 'j["pushed"][0]["digest"]' <"$scratch/stale.json")" "$digest"
refusals=$(repository_refusals team/stale)
[[ "$refusals" -ge 1 ]] || fail "the registry never refused the expired token"
expect_eq "after each of the $refusals refusals of the expired token dlenv asked for a new one" \
  "$(tokens_since "$before" | sort | uniq -c | sed 's/^ *//')" "$((refusals + 1)) right repository:team/stale:pull,push"
