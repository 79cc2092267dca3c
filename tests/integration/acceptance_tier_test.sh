#!/usr/bin/env bash
# `dlenv verify --tier acceptance` on a machine without a GPU: a Debian 12 image holding
# this machine's python3-torch and python3-torchvision (made from its real files) runs
# the training job its lock's validation.acceptance names (from the profile) on the CPU
# with a real DataLoader over JPEG files. Without --data-dir the kit writes a synthetic ImageFolder set and the data wait passes; the utilisation
# is not measured, which exits 3 and says so. Then the data dir lives on a loop device
# whose reads the kernel's blkio throttle holds to 2 IOPS: the data wait goes over
# 0.2 of each step and the tier fails naming the reading of the data dir.
source "$(dirname "$0")/lib.sh"

python=/usr/bin/python3
"$python" -c 'import torch, torchvision' 2>/dev/null || {
  echo "skipped: Debian's python3-torch and python3-torchvision are not installed"
  exit 77
}
throttle=/sys/fs/cgroup/blkio/blkio.throttle.read_iops_device
[[ $(id -u) == 0 && -w $throttle ]] && command -v losetup >/dev/null || {
  echo "skipped: needs root, losetup and cgroup v1's blkio throttle ($throttle)"
  exit 77
}
command -v bwrap >/dev/null || {
  echo "skipped: bwrap (bubblewrap) is not installed"
  exit 77
}

"$python" "$source_dir/tests/fixtures/python_base/make_python_base.py" debian "$scratch/base" --torch
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/acceptance.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
# The same code path as ResNet-50 at batch 128, small enough for two CPU cores; one
# worker prefetching one batch, so that the measured steps outrun what it loaded ahead.
settings = {"model": "resnet18", "batch_size": 2, "image_size": 32, "num_workers": 1, "prefetch_factor": 1,
            "steps": 6, "warmup": 1, "synthetic_images": 40, "synthetic_size": 40}
profile.update(name="acceptance", python="3.11", base_image="scratch",
               validation={"tiers": ["static"], "acceptance": settings})
profile.pop("files")
json.dump(profile, open(sys.argv[2], "w"))
PY
lock=$scratch/acceptance.lock.json
"$dlenv" lock "$scratch/acceptance.json" -o "$lock" --offline >/dev/null
expect_eq "the lock carries the profile's acceptance settings whole" \
  "$(python3 -c 'import json,sys; print(json.dumps(json.load(open(sys.argv[1]))["validation"]["acceptance"], sort_keys=True))' "$lock")" \
  '{"batch_size": 2, "data_wait_max_fraction": 0.2, "gpu_utilization_min": 0.85, "image_size": 32, "model": "resnet18", "num_workers": 1, "prefetch_factor": 1, "steps": 6, "synthetic_images": 40, "synthetic_size": 40, "warmup": 1}'
store=$scratch/store
"$dlenv" build "$lock" --store "$store" --base "oci:$scratch/base" >/dev/null

figure() { # figure REPORT NAME: a figure of the acceptance tier
  python3 -c '
import json, sys
tier = json.load(open(sys.argv[1]))["tiers"][0]
print(next(f["value"] for f in tier["figures"] if f["name"] == sys.argv[2]))' "$1" "$2"
}
finding() { # finding REPORT CODE: "outcome: message" of a finding of the acceptance tier
  python3 -c '
import json, sys
tier = json.load(open(sys.argv[1]))["tiers"][0]
print("\n".join(f["outcome"] + ": " + f["message"] for f in tier["findings"] if f["code"] == sys.argv[2]))' "$1" "$2"
}
masked() { sed -E 's/[0-9]+(\.[0-9]+)?(e-?[0-9]+)?/N/g'; } # figures vary from run to run

set +e
echo '{"steps": 0}' >"$scratch/bad.json"
"$dlenv" verify acceptance --store "$store" --tier acceptance --acceptance "$scratch/bad.json" 2>"$scratch/bad.err"
status=$?
"$dlenv" verify acceptance --store "$store" --tier acceptance --timeout 300 --json >"$scratch/cpu.json"
cpu_status=$?
set -e
expect_eq "--acceptance FILE in place of the lock's is read checked" "$status $(head -1 "$scratch/bad.err" | sed "s|$scratch/||")" \
  "2 dlenv: bad.json: steps: expected 1 to 100000, got 0"
status=$cpu_status
expect_eq "on the CPU the tier exits 3: the utilisation was not measured" "$status" "3"
expect_eq "and says so" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["unavailable"])' "$scratch/cpu.json")" \
  "[{'reason': 'GPU utilisation was not measured: no NVIDIA driver or GPU on this machine; the training job ran on the CPU, which proves the data-wait measurement only (run it on a GPU machine for the utilisation)', 'tier': 'acceptance'}]"
expect_eq "the kit wrote a synthetic ImageFolder set" "$(finding "$scratch/cpu.json" acceptance-data | masked)" \
  "pass: wrote N synthetic NxN JPEG images in N ImageFolder classes to /mnt/dlenv-data in N s"
expect_eq "and trained on it with the settings' DataLoader" "$(finding "$scratch/cpu.json" acceptance-train | masked)" \
  "pass: trained resnetN for N steps (after N warm-up) of batch N at NxN on the CPU, AMP off, N DataLoader workers (prefetch factor N): N images/s, waiting for data N of each step"
wait_fraction=$(figure "$scratch/cpu.json" data_wait_fraction)
expect_eq "data loading is under 0.2 of each step ($wait_fraction)" \
  "$(python3 -c 'import sys; print(0 <= float(sys.argv[1]) < 0.2)' "$wait_fraction")" "True"
expect_eq "the data wait passes" "$(finding "$scratch/cpu.json" data-wait | masked)" \
  "pass: data loading takes N of each step (N s of N s), under the limit N"
echo "figures: $(figure "$scratch/cpu.json" images_per_second) images/s, data wait $wait_fraction"

# The data dir on a loop device, its reads throttled by the kernel to 2 IOPS. The throttle
# is the root blkio cgroup's, so the container runs under bwrap, which keeps it in the
# caller's cgroup (runc gives it one of its own, outside the throttle).
truncate -s 32M "$scratch/data.img"
device=$(losetup --find --show "$scratch/data.img")
data=$scratch/data
cleanup() {
  echo "$(lsblk -no MAJ:MIN "$device" | tr -d ' ') 0" >"$throttle" 2>/dev/null || true
  umount "$data" 2>/dev/null || true
  losetup -d "$device" 2>/dev/null || true
  chmod -R u+w "$scratch" 2>/dev/null
  rm -rf "$scratch"
}
trap cleanup EXIT
mkfs.ext4 -q "$device"
mkdir "$data"
mount "$device" "$data"
"$python" -c 'import sys; sys.path.insert(0, sys.argv[1]); from dlenv_kit import synthetic_images as s; s.write(sys.argv[2], 40, 40)' \
  "$source_dir/kit" "$data"
umount "$data" && mount -o ro "$device" "$data" # nothing of it left in the page cache
echo "$(lsblk -no MAJ:MIN "$device" | tr -d ' ') 2" >"$throttle"
set +e
"$dlenv" verify acceptance --store "$store" --tier acceptance --runtime bwrap --timeout 300 --json \
  --data-dir "$data" >"$scratch/slow.json"
status=$?
set -e
expect_eq "a throttled data dir fails the tier" "$status" "1"
wait_fraction=$(figure "$scratch/slow.json" data_wait_fraction)
expect_eq "data loading is over 0.2 of each step ($wait_fraction)" \
  "$(python3 -c 'import sys; print(float(sys.argv[1]) > 0.2)' "$wait_fraction")" "True"
expect_eq "the failure names the reading of the data dir, with the figures" "$(finding "$scratch/slow.json" data-wait | masked)" \
  "fail: data loading takes N of each step (N s of N s), over the limit N: the DataLoader's N workers read each image in N ms (N MB/s) and decode it in N ms, so reading is the slower part; look at the read speed of the data dir $(masked <<<"$data") (N MB/s per worker here; local NVMe reads N GB/s and more), then the CPU cores per GPU (N cores here and no GPU; N or more per GPU is the baseline) and num_workers (N; set it in the profile's validation.acceptance, up to the cores per GPU)"
echo "figures: $(figure "$scratch/slow.json" images_per_second) images/s, data wait $wait_fraction," \
  "$(figure "$scratch/slow.json" read_milliseconds_per_image) ms to read an image"
