# The reference registry (Debian's docker-registry) on 127.0.0.1 at a free port, for the
# tests that push and pull. Source after lib.sh.
#   start_registry DIR [EXTRA_YAML]   serve DIR/storage; EXTRA_YAML adds auth or tls sections
#   stop_registry                     SIGKILL, as a crash or a pulled plug would
#   registry_port, registry_log       where it listens, and its log (one line per request)

registry_port=
registry_pid=
registry_log=

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
$extra
YAML
  docker-registry serve "$dir/config.yml" >>"$registry_log" 2>&1 &
  registry_pid=$!
  local scheme=http
  [[ "$extra" == *"tls:"* ]] && scheme=https
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

trap 'stop_registry; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

# How many requests of METHOD for PATH-PREFIX the registry has logged.
count_requests() { # count_requests METHOD PATH_PREFIX
  grep -c "\"$1 $2" "$registry_log" || true
}

# A JSON field of stdin, by a Python expression on `j`.
json_field() { # json_field EXPRESSION
  python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"
}
