#!/usr/bin/env bash
# `dlenv doctor` on this machine: the findings' structure, the facts anyone can read back
# (cores from the same affinity mask nproc uses, MemTotal, SwapTotal), the no-GPU path,
# the exit code, and a data directory left as it was found.
source "$(dirname "$0")/lib.sh"

data="$scratch/data"
mkdir -p "$data"
set +e
"$dlenv" doctor --json --data-dir "$data" --read-size 16 >"$scratch/doctor.json"
code=$?
set -e
expect_eq "data directory left empty" "$(ls -A "$data")" ""

# Prints "name=value" lines the assertions below compare.
facts() {
  python3 - "$1" <<'PY'
import json, os, sys
doc = json.load(open(sys.argv[1]))
f = doc["findings"]
by = {x["check"]: x for x in f}
print("format=" + doc["format"])
print("verdict=" + doc["verdict"])
print("checks=" + ",".join(x["check"] for x in f))
print("keys=" + ",".join(sorted(set(k for x in f for k in x))))
print("verdicts_valid=" + str(all(x["verdict"] in ("ok", "warn", "fail", "unknown") for x in f)))
print("why_everywhere=" + str(all(x["why"] for x in f)))
print("driver=" + by["driver"]["verdict"] + " " + by["driver"]["message"])
print("gpu=" + by["gpu"]["verdict"] + " " + by["gpu"]["message"])
print("cores=" + by["cpu_cores_per_gpu"]["value"])
print("cores_measured=%g" % by["cpu_cores_per_gpu"]["measured"])
print("cores_message=" + by["cpu_cores_per_gpu"]["message"])
print("ram=" + by["ram_vs_gpu_memory"]["value"])
print("ram_measured=%r" % by["ram_vs_gpu_memory"]["measured"])
print("ram_message=" + by["ram_vs_gpu_memory"]["message"])
print("swap=" + by["swap"]["verdict"] + " " + by["swap"]["value"])
r = by["data_read_speed"]
print("read=%s %s %s" % (r["unit"], r["threshold"], r["measured"] > 0))
print("read_bytes=" + r["value"].split(" reading ")[1].split(" MiB")[0])
print("topology=" + by["gpu_topology"]["verdict"] + " " + by["gpu_topology"]["message"])
PY
}
facts "$scratch/doctor.json" >"$scratch/facts"
fact() { sed -n "s/^$1=//p" "$scratch/facts"; }

cores=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
mem_kib=$(awk '/^MemTotal:/ {print $2}' /proc/meminfo)
swap_kib=$(awk '/^SwapTotal:/ {print $2}' /proc/meminfo)
# GiB as the doctor prints them: rounded half up to one decimal, without ".0".
gib() { python3 -c 'import math,sys; print(("%.1f" % (math.floor(int(sys.argv[1]) / 1048576 * 10 + 0.5) / 10)).removesuffix(".0"))' "$1"; }
ram_gib=$(gib "$mem_kib")
swap_gib=$(gib "$swap_kib")

expect_eq "format" "$(fact format)" "dlenv.doctor/v1"
expect_eq "finding fields" "$(fact keys)" "check,measured,message,threshold,unit,value,verdict,why"
expect_eq "verdicts" "$(fact verdicts_valid)" "True"
expect_eq "every finding says why" "$(fact why_everywhere)" "True"
expect_eq "cores from sched_getaffinity" "$(fact cores_measured)" "$cores"
expect_eq "RAM is MemTotal" "$(fact ram_measured)" "$(python3 -c "print(repr($mem_kib / 1048576))")"
expect_eq "read speed unit and threshold" "$(fact read)" "MB/s >= 2000 MB/s (local NVMe) True"
expect_eq "read size" "$(fact read_bytes)" "16"
if [[ $swap_kib == 0 ]]; then
  expect_eq "swap" "$(fact swap)" "ok 0 GiB (SwapTotal 0 kB)"
else
  expect_eq "swap" "$(fact swap)" "warn $swap_gib GiB (SwapTotal $swap_kib kB)"
fi

if [[ $(fact driver) == fail* ]]; then
  # No NVIDIA driver here: the GPU findings say so, and the failed driver check exits 1.
  expect_eq "checks" "$(fact checks)" \
    "driver,gpu,cpu_cores_per_gpu,ram_vs_gpu_memory,swap,swappiness,data_read_speed,gpu_topology,nvlink,gpu_pcie_link,gpu_clock_reasons,gpu_temperature,gpu_ecc,network_speed,rdma"
  expect_eq "driver" "$(fact driver)" \
    "fail no NVIDIA driver found: neither NVML (libnvidia-ml.so.1) nor nvidia-smi answered"
  expect_eq "gpu" "$(fact gpu)" "unknown no NVIDIA driver found"
  expect_eq "cores" "$(fact cores)" "$cores CPU cores (sched_getaffinity)"
  expect_eq "cores message" "$(fact cores_message)" "no NVIDIA driver found: $cores CPU cores, no GPU to share them"
  expect_eq "ram" "$(fact ram)" "$ram_gib GiB (MemTotal $mem_kib kB)"
  expect_eq "ram message" "$(fact ram_message)" \
    "no NVIDIA driver found: RAM $ram_gib GiB, no GPU memory to compare it with"
  expect_eq "topology" "$(fact topology)" "unknown no NVIDIA driver found: topology not visible"
  expect_eq "verdict" "$(fact verdict)" "fail"
  expect_eq "exit code" "$code" "1"

  # The driver against a lock cannot be judged, and says so.
  lock="$source_dir/lockfiles/pytorch-2.1-cu118.lock.json"
  set +e
  "$dlenv" doctor --json --data-dir "$data" --read-size 8 --lock "$lock" >"$scratch/lock.json"
  set -e
  expect_eq "driver against a lock" \
    "$(python3 -c 'import json,sys; f=[x for x in json.load(open(sys.argv[1]))["findings"] if x["check"]=="driver_lock"][0]; print(f["verdict"], f["message"], "|", f["threshold"])' "$scratch/lock.json")" \
    "unknown no NVIDIA driver found: cannot compare with the floor of $lock | >= 520.61.05 (>= 450.80.02 under minor-version compatibility)"

  # People read the same verdict.
  set +e
  human=$("$dlenv" doctor --data-dir "$data" --read-size 8)
  human_code=$?
  set -e
  expect_eq "human exit code" "$human_code" "1"
  expect_eq "human headline" "$(head -1 <<<"$human" | cut -d, -f1)" \
    "fail: this machine is not ready for training (1 failed"

  # The GPU path through nvidia-smi's text: a stand-in on PATH prints what two H100s with
  # NVLink print (NVML is absent here, so dlenv falls back to nvidia-smi), and answers
  # `-q -x` with the XML of an L4 (tests/fixtures/nvidia_smi).
  mkdir -p "$scratch/bin"
  cp "$source_dir/tests/fixtures/nvidia_smi/l4-driver-555.xml" "$scratch/bin/q.xml"
  cat >"$scratch/bin/nvidia-smi" <<'SMI'
#!/bin/sh
if [ "$1" = -q ]; then
  cat "$(dirname "$0")/q.xml"
elif [ "$1" = nvlink ]; then
  for gpu in 0 1; do
    printf 'GPU %s: NVIDIA H100 80GB HBM3 (UUID: GPU-abcdefab-cdef-abdc-abcd-abababababa%s)\n' "$gpu" "$gpu"
    for link in 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17; do printf '\t Link %s: 26.562 GB/s\n' "$link"; done
  done
elif [ "$1" = topo ]; then
  printf '\tGPU0\tGPU1\tCPU Affinity\tNUMA Affinity\nGPU0\t X \tNV18\t0-1\t0\nGPU1\tNV18\t X \t0-1\t0\n'
else
  printf 'NVIDIA H100 80GB HBM3, 550.54.15, 9.0, 81559\nNVIDIA H100 80GB HBM3, 550.54.15, 9.0, 81559\n'
fi
SMI
  chmod +x "$scratch/bin/nvidia-smi"
  set +e
  PATH="$scratch/bin:$PATH" "$dlenv" doctor --json --data-dir "$data" --read-size 8 --lock "$lock" >"$scratch/gpu.json"
  gpu_code=$?
  set -e
  python3 - "$scratch/gpu.json" >"$scratch/gpu_facts" <<'PY'
import json, sys
for f in json.load(open(sys.argv[1]))["findings"]:
    print("%s=%s %s" % (f["check"], f["verdict"], f["message"]))
PY
  gpu_fact() { sed -n "s/^$1=//p" "$scratch/gpu_facts"; }
  expect_eq "stand-in driver" "$(gpu_fact driver)" "ok NVIDIA driver 550.54.15 (read through nvidia-smi)"
  expect_eq "stand-in driver against the lock" "$(gpu_fact driver_lock)" \
    "ok driver 550.54.15 meets the floor of $lock (520.61.05)"
  expect_eq "stand-in GPUs known to the matrix" "$(gpu_fact gpu)" \
    "ok 2 x NVIDIA H100 80GB HBM3: sm_90 (Hopper), 80 GB HBM3, 3350 GB/s"
  expect_eq "stand-in topology" "$(gpu_fact gpu_topology)" "ok 1 GPU pair: 1 NVLink"
  expect_eq "stand-in NVLink" "$(gpu_fact nvlink)" "ok GPU 0 18 of 18 active, GPU 1 18 of 18 active"
  expect_eq "stand-in PCIe link" "$(gpu_fact gpu_pcie_link)" \
    "ok GPU 0 (NVIDIA L4, 00000000:01:00.0): PCIe gen 4 x16 (max gen 4 x16)"
  expect_eq "stand-in ECC" "$(gpu_fact gpu_ecc)" "ok GPU 0 (NVIDIA L4, 00000000:01:00.0): no uncorrectable ECC errors"
  per_gpu=$(python3 -c "n=$cores/2; print(('%.1f' % n).removesuffix('.0'))")
  if (( cores >= 16 )); then
    expect_eq "stand-in cores" "$(gpu_fact cpu_cores_per_gpu)" "ok $per_gpu CPU cores per GPU, at least 8"
  else
    expect_eq "stand-in cores" "$(gpu_fact cpu_cores_per_gpu)" \
      "warn $per_gpu CPU cores per GPU, fewer than 8: data loading workers will starve the GPUs"
  fi
  gpu_ratio=$(python3 -c "print($mem_kib / 1048576 / (2 * 81559 / 1024))")
  expect_eq "stand-in exit code" "$gpu_code" "$(python3 -c "print(1 if $gpu_ratio < 1 else 0)")"
else
  expect_eq "exit code" "$code" "$([[ $(fact verdict) == fail ]] && echo 1 || echo 0)"
fi

# A lock that is not there is bad input: exit 2, the error as JSON.
set +e
"$dlenv" doctor --json --data-dir "$data" --lock "$scratch/none.lock.json" >"$scratch/err.json"
code=$?
set -e
expect_eq "missing lock exit code" "$code" "2"
expect_eq "missing lock error code" "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["error"]["code"])' "$scratch/err.json")" "not_found"
expect_eq "data directory still empty" "$(ls -A "$data")" ""
