# Shared by the integration tests: a scratch directory removed on exit, and assertions
# that print what differed.
set -euo pipefail

dlenv=${DLENV:?set DLENV to the dlenv binary}
source_dir=${DLENV_SOURCE_DIR:?set DLENV_SOURCE_DIR to the repository}
scratch=$(mktemp -d)
trap 'stop_serving; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

# Serves DIR on 127.0.0.1 with tests/fixtures/wheels/serve_index.py (MODE: "", json or
# ranges, as it says) and sets served_origin to http://127.0.0.1:PORT. One server at a
# time: starting another stops the last. A test that sets its own EXIT trap calls
# stop_serving in it.
served_pid=
start_serving() { # start_serving DIR [MODE]
  stop_serving
  local port_file=$scratch/served-port
  rm -f "$port_file"
  python3 "$source_dir/tests/fixtures/wheels/serve_index.py" "$1" "$port_file" ${2:+"$2"} >/dev/null 2>&1 &
  served_pid=$!
  for _ in $(seq 200); do [[ -s $port_file ]] && break; sleep 0.05; done
  [[ -s $port_file ]] || fail "serve_index.py did not start serving $1"
  served_origin=http://127.0.0.1:$(cat "$port_file")
}
stop_serving() { # stops the server start_serving started, by its PID
  [[ -z $served_pid ]] || { kill "$served_pid"; wait "$served_pid" 2>/dev/null || true; }
  served_pid=
}

expect_eq() { # expect_eq WHAT ACTUAL EXPECTED
  [[ "$2" == "$3" ]] || fail "$1: got '$2', expected '$3'"
  echo "ok: $1"
}

# The digest `dlenv images --json` shows for NAME:TAG in STORE, or "none".
image_digest() { # image_digest STORE NAME TAG
  "$dlenv" images --store "$1" --json |
    python3 -c 'import json,sys; n,t=sys.argv[1:]; print(next((i["digest"] for i in json.load(sys.stdin) if i["name"]==n and i["tag"]==t), "none"))' "$2" "$3"
}

# Builds the quickstart image into STORE; its lock and base archive land beside STORE.
build_quickstart() { # build_quickstart STORE
  mkdir -p "$(dirname "$1")"
  DLENV=$dlenv bash "$source_dir/examples/quickstart/run.sh" "$1" >/dev/null
}

# The quickstart profile as quickstart-static, which requires only the static tier, at
# DIR/quickstart-static.json with the app it copies beside it.
stand_in_nvidia_smi() { # stand_in_nvidia_smi DIR: an nvidia-smi in DIR that answers as one H100 with its UUID
  mkdir -p "$1"
  printf '#!/bin/sh\ncat %q\n' "$source_dir/tests/fixtures/nvidia_smi/query-gpu-h100.csv" >"$1/nvidia-smi"
  chmod +x "$1/nvidia-smi"
}

static_quickstart_profile() { # static_quickstart_profile DIR
  mkdir -p "$1/app"
  cp "$source_dir/examples/quickstart/app/hello.sh" "$1/app/"
  python3 - "$source_dir/examples/quickstart/quickstart.json" "$1/quickstart-static.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
profile["name"] = "quickstart-static"
profile["validation"] = {"tiers": ["static"]}
json.dump(profile, open(sys.argv[2], "w"), indent=2)
PY
}

# A stand-in for python-build-standalone's install_only archive of CPython 3.11 at FILE: a
# stub python3.11 that prints its version, the python3 link, one module.
stub_python_runtime() { # stub_python_runtime FILE.tar.gz
  local tree=$scratch/stub-runtime
  mkdir -p "$tree/python/bin" "$tree/python/lib/python3.11"
  printf '#!/bin/sh\necho "Python 3.11.7"\n' >"$tree/python/bin/python3.11"
  chmod 755 "$tree/python/bin/python3.11"
  ln -s python3.11 "$tree/python/bin/python3"
  printf 'sep = "/"\n' >"$tree/python/lib/python3.11/os.py"
  tar -czf "$1" -C "$tree" python
}

# "code: message" of each failed finding of a `dlenv verify --json` report in FILE.
failed_findings() { # failed_findings FILE
  python3 -c '
import json, sys
for tier in json.load(open(sys.argv[1]))["tiers"]:
    for f in tier["findings"]:
        if f["outcome"] == "fail":
            print(f["code"] + ": " + f["message"])' "$1"
}

# Repacks the unpacked BUNDLE into STORE as NAME:TAG (as another tool would change an
# image) and records the tag, so dlenv can name it.
repack_as() { # repack_as STORE BUNDLE NAME TAG
  umoci repack --image "$1:$4" "$2" >/dev/null
  python3 - "$1" "$3" "$4" <<'PY'
import json, sys
store, name, tag = sys.argv[1:]
index = json.load(open(store + "/index.json"))
repacked = next(m for m in index["manifests"] if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == tag)
refs = json.load(open(store + "/dlenv/refs.json"))
refs["images"][name]["tags"][tag] = {k: repacked[k] for k in ("mediaType", "digest", "size")}
json.dump(refs, open(store + "/dlenv/refs.json", "w"), indent=2, sort_keys=True)
PY
}

# Every entry of a tree: type, mode, path, and the link's target or the file's sha256.
tree_of() { # tree_of ROOT
  python3 - "$1" <<'PY'
import hashlib, os, stat, sys
root = sys.argv[1]
for top, dirs, files in os.walk(root):
    for name in sorted(dirs + files):
        path = os.path.join(top, name)
        info = os.lstat(path)
        kind, what = "d", ""
        if stat.S_ISLNK(info.st_mode):
            kind, what = "l", os.readlink(path)
        elif stat.S_ISREG(info.st_mode):
            kind, what = "f", hashlib.sha256(open(path, "rb").read()).hexdigest()
        print(kind, oct(stat.S_IMODE(info.st_mode)), os.path.relpath(path, root), what)
PY
}

# podman with storage of its own in the scratch directory (vfs: no overlay mount needed), so
# the machine's is untouched; podman_cleanup removes what it made before the scratch goes.
podman_in_scratch() {
  podman --root "$scratch/podman/root" --runroot "$scratch/podman/run" --storage-driver vfs \
    --cgroup-manager cgroupfs --events-backend none "$@"
}
podman_cleanup() {
  podman_in_scratch rm -af >/dev/null 2>&1 || true
}
# The name skopeo gives podman_in_scratch's storage: containers-storage:$(podman_storage)NAME:TAG.
podman_storage() {
  echo "[vfs@$scratch/podman/root+$scratch/podman/run]"
}
