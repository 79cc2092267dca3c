#!/usr/bin/env bash
# dlenv pushes to and pulls from the reference registry over HTTPS, with a self-signed
# certificate and htpasswd Basic authentication: it refuses a certificate it cannot verify
# unless told to trust it (SSL_CERT_FILE) or the registry (--insecure), takes credentials
# from DLENV_REGISTRY_AUTH or a docker config.json, and never prints the password.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)

registry_tls_dir=$scratch/tls
mkdir -p "$registry_tls_dir"
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1" \
  -keyout "$registry_tls_dir/key.pem" -out "$registry_tls_dir/cert.pem" 2>/dev/null
password=Htpa55-Secret
wrong_password=Wr0ng-Secret
htpasswd -Bbn bob "$password" >"$scratch/htpasswd"
start_registry "$scratch/registry" "$(printf 'auth:\n  htpasswd:\n    realm: dlenv-tests\n    path: %s' "$scratch/htpasswd")"
remote=127.0.0.1:$registry_port

# No credentials or trusted certificates from this machine's environment.
unset DLENV_REGISTRY_AUTH SSL_CERT_FILE
export DOCKER_CONFIG=$scratch/no-docker-config

# Runs dlenv with the environment given before it, keeping stdout and stderr in
# $scratch/NAME.out and .err; prints the exit status.
run_dlenv() { # run_dlenv NAME [VAR=VALUE...] -- ARGS...
  local name=$1 vars=()
  shift
  while [[ "$1" != "--" ]]; do vars+=("$1"); shift; done
  shift
  set +e
  env "${vars[@]}" "$dlenv" "$@" >"$scratch/$name.out" 2>"$scratch/$name.err"
  echo $?
  set -e
}
message() { grep "^dlenv:" "$scratch/$1.err" || true; }
hint() { grep "^  hint:" "$scratch/$1.err" || true; }
shows_password() { cat "$scratch/$1.out" "$scratch/$1.err" | grep -c -e "$password" -e "$wrong_password" || true; }

status=$(run_dlenv untrusted DLENV_REGISTRY_AUTH="bob:$password" -- push quickstart "$remote/team/app:v1" --store "$store")
expect_eq "a push to a registry whose certificate is not trusted exits 3" "$status" "3"
[[ "$(message untrusted)" == *certificate* ]] || fail "the error does not mention the certificate: $(message untrusted)"
echo "ok: the error mentions the certificate"
[[ "$(hint untrusted)" == *--insecure* ]] || fail "the hint does not mention --insecure: $(hint untrusted)"
echo "ok: the hint mentions --insecure"

status=$(run_dlenv anonymous SSL_CERT_FILE="$registry_tls_dir/cert.pem" -- push quickstart "$remote/team/app:v1" \
  --store "$store")
expect_eq "a trusted push without credentials exits 3" "$status" "3"
expect_eq "it says the registry needs credentials" "$(message anonymous)" "dlenv: $remote needs credentials"

status=$(run_dlenv wrong SSL_CERT_FILE="$registry_tls_dir/cert.pem" DLENV_REGISTRY_AUTH="bob:$wrong_password" -- \
  push quickstart "$remote/team/app:v1" --store "$store")
expect_eq "a push with a wrong password exits 3" "$status" "3"
expect_eq "it says the credentials were refused" "$(message wrong)" \
  "dlenv: $remote refused the credentials from DLENV_REGISTRY_AUTH"
expect_eq "no output shows the password" "$(shows_password wrong)" "0"

status=$(run_dlenv pushed SSL_CERT_FILE="$registry_tls_dir/cert.pem" DLENV_REGISTRY_AUTH="bob:$password" -- \
  push quickstart "$remote/team/app:v1" --store "$store" --json)
expect_eq "a trusted push with the right credentials succeeds" "$status" "0"
expect_eq "it reports the store's digest" "$(json_field 'j["pushed"][0]["digest"]' <"$scratch/pushed.out")" "$digest"
expect_eq "no output of the push shows the password" "$(shows_password pushed)" "0"
mkdir -p "$scratch/skopeo-certs"
cp "$registry_tls_dir/cert.pem" "$scratch/skopeo-certs/ca.crt"
inspected=$(skopeo inspect --cert-dir "$scratch/skopeo-certs" --creds "bob:$password" --raw \
  "docker://$remote/team/app:v1" | sha256sum | cut -d' ' -f1)
expect_eq "skopeo, verifying the certificate, reads the manifest dlenv pushed" "sha256:$inspected" "$digest"

status=$(run_dlenv insecure DLENV_REGISTRY_AUTH="bob:$password" -- \
  push quickstart "$remote/team/app:v2" --store "$store" --insecure --json)
expect_eq "--insecure pushes without the certificate" "$status" "0"
expect_eq "it reports the store's digest" "$(json_field 'j["pushed"][0]["digest"]' <"$scratch/insecure.out")" "$digest"

# Credentials from a docker config.json, as `docker login` writes them.
mkdir -p "$scratch/docker"
printf '{"auths": {"%s": {"auth": "%s"}}}' "$remote" "$(printf 'bob:%s' "$password" | base64 -w0)" \
  >"$scratch/docker/config.json"
status=$(run_dlenv pulled SSL_CERT_FILE="$registry_tls_dir/cert.pem" DOCKER_CONFIG="$scratch/docker" -- \
  pull "$remote/team/app:v1" --store "$scratch/pulled" --json)
expect_eq "a pull with the credentials of config.json succeeds" "$status" "0"
expect_eq "it gives the store's digest" "$(json_field 'j["digest"]' <"$scratch/pulled.out")" "$digest"
expect_eq "the pulled image is tagged in the store" "$(image_digest "$scratch/pulled" "$remote/team/app" v1)" "$digest"
"$dlenv" fsck --store "$scratch/pulled" >/dev/null || fail "fsck of the pulled store"
echo "ok: fsck passes on the pulled store"

printf '{"auths": {"https://%s": {"auth": "%s"}}}' "$remote" "$(printf 'bob:%s' "$wrong_password" | base64 -w0)" \
  >"$scratch/docker/config.json"
status=$(run_dlenv refused-config SSL_CERT_FILE="$registry_tls_dir/cert.pem" DOCKER_CONFIG="$scratch/docker" -- \
  pull "$remote/team/app:v1" --store "$scratch/refused")
expect_eq "a pull with wrong credentials in config.json exits 3" "$status" "3"
expect_eq "it names the config.json the credentials came from" "$(message refused-config)" \
  "dlenv: $remote refused the credentials from $scratch/docker/config.json"
expect_eq "no output shows the password" "$(shows_password refused-config)" "0"
