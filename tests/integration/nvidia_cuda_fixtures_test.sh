#!/usr/bin/env bash
# tests/fixtures/nvidia_cuda/make_base.py writes OCI layouts that look like NVIDIA's
# nvidia/cuda images: the Env, labels and entrypoint of the Dockerfiles, the CUDA, NCCL
# and cuDNN libraries under their real file names with soname links and DT_NEEDED edges,
# the /usr/local/cuda links and ld.so.conf.d files; the same arguments give the same
# digest, --omit removes exactly one library, and dlenv builds on such a layout and the
# static tier passes on the result, holding it to what its config says it carries.
source "$(dirname "$0")/lib.sh"

make_base=$source_dir/tests/fixtures/nvidia_cuda/make_base.py
cache=$scratch/stubs

# Generates CUDA OS FLAVOUR into DIR and unpacks its layers into DIR.rootfs.
generate() { # generate DIR CUDA OS FLAVOUR [ARGS...]
  local dir=$1 cuda=$2 os=$3 flavour=$4
  shift 4
  python3 "$make_base" --cuda "$cuda" --os "$os" --flavour "$flavour" --out "$dir" --stub-cache "$cache" "$@" >"$dir.digest"
  mkdir -p "$dir.rootfs"
  for layer in $(python3 - "$dir" <<'PY'
import json, sys
d = sys.argv[1]
index = json.load(open(d + "/index.json"))
manifest = json.load(open(d + "/blobs/sha256/" + index["manifests"][0]["digest"][7:]))
print(" ".join(d + "/blobs/sha256/" + l["digest"][7:] for l in manifest["layers"]))
PY
  ); do
    tar -xf "$layer" -C "$dir.rootfs"
  done
}

# The config's FIELD of the layout DIR: an Env variable's value, Labels, Entrypoint or Cmd.
config_of() { # config_of DIR FIELD
  python3 - "$1" "$2" <<'PY'
import json, sys
d, field = sys.argv[1:]
index = json.load(open(d + "/index.json"))
manifest = json.load(open(d + "/blobs/sha256/" + index["manifests"][0]["digest"][7:]))
config = json.load(open(d + "/blobs/sha256/" + manifest["config"]["digest"][7:]))["config"]
if field in ("Labels", "Entrypoint", "Cmd"):
    print(json.dumps(config.get(field), sort_keys=True))
else:
    print(dict(e.split("=", 1) for e in config["Env"]).get(field, "unset"))
PY
}

ref_name() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]+"/index.json"))["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"])' "$1"; }
require_cuda() { # require_cuda CUDA PLATFORM: the value nvidia_require_cuda.json holds
  python3 -c 'import json,sys; c,p=sys.argv[1:3]; d=json.load(open(sys.argv[3])); print(next(v["value"] for r in d["releases"] if r["cuda"]==c for v in r["require_cuda"] if p in v["platforms"]))' \
    "$1" "$2" "$source_dir/profiles/compat/nvidia_require_cuda.json"
}
needed() { readelf -d "$1" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' ' | sed 's/ $//'; }
soname() { readelf -d "$1" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p'; }

start=$(date +%s)

# 11.8.0 cuDNN 8 runtime on Ubuntu 22.04.
a=$scratch/cuda118
generate "$a" 11.8.0 ubuntu22.04 cudnn8-runtime
expect_eq "11.8: the ref name" "$(ref_name "$a")" 11.8.0-cudnn8-runtime-ubuntu22.04
expect_eq "11.8: CUDA_VERSION" "$(config_of "$a" CUDA_VERSION)" 11.8.0
expect_eq "11.8: NV_LIBCUBLAS_VERSION" "$(config_of "$a" NV_LIBCUBLAS_VERSION)" 11.11.3.6-1
expect_eq "11.8: NV_CUDNN_VERSION" "$(config_of "$a" NV_CUDNN_VERSION)" 8.9.6.50
expect_eq "11.8: NV_CUDNN_PACKAGE, \$VAR expanded" "$(config_of "$a" NV_CUDNN_PACKAGE)" "libcudnn8=8.9.6.50-1+cuda11.8"
expect_eq "11.8: NV_LIBNCCL_PACKAGE, \${VAR} expanded" "$(config_of "$a" NV_LIBNCCL_PACKAGE)" "libnccl2=2.15.5-1+cuda11.8"
expect_eq "11.8: the amd64 stage's NV_CUDA_COMPAT_PACKAGE" "$(config_of "$a" NV_CUDA_COMPAT_PACKAGE)" cuda-compat-11-8
expect_eq "11.8: PATH on the OS image's" "$(config_of "$a" PATH)" \
  "/usr/local/nvidia/bin:/usr/local/cuda/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"
expect_eq "11.8: NVIDIA_REQUIRE_CUDA begins" "$(config_of "$a" NVIDIA_REQUIRE_CUDA | cut -d' ' -f1-2)" \
  "cuda>=11.8 brand=tesla,driver>=470,driver<471"
expect_eq "11.8: NVIDIA_REQUIRE_CUDA is the amd64 value" "$(config_of "$a" NVIDIA_REQUIRE_CUDA)" "$(require_cuda 11.8.0 ubuntu22.04/amd64)"
expect_eq "11.8: labels" "$(config_of "$a" Labels)" '{"com.nvidia.cudnn.version": "8.9.6.50"}'
expect_eq "11.8: entrypoint" "$(config_of "$a" Entrypoint)" '["/opt/nvidia/nvidia_entrypoint.sh"]'
expect_eq "11.8: no CMD under an ENTRYPOINT" "$(config_of "$a" Cmd)" null
r=$a.rootfs
lib=$r/usr/local/cuda-11.8/targets/x86_64-linux/lib
expect_eq "11.8: /usr/local/cuda" "$(readlink "$r/usr/local/cuda")" cuda-11.8
expect_eq "11.8: /usr/local/cuda-11" "$(readlink "$r/usr/local/cuda-11")" cuda-11.8
expect_eq "11.8: lib64" "$(readlink "$r/usr/local/cuda-11.8/lib64")" targets/x86_64-linux/lib
expect_eq "11.8: the cuBLAS soname link" "$(readlink "$lib/libcublas.so.11")" libcublas.so.11.11.3.6
expect_eq "11.8: the cudart soname link" "$(readlink "$lib/libcudart.so.11.0")" libcudart.so.11.8.89
expect_eq "11.8: the NVRTC soname link" "$(readlink "$lib/libnvrtc.so.11.2")" libnvrtc.so.11.8.89
expect_eq "11.8: no nvJitLink before 12.0" "$(ls "$lib" | grep -c nvJitLink || true)" 0
expect_eq "11.8: NCCL in the system directory" "$(readlink "$r/usr/lib/x86_64-linux-gnu/libnccl.so.2")" libnccl.so.2.15.5
expect_eq "11.8: the cuDNN 8 libraries" "$(cd "$r/usr/lib/x86_64-linux-gnu" && ls libcudnn* | tr '\n' ' ')" \
  "libcudnn.so.8 libcudnn.so.8.9.6 libcudnn_adv_infer.so.8 libcudnn_adv_infer.so.8.9.6 libcudnn_adv_train.so.8 libcudnn_adv_train.so.8.9.6 libcudnn_cnn_infer.so.8 libcudnn_cnn_infer.so.8.9.6 libcudnn_cnn_train.so.8 libcudnn_cnn_train.so.8.9.6 libcudnn_ops_infer.so.8 libcudnn_ops_infer.so.8.9.6 libcudnn_ops_train.so.8 libcudnn_ops_train.so.8.9.6 "
expect_eq "11.8: ld.so.conf.d" "$(cd "$r/etc/ld.so.conf.d" && for f in *; do echo "$f: $(tr '\n' ' ' <"$f")"; done)" \
  "000_cuda.conf: /usr/local/cuda/targets/x86_64-linux/lib 
988_cuda-11.conf: /usr/local/cuda-11/targets/x86_64-linux/lib 
nvidia.conf: /usr/local/nvidia/lib /usr/local/nvidia/lib64 "
expect_eq "11.8: no version.json" "$(test -e "$r/usr/local/cuda/version.json" && echo present || echo absent)" absent
expect_eq "11.8: libcublas's soname" "$(soname "$lib/libcublas.so.11.11.3.6")" libcublas.so.11
expect_eq "11.8: libcublas needs" "$(needed "$lib/libcublas.so.11")" \
  "libcublasLt.so.11 librt.so.1 libpthread.so.0 libdl.so.2 libm.so.6 libgcc_s.so.1 libc.so.6"
expect_eq "11.8: libcusolver needs cuBLAS, not cuSPARSE" "$(needed "$lib/libcusolver.so.11")" \
  "libdl.so.2 libcublas.so.11 libcublasLt.so.11 librt.so.1 libpthread.so.0 libm.so.6 libgcc_s.so.1 libc.so.6"
expect_eq "11.8: libcudnn_cnn_train needs" "$(needed "$r/usr/lib/x86_64-linux-gnu/libcudnn_cnn_train.so.8")" \
  "libcudnn_ops_infer.so.8 libcudnn_ops_train.so.8 libcudnn_cnn_infer.so.8 libc.so.6"

# The same arguments give the same layout.
python3 "$make_base" --cuda 11.8.0 --os ubuntu22.04 --flavour cudnn8-runtime --out "$scratch/again" --stub-cache "$scratch/other-cache" >"$scratch/again.digest"
expect_eq "a second run gives the same manifest" "$(cat "$scratch/again.digest")" "$(cat "$a.digest")"
expect_eq "and the same blobs" "$(ls "$scratch/again/blobs/sha256" | sort | tr '\n' ' ')" "$(ls "$a/blobs/sha256" | sort | tr '\n' ' ')"

# --omit leaves exactly that library (file and link) out.
generate "$scratch/omit" 11.8.0 ubuntu22.04 cudnn8-runtime --omit libcublasLt.so.11
expect_eq "--omit removes the library's file and link, nothing else" \
  "$(diff <(cd "$a.rootfs" && find . | sort) <(cd "$scratch/omit.rootfs" && find . | sort) | grep '^[<>]' | tr '\n' ' ')" \
  "< ./usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublasLt.so.11 < ./usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublasLt.so.11.11.3.6 "
expect_eq "the library that needs it still names it" \
  "$(needed "$scratch/omit.rootfs/usr/local/cuda-11.8/targets/x86_64-linux/lib/libcublas.so.11" | cut -d' ' -f1)" libcublasLt.so.11
set +e
message=$(python3 "$make_base" --cuda 11.8.0 --os ubuntu22.04 --flavour runtime --out "$scratch/bad" --omit libcudnn.so.8 2>&1)
rc=$?
set -e
expect_eq "--omit of a library the image lacks exits 1" "$rc" 1
expect_eq "and says so" "$message" "make_base.py: libcudnn.so.8 is no library of 11.8.0-runtime-ubuntu22.04"

# 12.4.1 cuDNN 9 runtime on UBI 9: libraries in /usr/lib64.
u=$scratch/cuda124
generate "$u" 12.4.1 ubi9 cudnn-runtime
expect_eq "12.4 ubi9: the ref name" "$(ref_name "$u")" 12.4.1-cudnn-runtime-ubi9
expect_eq "12.4 ubi9: CUDA_VERSION" "$(config_of "$u" CUDA_VERSION)" 12.4.1
expect_eq "12.4 ubi9: NV_LIBCUBLAS_VERSION" "$(config_of "$u" NV_LIBCUBLAS_VERSION)" 12.4.5.8-1
expect_eq "12.4 ubi9: NV_CUDNN_VERSION" "$(config_of "$u" NV_CUDNN_VERSION)" 9.1.0.70-1
expect_eq "12.4 ubi9: NV_CUDNN_PACKAGE" "$(config_of "$u" NV_CUDNN_PACKAGE)" libcudnn9-cuda-12-9.1.0.70-1
expect_eq "12.4 ubi9: NVIDIA_REQUIRE_CUDA" "$(config_of "$u" NVIDIA_REQUIRE_CUDA)" "$(require_cuda 12.4.1 ubi9/amd64)"
expect_eq "12.4 ubi9: labels" "$(config_of "$u" Labels)" '{"com.nvidia.cudnn.version": "9.1.0.70-1"}'
r=$u.rootfs
expect_eq "12.4 ubi9: /usr/local/cuda" "$(readlink "$r/usr/local/cuda")" cuda-12.4
expect_eq "12.4 ubi9: the glibc include" "$(cat "$r/etc/ld.so.conf")" "include ld.so.conf.d/*.conf"
expect_eq "12.4 ubi9: NCCL in /usr/lib64" "$(readlink "$r/usr/lib64/libnccl.so.2")" libnccl.so.2.21.5
expect_eq "12.4 ubi9: the cuDNN 9 libraries" "$(cd "$r/usr/lib64" && ls libcudnn*.so.9 | tr '\n' ' ')" \
  "libcudnn.so.9 libcudnn_adv.so.9 libcudnn_cnn.so.9 libcudnn_engines_precompiled.so.9 libcudnn_engines_runtime_compiled.so.9 libcudnn_graph.so.9 libcudnn_heuristic.so.9 libcudnn_ops.so.9 "
expect_eq "12.4 ubi9: a cuDNN 9 soname link" "$(readlink "$r/usr/lib64/libcudnn_graph.so.9")" libcudnn_graph.so.9.1.0
expect_eq "12.4 ubi9: libcusparse needs nvJitLink" "$(needed "$r/usr/local/cuda-12.4/targets/x86_64-linux/lib/libcusparse.so.12" | cut -d' ' -f1)" libnvJitLink.so.12

# 13.0.0 cuDNN runtime on Ubuntu 24.04.
t=$scratch/cuda130
generate "$t" 13.0.0 ubuntu24.04 cudnn-runtime
expect_eq "13.0: the ref name" "$(ref_name "$t")" 13.0.0-cudnn-runtime-ubuntu24.04
expect_eq "13.0: CUDA_VERSION" "$(config_of "$t" CUDA_VERSION)" 13.0.0
expect_eq "13.0: NV_LIBCUBLAS_VERSION" "$(config_of "$t" NV_LIBCUBLAS_VERSION)" 13.0.0.19-1
expect_eq "13.0: NV_CUDNN_VERSION" "$(config_of "$t" NV_CUDNN_VERSION)" 9.12.0.46-1
expect_eq "13.0: LD_LIBRARY_PATH" "$(config_of "$t" LD_LIBRARY_PATH)" /usr/local/nvidia/lib:/usr/local/nvidia/lib64:/usr/local/cuda/lib64
expect_eq "13.0: NVIDIA_REQUIRE_CUDA" "$(config_of "$t" NVIDIA_REQUIRE_CUDA)" "$(require_cuda 13.0.0 ubuntu24.04/amd64)"
r=$t.rootfs
lib=$r/usr/local/cuda-13.0/targets/x86_64-linux/lib
expect_eq "13.0: /usr/local/cuda" "$(readlink "$r/usr/local/cuda")" cuda-13.0
expect_eq "13.0: the nvJitLink link" "$(readlink "$lib/libnvJitLink.so.13")" libnvJitLink.so.13.0.39
expect_eq "13.0: 988_cuda-13.conf" "$(cat "$r/etc/ld.so.conf.d/988_cuda-13.conf")" /usr/local/cuda-13/targets/x86_64-linux/lib
expect_eq "13.0: nvidia.conf" "$(cat "$r/etc/ld.so.conf.d/nvidia.conf")" /usr/local/cuda/lib64
expect_eq "13.0: NCCL" "$(readlink "$r/usr/lib/x86_64-linux-gnu/libnccl.so.2")" libnccl.so.2.27.7
expect_eq "13.0: libcusolver needs" "$(needed "$lib/libcusolver.so.12")" \
  "libdl.so.2 libnvJitLink.so.13 libcusparse.so.12 libcublas.so.13 libcublasLt.so.13 librt.so.1 libpthread.so.0 libm.so.6 libgcc_s.so.1 libc.so.6"
expect_eq "13.0: libcudnn_adv's soname" "$(soname "$r/usr/lib/x86_64-linux-gnu/libcudnn_adv.so.9.12.0")" libcudnn_adv.so.9
expect_eq "13.0: libcudnn_adv needs" "$(needed "$r/usr/lib/x86_64-linux-gnu/libcudnn_adv.so.9")" \
  "libcudnn_ops.so.9 libcudnn_graph.so.9 libdl.so.2 librt.so.1 libpthread.so.0 libstdc++.so.6 libm.so.6 libgcc_s.so.1 libc.so.6"

# dlenv builds on the layout, lists the result, and the static tier passes on it.
cat >"$scratch/profile.json" <<EOF
{"format": "dlenv.profile/v1", "name": "oncuda", "python": "3.10",
 "base_image": "oci:$a:11.8.0-cudnn8-runtime-ubuntu22.04",
 "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"},
 "gpus": ["H100 SXM5"], "driver_floor": "525.60.13", "source_date_epoch": 1700000000}
EOF
store=$scratch/store/.dlenv
"$dlenv" lock "$scratch/profile.json" -o "$scratch/oncuda.lock.json" --offline >/dev/null
"$dlenv" build "$scratch/oncuda.lock.json" --store "$store" >/dev/null
expect_eq "dlenv images lists the image built on the layout" \
  "$("$dlenv" images --store "$store" --json | python3 -c 'import json,sys; print(sorted(i["name"]+":"+i["tag"] for i in json.load(sys.stdin)))')" \
  "['oncuda:latest']"
expect_eq "the built image keeps the base's NV_CUDNN_VERSION" \
  "$(skopeo inspect --config "oci:$store:oncuda:latest" | python3 -c 'import json,sys; print(dict(e.split("=",1) for e in json.load(sys.stdin)["config"]["Env"])["NV_CUDNN_VERSION"])')" \
  8.9.6.50
set +e
report=$("$dlenv" verify oncuda --store "$store" --tier static --json)
rc=$?
set -e
expect_eq "the static tier passes" "$rc" 0
# The base is named by a path, not nvidia/cuda:TAG: its config alone says what it carries.
expect_eq "every library its config promises is checked: 11 of CUDA 11.8, 7 of cuDNN 8, NCCL" \
  "$(python3 -c 'import json,sys; r=json.load(sys.stdin); print(sum(1 for t in r["tiers"] for f in t["findings"] if f["code"]=="library-present" and f["outcome"]=="pass"))' <<<"$report")" \
  19

elapsed=$(($(date +%s) - start))
echo "generation and checks took ${elapsed}s"
[ "$elapsed" -lt 60 ] || fail "the fixtures took ${elapsed}s"
