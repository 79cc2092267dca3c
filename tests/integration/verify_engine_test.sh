#!/usr/bin/env bash
# `dlenv verify --runtime podman`: the image is loaded into a real podman for the run,
# the static tier gives the same findings as under runc, and podman holds no image of
# dlenv's afterwards, while an image the user had loaded before stays. Podman gets a
# private configuration under the scratch directory: vfs storage, cgroupfs, no journal,
# and resource limits a container without CAP_SYS_RESOURCE may set.
source "$(dirname "$0")/lib.sh"

conf=$scratch/podman
mkdir -p "$conf"
cat >"$conf/containers.conf" <<CONF
[containers]
default_ulimits = ["nofile=1024:1024", "nproc=1024:1024"]
[engine]
cgroup_manager = "cgroupfs"
events_logger = "file"
tmp_dir = "$conf/tmp"
CONF
cat >"$conf/storage.conf" <<CONF
[storage]
driver = "vfs"
graphroot = "$conf/root"
runroot = "$conf/run"
CONF
export CONTAINERS_CONF=$conf/containers.conf CONTAINERS_STORAGE_CONF=$conf/storage.conf
trap 'podman rmi --all --force >/dev/null 2>&1; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)

report=$("$dlenv" verify quickstart --store "$store" --tier static --runtime podman --json)
expect_eq "podman runs the checks" "$(python3 -c 'import json,sys; r=json.load(sys.stdin); print(r["runtime"], r["digest"])' <<<"$report")" \
  "podman $digest"
expect_eq "static findings under podman" \
  "$(python3 -c 'import json,sys; r=json.load(sys.stdin); print(" ".join(f["code"]+":"+f["outcome"] for t in r["tiers"] for f in t["findings"]))' <<<"$report")" \
  "kit-lock:pass file-sha256:pass entrypoint-closure:pass container-start:pass kit-readable:pass framework-import:skip"
expect_eq "podman holds no image afterwards" "$(podman images --quiet)" ""
expect_eq "nor a container" "$(podman ps --all --quiet)" ""

# An image podman already held is left where it was.
"$dlenv" build "$scratch/store/quickstart.lock.json" --store "$store" --base "docker-archive:$scratch/store/quickstart-base.tar" \
  --archive "$scratch/quickstart.tar" >/dev/null
podman load --quiet --input "$scratch/quickstart.tar" >/dev/null
before=$(podman images --quiet --no-trunc)
"$dlenv" verify quickstart --store "$store" --tier static --runtime podman >/dev/null
expect_eq "the user's image stays" "$(podman images --quiet --no-trunc)" "$before"

echo "verify_engine: ok"
