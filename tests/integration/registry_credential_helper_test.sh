#!/usr/bin/env bash
# dlenv logs in through a Docker credential helper, as ECR, GCR and ACR users do: a
# config.json whose credsStore is "pass" makes it run the real docker-credential-pass
# (Debian's golang-docker-credential-helpers) over a password store a throwaway GPG key
# encrypts, and push to a registry behind htpasswd without ever printing the password.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"
for tool in docker-credential-pass pass gpg gpgconf docker-registry htpasswd; do
  command -v "$tool" >/dev/null || { echo "skipped: no $tool"; exit 77; }
done

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)

password=Pa55-in-the-Store
htpasswd -Bbn carol "$password" >"$scratch/htpasswd"
start_registry "$scratch/registry" "$(printf 'auth:\n  htpasswd:\n    realm: dlenv-tests\n    path: %s' "$scratch/htpasswd")"
remote=127.0.0.1:$registry_port

# A password store of this test's own: a GPG key without a passphrase encrypts it.
export GNUPGHOME=$scratch/gnupg PASSWORD_STORE_DIR=$scratch/password-store
mkdir -m 700 "$GNUPGHOME"
trap 'gpgconf --kill gpg-agent 2>/dev/null; stop_registry; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
gpg --batch --quiet --passphrase '' --quick-gen-key "dlenv tests <tests@dlenv.invalid>" default default never 2>/dev/null
key=$(gpg --list-keys --with-colons | awk -F: '/^fpr/ { print $10; exit }')
pass init "$key" >/dev/null
printf '{"ServerURL": "%s", "Username": "carol", "Secret": "%s"}' "$remote" "$password" | docker-credential-pass store
expect_eq "the password store holds the registry's login" \
  "$(printf '%s' "$remote" | docker-credential-pass get | python3 -c 'import json, sys; print(json.load(sys.stdin)["Username"])')" \
  "carol"

unset DLENV_REGISTRY_AUTH
export DOCKER_CONFIG=$scratch/docker
mkdir -p "$DOCKER_CONFIG"
echo '{"credsStore": "pass"}' >"$DOCKER_CONFIG/config.json"

set +e
"$dlenv" push quickstart "$remote/team/app:v1" --store "$store" --insecure --json >"$scratch/push.json" 2>"$scratch/push.err"
status=$?
set -e
expect_eq "a push with the helper's credentials succeeds" "$status" "0"
expect_eq "it pushed the store's image" \
  "$(python3 -c 'import json, sys; print(json.load(sys.stdin)["pushed"][0]["digest"])' <"$scratch/push.json")" "$digest"
expect_eq "the registry has it under the tag" \
  "$(curl -s -u "carol:$password" -H 'Accept: application/vnd.oci.image.manifest.v1+json' \
    -o /dev/null -w '%{http_code}' "http://$remote/v2/team/app/manifests/v1")" "200"
expect_eq "no output shows the password" "$(cat "$scratch/push.json" "$scratch/push.err" | grep -c -e "$password" || true)" "0"

# The same store without this registry's login: anonymous, which the registry refuses.
printf '%s' "$remote" | docker-credential-pass erase
set +e
"$dlenv" push quickstart "$remote/team/app:v2" --store "$store" --insecure >/dev/null 2>"$scratch/anonymous.err"
status=$?
set -e
expect_eq "without a login in the store the push exits 3" "$status" "3"
expect_eq "it says the registry needs credentials" "$(grep '^dlenv:' "$scratch/anonymous.err")" \
  "dlenv: $remote needs credentials"

# A helper that is not installed is named, with what to do.
echo '{"credsStore": "absent-helper"}' >"$DOCKER_CONFIG/config.json"
set +e
"$dlenv" push quickstart "$remote/team/app:v3" --store "$store" --insecure >/dev/null 2>"$scratch/absent.err"
status=$?
set -e
expect_eq "a missing helper exits 3" "$status" "3"
expect_eq "it names the helper and the field" "$(grep '^dlenv:' "$scratch/absent.err")" \
  "dlenv: docker-credential-absent-helper ($DOCKER_CONFIG/config.json: credsStore) cannot be run"
