#!/usr/bin/env bash
# `dlenv verify --tier gpu` of hostile images on a GPU host: links in the image that lead
# to host directories must never let dlenv create or write anything there. The host has a
# stand-in driver (nvidia-smi reporting an H100, a driver library in a scratch directory)
# and a CDI spec that only this test's mount namespace sees (a tmpfs over /run, so that
# /var/run/cdi shows it), which binds the driver library and a Vulkan ICD file into the
# image as `nvidia-ctk cdi generate` does. Each image points one of /usr, /etc, /opt/dlenv,
# /dev and /proc at a host directory that holds a file of the same name.
source "$(dirname "$0")/lib.sh"

if [[ $(id -u) != 0 ]] || ! unshare -m true 2>/dev/null; then
  echo "skipped: needs root and a private mount namespace (unshare -m)"
  exit 77
fi

store=$scratch/store/.dlenv
build_quickstart "$store"

# The stand-in driver, outside any image.
driver=$scratch/driver
mkdir -p "$scratch/bin" "$driver"
printf '#!/bin/sh\nprintf "NVIDIA H100 80GB HBM3, 550.54.15, 9.0, 81559\\n"\n' >"$scratch/bin/nvidia-smi"
chmod +x "$scratch/bin/nvidia-smi"
echo "driver library" >"$driver/libcuda.so.550.54.15"
echo '{"ICD": {"library_path": "libGLX_nvidia.so.0"}}' >"$driver/nvidia_icd.json"
cat >"$scratch/nvidia.json" <<JSON
{
  "cdiVersion": "0.5.0",
  "kind": "nvidia.com/gpu",
  "devices": [{"name": "all", "containerEdits": {"deviceNodes": [{"path": "/dev/nvidia0", "hostPath": "/dev/null"}]}}],
  "containerEdits": {
    "deviceNodes": [{"path": "/dev/nvidiactl", "hostPath": "/dev/null"}],
    "mounts": [
      {"hostPath": "$driver/libcuda.so.550.54.15", "containerPath": "/usr/lib/x86_64-linux-gnu/libcuda.so.550.54.15",
       "options": ["ro", "nosuid", "nodev", "bind"]},
      {"hostPath": "$driver/nvidia_icd.json", "containerPath": "/etc/vulkan/icd.d/nvidia_icd.json",
       "options": ["ro", "nosuid", "nodev", "bind"]}
    ]
  }
}
JSON

# The host directory an image's link leads to, with files where the binds would land.
make_host_dir() { # make_host_dir DIR
  mkdir -p "$1/lib/x86_64-linux-gnu" "$1/vulkan/icd.d" "$1/kit"
  echo "host's own driver" >"$1/lib/x86_64-linux-gnu/libcuda.so.550.54.15"
  echo "host's own ICD" >"$1/vulkan/icd.d/nvidia_icd.json"
  echo "host's own file" >"$1/kit/gpu_tier.py"
}
# Every file under DIR with its sha256, and every directory: what must not change.
tree_of() { # tree_of DIR
  (cd "$1" && find . -printf '%y %p\n' | sort && find . -type f -exec sha256sum {} + | sort)
}

# Runs the gpu tier of TAG with the CDI spec visible; its report and errors land in scratch.
verify_gpu() { # verify_gpu TAG
  unshare -m sh -c 'mount -t tmpfs tmpfs /run && mkdir /run/cdi && cp "$1" /run/cdi/nvidia.json && shift &&
    exec "$@"' sh "$scratch/nvidia.json" env PATH="$scratch/bin:$PATH" \
    "$dlenv" verify "quickstart:$1" --store "$store" --tier gpu >"$scratch/report" 2>"$scratch/stderr"
}

umoci unpack --image "$store:quickstart:latest" "$scratch/bundle" >/dev/null
rootfs=$scratch/bundle/rootfs
cp "$rootfs/bin/sh" "$rootfs/bin/python3" # the kit's interpreter, so that the kit is run
for link in usr etc opt/dlenv dev proc; do
  host=$scratch/host-${link//\//-}
  make_host_dir "$host"
  before=$(tree_of "$host")
  saved=$scratch/saved-${link//\//-}
  mv "$rootfs/$link" "$saved" 2>/dev/null || true
  ln -s "$host" "$rootfs/$link"
  tag=${link//\//-}
  umoci repack --image "$store:$tag" "$scratch/bundle" >/dev/null
  rm "$rootfs/$link"
  [[ -e "$saved" ]] && mv "$saved" "$rootfs/$link"
  python3 - "$store" "$tag" <<'PY'
import json, sys
store, tag = sys.argv[1:]
index = json.load(open(store + "/index.json"))
made = next(m for m in index["manifests"] if m.get("annotations", {}).get("org.opencontainers.image.ref.name") == tag)
refs = json.load(open(store + "/dlenv/refs.json"))
refs["images"]["quickstart"]["tags"][tag] = {k: made[k] for k in ("mediaType", "digest", "size")}
json.dump(refs, open(store + "/dlenv/refs.json", "w"), indent=2, sort_keys=True)
PY
  set +e
  verify_gpu "$tag"
  rc=$?
  set -e
  expect_eq "/$link -> host: nothing on the host changed" "$(tree_of "$host")" "$before"
  case $link in
    dev|proc)
      expect_eq "/$link -> host: refused with exit 2" "$rc" 2
      expect_eq "/$link -> host: the error says why" "$(cat "$scratch/stderr")" \
        "dlenv: the image's /$link is a symbolic link to $host, where a container needs a directory
  hint: fix the image: make /$link a directory"
      ;;
    opt/dlenv) # the kit layer's files would land under the link: the unpacker refuses them
      expect_eq "/$link -> host: refused with exit 2" "$rc" 2
      expect_eq "/$link -> host: the unpacker says why" "$(head -1 "$scratch/stderr" | sed 's/.*: apply layer sha256:[0-9a-f]*: //')" \
        "opt/dlenv/dlenv.lock.json: goes through the symbolic link dlenv -> $host, which leads out of the root"
      ;;
    *)
      expect_eq "/$link -> host: the tier ran and failed" "$rc" 1
      expect_eq "/$link -> host: the GPUs were injected" "$(grep -c 'pass.*gpu-injection: GPUs injected from CDI spec /var/run/cdi/nvidia.json: 2 device nodes, 2 binds, 0 hooks' "$scratch/report")" 1
      ;;
  esac
done
expect_eq "the driver library is intact" "$(cat "$driver/libcuda.so.550.54.15")" "driver library"
expect_eq "no verify directory is left in the store" "$(ls "$store/dlenv/staging" 2>/dev/null | wc -l)" 0
