# The reference registry (Debian's docker-registry) on 127.0.0.1 at a free port, for the
# tests that push and pull. Source after lib.sh.
#   start_registry DIR [EXTRA_YAML]   serve DIR/storage; EXTRA_YAML adds top-level sections
#                                     (auth); with registry_tls_dir set, serve HTTPS with
#                                     its cert.pem and key.pem
#   stop_registry                     SIGKILL, as a crash or a pulled plug would
#   registry_port, registry_log       where it listens, and its log (one line per request)
#   start_token_server DIR USER:PASSWORD   tests/integration/token_server.py on a free port,
#                                     signing with DIR/token-key.pem and token-cert.pem;
#                                     token_port, token_log, token_settings (see the script)
#   start_fault_proxy DIR             tests/integration/fault_proxy.py in front of the registry,
#                                     on a free port; proxy_port, proxy_log, and
#   inject_faults JSON                the faults it injects from now on (see the script)

registry_port=
registry_pid=
registry_log=
registry_tls_dir=
token_port=
token_pid=
token_log=
token_settings=
proxy_port=
proxy_pid=
proxy_log=
proxy_faults=

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

start_registry() { # start_registry DIR [EXTRA_YAML]
  local dir=$1 extra=${2:-}
  mkdir -p "$dir/storage"
  [[ -n "$registry_port" ]] || registry_port=$(free_port)
  registry_log=$dir/registry.log
  # A fixed secret, so upload sessions stay valid across a restart.
  cat >"$dir/config.yml" <<YAML
version: 0.1
log:
  level: info
  accesslog:
    disabled: false
storage:
  filesystem:
    rootdirectory: $dir/storage
  delete:
    enabled: true
http:
  addr: 127.0.0.1:$registry_port
  secret: dlenv-tests-upload-secret
$([[ -z "$registry_tls_dir" ]] || printf '  tls:\n    certificate: %s\n    key: %s' "$registry_tls_dir/cert.pem" "$registry_tls_dir/key.pem")
$extra
YAML
  docker-registry serve "$dir/config.yml" >>"$registry_log" 2>&1 &
  registry_pid=$!
  local scheme=http
  [[ -z "$registry_tls_dir" ]] || scheme=https
  for _ in $(seq 100); do
    curl -sk -o /dev/null "$scheme://127.0.0.1:$registry_port/v2/" && return 0
    sleep 0.1
  done
  cat "$registry_log" >&2
  fail "the registry did not start on port $registry_port"
}

stop_registry() {
  [[ -n "$registry_pid" ]] || return 0
  kill -KILL "$registry_pid" 2>/dev/null || true
  wait "$registry_pid" 2>/dev/null || true
  registry_pid=
}

# The port a server started in the background writes to PORT_FILE, within 10 s; else its
# errors and a failure naming WHAT.
port_when_written() { # port_when_written PORT_FILE ERRORS WHAT
  for _ in $(seq 100); do
    [[ -s "$1" ]] && cat "$1" && return 0
    sleep 0.1
  done
  cat "$2" >&2
  fail "$3 did not start"
}

start_token_server() { # start_token_server DIR USER:PASSWORD
  local dir=$1
  mkdir -p "$dir"
  openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=dlenv test token issuer" \
    -keyout "$dir/token-key.pem" -out "$dir/token-cert.pem" 2>/dev/null
  token_log=$dir/tokens.log
  token_settings=$dir/token-settings.json
  : >"$token_log"
  python3 "$(dirname "${BASH_SOURCE[0]}")/token_server.py" --key "$dir/token-key.pem" --cert "$dir/token-cert.pem" \
    --issuer dlenv-test-issuer --service dlenv-test-registry --user "$2" --log "$token_log" \
    --port-file "$dir/token.port" --settings "$token_settings" 2>>"$dir/token-server.err" &
  token_pid=$!
  token_port=$(port_when_written "$dir/token.port" "$dir/token-server.err" "the token server")
}

# The registry's `auth: token` section for the server start_token_server started in DIR.
token_auth_yaml() { # token_auth_yaml DIR
  printf 'auth:\n  token:\n    realm: http://127.0.0.1:%s/token\n    service: dlenv-test-registry\n    issuer: dlenv-test-issuer\n    rootcertbundle: %s\n' \
    "$token_port" "$1/token-cert.pem"
}

stop_token_server() {
  [[ -n "$token_pid" ]] || return 0
  kill "$token_pid" 2>/dev/null || true
  wait "$token_pid" 2>/dev/null || true
  token_pid=
}

start_fault_proxy() { # start_fault_proxy DIR
  local dir=$1
  mkdir -p "$dir"
  proxy_log=$dir/proxy.log
  proxy_faults=$dir/faults.json
  echo '[]' >"$proxy_faults"
  : >"$proxy_log"
  python3 "$(dirname "${BASH_SOURCE[0]}")/fault_proxy.py" --upstream "$registry_port" --faults "$proxy_faults" \
    --log "$proxy_log" --port-file "$dir/proxy.port" 2>>"$dir/proxy.err" &
  proxy_pid=$!
  proxy_port=$(port_when_written "$dir/proxy.port" "$dir/proxy.err" "the fault proxy")
}

inject_faults() { # inject_faults JSON
  printf '%s\n' "$1" >"$proxy_faults.tmp"
  mv "$proxy_faults.tmp" "$proxy_faults"
}

stop_fault_proxy() {
  [[ -n "$proxy_pid" ]] || return 0
  kill "$proxy_pid" 2>/dev/null || true
  wait "$proxy_pid" 2>/dev/null || true
  proxy_pid=
}

trap 'stop_serving; stop_fault_proxy; stop_token_server; stop_registry; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

# How many requests of METHOD for PATH-PREFIX the registry has logged.
count_requests() { # count_requests METHOD PATH_PREFIX
  grep -c "\"$1 $2" "$registry_log" || true
}

# A JSON field of stdin, by a Python expression on `j`.
json_field() { # json_field EXPRESSION
  python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"
}
