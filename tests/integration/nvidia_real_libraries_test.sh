#!/usr/bin/env bash
# The static tier on a base built from real NVIDIA libraries: those of the CUDA toolkit at
# $CUDA_HOME (default /usr/local/cuda; NVIDIA's pip wheels' layout, with dist-info),
# laid out as nvidia/cuda 13.0's cudnn-runtime image lays them out, under a team's name and
# with no NVIDIA env, so only the files say what it holds. It passes with torch 2.9 cu130;
# with a library removed it fails naming it. Skipped where there are no such libraries.
source "$(dirname "$0")/lib.sh"

libs=${CUDA_HOME:-/usr/local/cuda}/lib64
if [[ ! -e $libs/libcudart.so.13 || ! -e $libs/libcudnn.so.9 ]]; then
  echo "skip: no CUDA 13 and cuDNN 9 libraries in $libs"
  exit 77
fi

make_base=$source_dir/tests/fixtures/nvidia_cuda/make_base.py
store=$scratch/store/.dlenv
cat >"$scratch/torch130.json" <<'JSON'
{"format": "dlenv.profile/v1", "name": "torch130", "python": "3.10",
 "base_image": "registry.team/cuda:13.0",
 "framework": {"name": "torch", "version": "2.9", "cuda": "13.0"},
 "gpus": ["H100 SXM5"], "driver_floor": "580.65.06", "source_date_epoch": 1700000000}
JSON
"$dlenv" lock "$scratch/torch130.json" -o "$scratch/torch130.lock.json" --offline >/dev/null

# Builds on a layout of the real libraries (make_base.py ARGS) and runs the static tier:
# "exit CODE", then each failed finding.
verify_real() { # verify_real [ARGS...]
  rm -rf "$scratch/real" "$store"
  python3 "$make_base" --cuda 13.0.0 --os ubuntu24.04 --flavour cudnn-runtime --out "$scratch/real" \
    --real-libs "$libs" --tag team-cuda "$@" >/dev/null 2>&1
  "$dlenv" build "$scratch/torch130.lock.json" --store "$store" --base "oci:$scratch/real:team-cuda" >/dev/null
  set +e
  "$dlenv" verify torch130 --store "$store" --tier static --json >"$scratch/report.json"
  echo "exit $?"
  set -e
  failed_findings "$scratch/report.json"
}
message_of() { # message_of CODE: the first finding with CODE
  python3 -c 'import json,sys; print(next(f["message"] for t in json.load(open(sys.argv[1]))["tiers"] for f in t["findings"] if f["code"]==sys.argv[2]))' "$scratch/report.json" "$1"
}
count_of() { # count_of CODE OUTCOME
  python3 -c 'import json,sys; print(sum(1 for t in json.load(open(sys.argv[1]))["tiers"] for f in t["findings"] if f["code"]==sys.argv[2] and f["outcome"]==sys.argv[3]))' "$scratch/report.json" "$1" "$2"
}

expect_eq "real libraries: the static tier passes" "$(verify_real)" "exit 0"
expect_eq "the CUDA release is read from libcudart's file" "$(message_of base-cuda)" \
  "the base carries CUDA $(python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
v = sys.argv[2]
print(next((r["cuda"] for r in d["releases"] for l in r["libraries"] if l["component"] == "cuda_cudart" and l["version"] == v), v))' \
    "$source_dir/profiles/compat/cuda_components.json" "$(sed -n 's/^Version: //p' "$libs"/../dist-info/nvidia_cuda_runtime-*/METADATA)") (file libcudart.so.$(sed -n 's/^Version: //p' "$libs"/../dist-info/nvidia_cuda_runtime-*/METADATA)), an update of the CUDA 13.0 line torch is built with"
expect_eq "cuDNN's shim and its seven sub-libraries are checked" "$(python3 -c '
import json, sys
print(sum(1 for t in json.load(open(sys.argv[1]))["tiers"] for f in t["findings"] if f["code"] == "library-present" and f["outcome"] == "pass" and f["message"].startswith("libcudnn")))' "$scratch/report.json")" 8
expect_eq "no library fails" "$(count_of library-present fail) $(count_of library-closure fail) $(count_of library-version fail)" "0 0 0"

removed=$(verify_real --omit libcublasLt.so.13)
expect_eq "without cuBLASLt it fails" "$(head -1 <<<"$removed")" "exit 1"
# cuBLAS needs it, and so does cuSOLVER through cuBLAS: both closures name it.
expect_eq "naming cuBLASLt where cuBLAS needs it" \
  "$(grep -c 'libcublasLt.so.13, needed by /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcublas.so' <<<"$removed")" 2
expect_eq "and as a part of cuBLAS the image lacks" \
  "$(grep -c '^library-present: libcublasLt.so.13 (promised by the base registry.team/cuda:13.0 (CUDA cuBLAS' <<<"$removed")" 1

removed=$(verify_real --omit libcudnn_engines_precompiled.so.9)
expect_eq "without a cuDNN engine library, which only dlopen loads, it fails naming it" "$removed" \
  "exit 1
library-present: libcudnn_engines_precompiled.so.9 (promised by the base registry.team/cuda:13.0 (cuDNN, file libcudnn.so.$(sed -n 's/^Version: //p' "$libs"/../dist-info/nvidia_cudnn_cu13-*/METADATA | cut -d. -f1-3))) is not in the image's library path"
