#!/usr/bin/env bash
# dlenv build and verify --tier static on replicas of NVIDIA's images (made by
# tests/fixtures/nvidia_cuda/make_base.py from the sourced image data), as a user builds
# on nvidia/cuda: 11.8.0-cudnn8-runtime-ubuntu22.04 with torch 2.1 cu118,
# 12.4.1-cudnn-runtime-ubi9 with torch 2.4 cu124 and 13.0.0-cudnn-runtime-ubuntu24.04
# with torch 2.9 cu130 pass, each library held to its own component's version; removing
# a cuBLAS, a cuDNN sub-library or NCCL fails naming it; a base whose CUDA major differs
# from the framework's build fails at build with the rule, before anything is stored.
source "$(dirname "$0")/lib.sh"

make_base=$source_dir/tests/fixtures/nvidia_cuda/make_base.py
store=$scratch/store/.dlenv

# Writes a profile NAME for torch LINE built with CUDA, on NVIDIA's TAG, and locks it.
lock_profile() { # lock_profile NAME LINE CUDA TAG
  cat >"$scratch/$1.json" <<EOF
{"format": "dlenv.profile/v1", "name": "$1", "python": "3.10",
 "base_image": "nvidia/cuda:$4",
 "framework": {"name": "torch", "version": "$2", "cuda": "$3"},
 "gpus": ["H100 SXM5"], "driver_floor": "580.65.06", "source_date_epoch": 1700000000}
EOF
  "$dlenv" lock "$scratch/$1.json" -o "$scratch/$1.lock.json" --offline >/dev/null
}

# Makes NVIDIA's CUDA OS FLAVOUR image as the layout DIR, with make_base.py's ARGS.
replica() { # replica DIR CUDA OS FLAVOUR [ARGS...]
  local dir=$1 cuda=$2 os=$3 flavour=$4
  shift 4
  python3 "$make_base" --cuda "$cuda" --os "$os" --flavour "$flavour" --out "$dir" --stub-cache "$scratch/stubs" "$@" >/dev/null
}

# Builds LOCK as NAME on the layout DIR (its one image) and runs the static tier:
# prints "exit CODE" and then each failed finding, "code: message".
build_and_verify() { # build_and_verify LOCK NAME DIR
  local ref
  ref=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/index.json"))["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"])' "$3")
  "$dlenv" build "$1" --name "$2" --store "$store" --base "oci:$3:$ref" >/dev/null
  set +e
  "$dlenv" verify "$2" --store "$store" --tier static --json >"$scratch/report.json"
  echo "exit $?"
  set -e
  failed_findings "$scratch/report.json"
}

# "outcome code: message" of the findings whose message begins with PREFIX.
findings_on() { # findings_on PREFIX
  python3 -c '
import json, sys
for tier in json.load(open(sys.argv[1]))["tiers"]:
    for f in tier["findings"]:
        if f["message"].startswith(sys.argv[2]):
            print(f["outcome"], f["code"] + ": " + f["message"])' "$scratch/report.json" "$1"
}

# 11.8.0 with cuDNN 8 on Ubuntu 22.04, torch 2.1.2+cu118 (built with CUDA 11.8, cuDNN 8.7.0.84).
tag118=11.8.0-cudnn8-runtime-ubuntu22.04
lock_profile torch118 2.1 11.8 "$tag118"
replica "$scratch/cuda118" 11.8.0 ubuntu22.04 cudnn8-runtime
expect_eq "11.8: the static tier passes" "$(build_and_verify "$scratch/torch118.lock.json" torch118 "$scratch/cuda118")" "exit 0"
expect_eq "11.8: cuBLAS is held to its own version, not CUDA's" "$(findings_on 'libcublas.so.11 (')" \
  "pass library-version: libcublas.so.11 (libcublas.so.11.11.3.6) is version 11.11.3.6, as the base nvidia/cuda:$tag118 (CUDA cuBLAS, env NV_LIBCUBLAS_VERSION) says (11.11.3.6)"
expect_eq "11.8: a cuDNN sub-library is checked" "$(findings_on 'libcudnn_cnn_infer.so.8 is')" \
  "pass library-present: libcudnn_cnn_infer.so.8 is /usr/lib/x86_64-linux-gnu/libcudnn_cnn_infer.so.8.9.6"
expect_eq "11.8: the base's newer cuDNN serves the framework's" "$(findings_on 'the base carries cuDNN')" \
  "pass base-cudnn: the base carries cuDNN 8.9.6.50 (env NV_CUDNN_VERSION), which torch (built with cuDNN 8.7.0.84) loads"
expect_eq "11.8: no version.json is needed" "$(findings_on 'the base carries CUDA')" \
  "pass base-cuda: the base carries CUDA 11.8.0 (env CUDA_VERSION), an update of the CUDA 11.8 line torch is built with"

replica "$scratch/no-cublaslt" 11.8.0 ubuntu22.04 cudnn8-runtime --omit libcublasLt.so.11
expect_eq "11.8 without cuBLASLt fails naming it" \
  "$(build_and_verify "$scratch/torch118.lock.json" torch118 "$scratch/no-cublaslt")" \
  "exit 1
library-closure: libcublas.so.11: libcublasLt.so.11, needed by /usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublas.so.11.11.3.6, is not in the image
library-present: libcublasLt.so.11 (promised by the base nvidia/cuda:$tag118 (CUDA cuBLAS, env NV_LIBCUBLAS_VERSION)) is not in the image's library path
library-closure: libcusolver.so.11: libcublasLt.so.11, needed by /usr/local/cuda-11.8/targets/x86_64-linux/lib/libcusolver.so.11.4.1.48, is not in the image
library-closure: libcusolver.so.11: libcublasLt.so.11, needed by /usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublas.so.11.11.3.6, is not in the image"

replica "$scratch/no-cnn-infer" 11.8.0 ubuntu22.04 cudnn8-runtime --omit libcudnn_adv_train.so.8
expect_eq "11.8 without a cuDNN sub-library, which only dlopen loads, fails naming it" \
  "$(build_and_verify "$scratch/torch118.lock.json" torch118 "$scratch/no-cnn-infer")" \
  "exit 1
library-present: libcudnn_adv_train.so.8 (promised by the base nvidia/cuda:$tag118 (cuDNN, env NV_CUDNN_VERSION)) is not in the image's library path"

replica "$scratch/no-nccl" 11.8.0 ubuntu22.04 cudnn8-runtime --omit libnccl.so.2
expect_eq "11.8 without NCCL fails naming it" \
  "$(build_and_verify "$scratch/torch118.lock.json" torch118 "$scratch/no-nccl")" \
  "exit 1
library-present: libnccl.so.2 (promised by the base nvidia/cuda:$tag118 (NCCL, env NV_LIBNCCL_PACKAGE_VERSION)) is not in the image's library path"

# A CUDA 12.1 build on that 11.8 base: refused at build, naming the rule; nothing tagged.
lock_profile torch121 2.1 12.1 "$tag118"
set +e
message=$("$dlenv" build "$scratch/torch121.lock.json" --store "$store" --base "oci:$scratch/cuda118:$tag118" 2>&1)
rc=$?
set -e
expect_eq "a CUDA 12 build on a CUDA 11 base exits 1 at build" "$rc" 1
expect_eq "and says why, with the rule's source" "$(head -1 <<<"$message")" \
  "dlenv: base image oci:$scratch/cuda118:$tag118: torch is built with CUDA 12.1 and loads the base's CUDA libraries, but the base carries CUDA 11.8.0 (env CUDA_VERSION): their sonames carry the major (libcudart.so.12), so a CUDA 12 build cannot load them; use a CUDA 12.1 base, or pin the packages (dlenv lock without --offline) if its wheels bring their CUDA runtime"
expect_eq "the hint cites the rule" "$(sed -n 2p <<<"$message" | cut -c1-22)" "  hint: the rule: http"
expect_eq "nothing was tagged" "$(image_digest "$store" torch121 latest)" none

# 12.4.1 with cuDNN 9 on UBI 9 (libraries in /usr/lib64), torch 2.4.1+cu124 (cuDNN 9.1.0.70).
tag124=12.4.1-cudnn-runtime-ubi9
lock_profile torch124 2.4 12.4 "$tag124"
replica "$scratch/cuda124" 12.4.1 ubi9 cudnn-runtime
expect_eq "12.4 on UBI 9: the static tier passes" "$(build_and_verify "$scratch/torch124.lock.json" torch124 "$scratch/cuda124")" "exit 0"
expect_eq "12.4 on UBI 9: cuDNN 9's graph library is found in /usr/lib64" "$(findings_on 'libcudnn_graph.so.9 is')" \
  "pass library-present: libcudnn_graph.so.9 is /usr/lib64/libcudnn_graph.so.9.1.0"
expect_eq "12.4 on UBI 9: the label's package revision is not part of the version" "$(findings_on 'the base carries cuDNN')" \
  "pass base-cudnn: the base carries cuDNN 9.1.0.70 (env NV_CUDNN_VERSION), which torch (built with cuDNN 9.1.0.70) loads"
replica "$scratch/no-graph" 12.4.1 ubi9 cudnn-runtime --omit libcudnn_graph.so.9
expect_eq "12.4 on UBI 9 without cuDNN's graph library fails naming it" \
  "$(build_and_verify "$scratch/torch124.lock.json" torch124 "$scratch/no-graph" | head -2)" \
  "exit 1
library-present: libcudnn_graph.so.9 (promised by the base nvidia/cuda:$tag124 (cuDNN, env NV_CUDNN_VERSION)) is not in the image's library path"

# 13.0.0 with cuDNN 9 on Ubuntu 24.04, torch 2.9 cu130 (built with CUDA 13.0, cuDNN 9.13.0.50).
tag130=13.0.0-cudnn-runtime-ubuntu24.04
lock_profile torch130 2.9 13.0 "$tag130"
replica "$scratch/cuda130" 13.0.0 ubuntu24.04 cudnn-runtime
expect_eq "13.0: the static tier passes" "$(build_and_verify "$scratch/torch130.lock.json" torch130 "$scratch/cuda130")" "exit 0"
expect_eq "13.0: an older cuDNN of the major is a warning while the lock pins no packages" "$(findings_on 'torch is built with cuDNN')" \
  "warn base-cudnn: torch is built with cuDNN 9.13.0.50 but the base carries cuDNN 9.12.0.46 (env NV_CUDNN_VERSION), which is older: it serves torch only if a wheel brings a newer one, and the lock pins no packages to say so"
expect_eq "13.0: nvJitLink is held to its own version" "$(findings_on 'libnvJitLink.so.13 (')" \
  "pass library-version: libnvJitLink.so.13 (libnvJitLink.so.13.0.39) is version 13.0.39, as the base nvidia/cuda:$tag130 (NVIDIA compiler library for JIT LTO functionality (nvJitLink), cuda_components.json (CUDA 13.0.0)) says (13.0.39)"
replica "$scratch/no-cublas" 13.0.0 ubuntu24.04 cudnn-runtime --omit libcublas.so.13
expect_eq "13.0 without cuBLAS fails naming it" \
  "$(build_and_verify "$scratch/torch130.lock.json" torch130 "$scratch/no-cublas" | head -3)" \
  "exit 1
library-present: libcublas.so.13 (promised by the base nvidia/cuda:$tag130 (CUDA cuBLAS, env NV_LIBCUBLAS_VERSION)) is not in the image's library path
library-closure: libcusolver.so.12: libcublas.so.13, needed by /usr/local/cuda-13.0/targets/x86_64-linux/lib/libcusolver.so.12.0.3.29, is not in the image"

"$dlenv" fsck --store "$store" >/dev/null
