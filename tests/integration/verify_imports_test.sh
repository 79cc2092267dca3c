#!/usr/bin/env bash
# `dlenv verify --tier static` imports every package the lock pins with the image's own
# python3 in a real container: an image over a base with Debian's python3.11 passes and
# names each import (nvidia-* wheels through their namespace package); one whose
# packages are broken fails naming the exception and the version; the build on a base
# without python3 refuses, and an image whose python3 was removed after the build fails
# saying so.
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/python3.11 ]] || { echo "no /usr/bin/python3.11 to make a base from"; exit 77; }

# A base with /bin/sh, cat and this machine's Debian python3.11: the interpreter, its
# standard library and the shared libraries it and its extension modules load.
rootfs=$scratch/python-base/rootfs
mkdir -p "$rootfs/bin" "$rootfs/usr/bin" "$rootfs/usr/lib/python3/dist-packages" "$rootfs/tmp" "$rootfs/etc/python3.11"
cp /etc/python3.11/sitecustomize.py "$rootfs/etc/python3.11/"
cp -L /bin/sh /bin/cat "$rootfs/bin/"
cp /usr/bin/python3.11 "$rootfs/usr/bin/"
ln -s python3.11 "$rootfs/usr/bin/python3"
tar -C /usr/lib --exclude=test --exclude=__pycache__ --exclude=idlelib --exclude=tkinter --exclude=ensurepip \
  --exclude=lib2to3 --exclude='config-*' --exclude=site-packages --exclude=dist-packages -cf - python3.11 |
  tar -C "$rootfs/usr/lib" -xf -
for program in /bin/sh /bin/cat /usr/bin/python3.11 /usr/lib/python3.11/lib-dynload/*.so; do
  for library in $(ldd "$program" | grep -o '/[^ ]*'); do
    mkdir -p "$rootfs$(dirname "$library")"
    [[ -e $rootfs$library ]] || cp -L "$library" "$rootfs$library"
  done
done
env='"PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"'
archive=$scratch/python-base/archive
mkdir -p "$archive"
(cd "$rootfs" && tar --sort=name --mtime=@0 --owner=0 --group=0 --numeric-owner -cf "$archive/layer.tar" -- *)
diff_id=$(sha256sum "$archive/layer.tar" | cut -d' ' -f1)
mkdir "$archive/$diff_id" && mv "$archive/layer.tar" "$archive/$diff_id/"
printf '{"architecture":"amd64","os":"linux","config":{"Env":[%s],"Cmd":["/app/hello.sh"]},"rootfs":{"type":"layers","diff_ids":["sha256:%s"]}}' \
  "$env" "$diff_id" >"$archive/config.json"
config=$(sha256sum "$archive/config.json" | cut -d' ' -f1)
mv "$archive/config.json" "$archive/$config.json"
printf '[{"Config":"%s.json","RepoTags":["python-base:latest"],"Layers":["%s/layer.tar"]}]' "$config" "$diff_id" \
  >"$archive/manifest.json"
(cd "$archive" && tar -cf "$scratch/python-base.tar" -- *)

# The torch 2.1.2+cu118 closure, its files laid out as the real wheels lay them out, and
# the same with a broken triton and torch (tests/fixtures/wheels/make_wheels.py).
python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$scratch/wheels" importable
python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$scratch/broken-wheels" importable-broken

# The quickstart's profile for torch 2.1 on CUDA 11.8 and Python 3.11 over BASE.
cp -r "$source_dir/examples/quickstart/app" "$scratch/app"
profile() { # profile OUT BASE
  python3 - "$source_dir/examples/quickstart/quickstart.json" "$1" "$2" <<'PY'
import json, sys
source, out, base = sys.argv[1:]
profile = json.load(open(source))
profile.update(name="torch-app", python="3.11", base_image="docker-archive:" + base,
               framework={"name": "torch", "version": "2.1", "cuda": "11.8"})
json.dump(profile, open(out, "w"))
PY
}
# "code:outcome" of each finding of the static tier, and the messages of those with CODE.
findings() {
  python3 -c 'import json,sys; r=json.load(sys.stdin); print(" ".join(f["code"]+":"+f["outcome"] for t in r["tiers"] for f in t["findings"]))'
}
messages_of() { # messages_of CODE
  python3 -c 'import json,sys; r=json.load(sys.stdin); print("\n".join(f["outcome"]+": "+f["message"] for t in r["tiers"] for f in t["findings"] if f["code"]==sys.argv[1]))' "$1"
}
# Locks, builds and verifies the profile over BASE with WHEELS into a store of its own;
# prints the static tier's report and its exit status last.
verify_image() { # verify_image NAME BASE WHEELS
  profile "$scratch/$1.json" "$2"
  "$dlenv" lock "$scratch/$1.json" -o "$scratch/$1.lock.json" --offline --wheelhouse "$3" >/dev/null
  "$dlenv" build "$scratch/$1.lock.json" --store "$scratch/$1/.dlenv" >/dev/null
  set +e
  "$dlenv" verify torch-app --store "$scratch/$1/.dlenv" --tier static --json >"$scratch/$1.report.json"
  echo $? >"$scratch/$1.rc"
  set -e
}

static_findings="kit-lock:pass file-sha256:pass package-version:pass package-version:pass package-version:pass package-version:pass package-version:pass package-version:pass package-version:pass entrypoint-closure:pass container-start:pass kit-readable:pass python-present:pass"

verify_image good "$scratch/python-base.tar" "$scratch/wheels"
expect_eq "the image with python3 passes" "$(cat "$scratch/good.rc")" 0
expect_eq "its findings" "$(findings <"$scratch/good.report.json")" \
  "$static_findings package-import:pass package-import:pass package-import:pass package-import:pass package-import:pass package-import:pass package-import:pass framework-import:pass"
expect_eq "each package's imports" "$(messages_of package-import <"$scratch/good.report.json")" \
  "pass: filelock 3.13.1 imports (filelock)
pass: nvidia-cublas-cu11 11.11.3.6 imports (nvidia.cublas)
pass: nvidia-cudnn-cu11 8.7.0.84 imports (nvidia.cudnn)
pass: nvidia-nccl-cu11 2.18.1 imports (nvidia.nccl)
pass: torch 2.1.2+cu118 imports (functorch, torch)
pass: triton 2.1.0 imports (triton)
pass: typing-extensions 4.9.0 imports (typing_extensions)"
expect_eq "the framework's import" "$(messages_of framework-import <"$scratch/good.report.json")" \
  "pass: import torch works on the CPU and gives version 2.1.2+cu118"
expect_eq "the interpreter" "$(messages_of python-present <"$scratch/good.report.json")" "pass: python3 is /usr/bin/python3"

verify_image broken "$scratch/python-base.tar" "$scratch/broken-wheels"
expect_eq "the image with broken packages fails" "$(cat "$scratch/broken.rc")" 1
expect_eq "the broken packages' imports" "$(messages_of package-import <"$scratch/broken.report.json" | grep -v '^pass')" \
  "fail: torch 2.1.2+cu118: torch.__version__ is 2.1.0+cu118, the lock pins 2.1.2+cu118
fail: triton 2.1.0: import triton failed: ModuleNotFoundError: No module named 'triton._C'"
expect_eq "the framework's version" "$(messages_of framework-import <"$scratch/broken.report.json")" \
  "fail: import torch gives version 2.1.0+cu118, the lock pins 2.1.2+cu118"

# The same wheels on a base without python3: the build refuses, naming what is missing.
build_quickstart "$scratch/quickstart/.dlenv" # for its base, which has no python3
profile "$scratch/no-python.json" "$scratch/quickstart/quickstart-base.tar"
"$dlenv" lock "$scratch/no-python.json" -o "$scratch/no-python.lock.json" --offline --wheelhouse "$scratch/wheels" >/dev/null
set +e
message=$("$dlenv" build "$scratch/no-python.lock.json" --store "$scratch/no-python/.dlenv" 2>&1)
rc=$?
set -e
expect_eq "the build on a base without python3 exits 1" "$rc" 1
expect_eq "naming the missing interpreter" "$(head -1 <<<"$message" | grep -c 'has no python3 in /usr/local/bin or /usr/bin')" 1

# An image whose python3 another tool removed after the build: the static tier fails.
store=$scratch/good/.dlenv
umoci unpack --image "$store:torch-app:latest" "$scratch/bundle" >/dev/null
rm -f "$scratch/bundle/rootfs/usr/bin/python3" "$scratch/bundle/rootfs/usr/bin/python3.11"
repack_as "$store" "$scratch/bundle" torch-app no-python
set +e
"$dlenv" verify torch-app:no-python --store "$store" --tier static --json >"$scratch/no-python.report.json"
rc=$?
set -e
expect_eq "the image without python3 fails" "$rc" 1
expect_eq "its findings" "$(findings <"$scratch/no-python.report.json")" \
  "${static_findings%:pass}:fail framework-import:skip"
expect_eq "the missing interpreter is named" "$(messages_of python-present <"$scratch/no-python.report.json")" \
  "fail: the lock pins 7 packages but the image has no python3 in its PATH (/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin)"
expect_eq "the framework's import is skipped" "$(messages_of framework-import <"$scratch/no-python.report.json")" \
  "skip: the image has no python3"
