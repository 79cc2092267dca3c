#!/usr/bin/env bash
# "python_runtime": "3.11" on a base without Python, with a real interpreter: a
# python-build-standalone install_only archive made from this machine's Debian python3.11
# (tests/fixtures/python_base/make_standalone_python.py) is served on 127.0.0.1 and named
# by a --matrix copy whose python_runtimes.json has its real sha256; the lock pins it,
# fetch brings it and the wheels, the build runs with the server gone, on a replica of
# nvidia/cuda:11.8.0-cudnn8-runtime-ubuntu22.04, which has no python3. In the image the
# runtime's python3 imports the locked wheels under runc and under bwrap, `dlenv verify
# --tier static` lists each import, and the installed files are the ones pip writes for
# the same wheels into that interpreter's site-packages and bin.
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/python3.11 ]] || { echo "no /usr/bin/python3.11 to make the runtime from"; exit 77; }
for tool in patchelf runc bwrap umoci; do
  command -v "$tool" >/dev/null || { echo "no $tool"; exit 77; }
done
/usr/bin/python3 -m pip --version >/dev/null 2>&1 || { echo "no pip for /usr/bin/python3"; exit 77; }

json_value() { # json_value EXPR: EXPR of the JSON document `j` on stdin
  python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"
}

# The runtime archive, named as python-build-standalone names its assets.
version=$(python3 "$source_dir/tests/fixtures/python_base/make_standalone_python.py" "$scratch/runtime.tar.gz")
release=dlenv-test
asset=cpython-$version+$release-x86_64-unknown-linux-gnu-install_only.tar.gz
mkdir -p "$scratch/serve/$release"
mv "$scratch/runtime.tar.gz" "$scratch/serve/$release/$asset"
runtime_sha256=$(sha256sum "$scratch/serve/$release/$asset" | cut -d' ' -f1)
expect_eq "the archive's top directory is python/" "$(tar -tzf "$scratch/serve/$release/$asset" | cut -d/ -f1 | sort -u)" "python"

start_serving "$scratch/serve"
url=$served_origin/$release/$asset

# The matrices with CPython 3.11's build replaced by the served archive.
cp -r "$source_dir/profiles/compat" "$scratch/matrix"
python3 - "$scratch/matrix/python_runtimes.json" "$version" "$release" "$url" "$runtime_sha256" <<'PY'
import json, sys
path, version, release, url, sha256 = sys.argv[1:]
doc = json.load(open(path))
row = next(r for r in doc["runtimes"] if r["python"].startswith("3.11."))
row.update(python=version, release=release, archives={"x86_64": {"url": url, "sha256": sha256}},
           note="this machine's Debian python3.11 in python-build-standalone's layout")
json.dump(doc, open(path, "w"), indent=2)
PY

# The torch 2.1.2+cu118 closure with importable modules, and demo-pkg (scripts, entry points, .data).
wheels=$scratch/wheels
python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$wheels" importable
python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$wheels" install
tag=11.8.0-cudnn8-runtime-ubuntu22.04
cat >"$scratch/app.json" <<EOF
{"format": "dlenv.profile/v1", "name": "app", "python": "3.11", "base_image": "nvidia/cuda:$tag",
 "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"}, "requirements": ["demo-pkg==1.0"],
 "packages": {"python_runtime": "3.11"}, "gpus": ["H100 SXM5"], "driver_floor": "580.65.06",
 "source_date_epoch": 1700000000}
EOF
lock=$scratch/app.lock.json
"$dlenv" --matrix "$scratch/matrix" lock "$scratch/app.json" -o "$lock" --offline --wheelhouse "$wheels" >/dev/null
expect_eq "the lock pins the served build" "$(json_value 'j["python"]["runtime"]' <"$lock")" \
  "{'release': '$release', 'sha256': '$runtime_sha256', 'url': '$url', 'version': '$version'}"

store=$scratch/store/.dlenv
"$dlenv" fetch "$lock" --store "$store" >/dev/null 2>&1
stop_serving
rm -rf "$scratch/serve"

python3 "$source_dir/tests/fixtures/nvidia_cuda/make_base.py" --cuda 11.8.0 --os ubuntu22.04 --flavour cudnn8-runtime \
  --out "$scratch/base" >/dev/null
ref=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["manifests"][0]["annotations"]["org.opencontainers.image.ref.name"])' "$scratch/base/index.json")
built=$("$dlenv" --matrix "$scratch/matrix" build "$lock" --store "$store" --base "oci:$scratch/base:$ref" --json)
expect_eq "the layers, in order" "$(json_value '"\n".join(l["created_by"] for l in j["layers"])' <<<"$built")" \
  "dlenv build: Python 3.11 runtime into /usr/local
dlenv build: 8 Python packages into /usr/local/lib/python3.11/site-packages
dlenv build: validation kit in /opt/dlenv"

umoci unpack --image "$store:app:latest" "$scratch/bundle" >/dev/null
rootfs=$scratch/bundle/rootfs
expect_eq "the base has no python3 of its own" "$(ls "$rootfs/usr/bin" | grep -c '^python')" "0"
expect_eq "python3 is the runtime's" "$(readlink "$rootfs/usr/local/bin/python3")" "python3.11"

# python3 -c in the container, as runc runs the image's bundle and as bwrap runs its root.
probe='import sys, torch, filelock, demo_pkg, nvidia.cudnn
print(sys.prefix, torch.__version__, filelock.__version__, demo_pkg.VERSION, torch.__file__)'
expected="/usr/local 2.1.2+cu118 3.13.1 1.0 /usr/local/lib/python3.11/site-packages/torch/__init__.py"
python3 - "$scratch/bundle/config.json" "$probe" <<'PY'
import json, sys
path, probe = sys.argv[1:]
config = json.load(open(path))
config["process"].update(args=["/usr/local/bin/python3", "-c", probe], terminal=False)
json.dump(config, open(path, "w"))
PY
expect_eq "runc: the runtime imports the locked wheels" "$(runc run --bundle "$scratch/bundle" "dlenv-pbs-$$")" "$expected"
expect_eq "bwrap: the runtime imports the locked wheels" \
  "$(bwrap --bind "$rootfs" / --proc /proc --dev /dev --unshare-all --clearenv --setenv PATH /usr/local/bin:/usr/bin:/bin \
    python3 -c "$probe")" "$expected"

for runtime in runc bwrap; do
  set +e
  "$dlenv" verify app --store "$store" --tier static --runtime "$runtime" --json >"$scratch/$runtime.json"
  rc=$?
  set -e
  expect_eq "$runtime: the static tier passes" "$rc" "0"
  expect_eq "$runtime: the static tier imports each package" \
    "$(json_value '"\n".join(f["outcome"] + ": " + f["message"] for t in j["tiers"] for f in t["findings"] if f["code"] in ("package-import", "python-present"))' <"$scratch/$runtime.json")" \
    "pass: python3 is /usr/local/bin/python3
pass: demo-pkg 1.0 imports (demo_extra, demo_pkg, demo_plat)
pass: filelock 3.13.1 imports (filelock)
pass: nvidia-cublas-cu11 11.11.3.6 imports (nvidia.cublas)
pass: nvidia-cudnn-cu11 8.7.0.84 imports (nvidia.cudnn)
pass: nvidia-nccl-cu11 2.18.1 imports (nvidia.nccl)
pass: torch 2.1.2+cu118 imports (functorch, torch)
pass: triton 2.1.0 imports (triton)
pass: typing-extensions 4.9.0 imports (typing_extensions)"
done

# What pip writes for the same wheels (pip --target: the purelib and platlib, scripts in
# its bin/), against the image's site-packages and what the packages layer put in bin/.
/usr/bin/python3 -m pip install --quiet --no-deps --no-index --no-compile --disable-pip-version-check --root-user-action=ignore \
  --target "$scratch/pip" "$wheels"/{torch,filelock,typing_extensions,triton,nvidia_*,demo_pkg}-*.whl
listing() { # listing DIR: its files, without those pip writes and dlenv does not
  (cd "$1" && find . -type f | sed 's|^\./||' | grep -v -e '/direct_url.json$' -e '/REQUESTED$' -e '__pycache__/' | sort)
}
site=$rootfs/usr/local/lib/python3.11/site-packages
# pip --target puts a wheel's data and headers into the target too; dlenv, as pip does
# into a prefix, under /usr/local.
expect_eq "the same files in site-packages as pip's, besides the runtime's README.txt" \
  "$(listing "$site" | grep -v '^README.txt$')" "$(listing "$scratch/pip" | grep -v -e '^bin/' -e '^share/' -e '^include/')"
expect_eq "the data and headers under the prefix" \
  "$(cmp "$rootfs/usr/local/share/demo/readme.txt" "$scratch/pip/share/demo/readme.txt" &&
     cmp "$rootfs/usr/local/include/python3.11/demo-pkg/demo.h" "$scratch/pip/include/python/demo-pkg/demo.h" && echo same)" \
  "same"
expect_eq "the same scripts as pip's" \
  "$(cd "$rootfs/usr/local/bin" && ls demo* plain.sh | sort)" "$(ls "$scratch/pip/bin" | sort)"
expect_eq "each installer names itself" \
  "$(cat "$site/torch-2.1.2+cu118.dist-info/INSTALLER") $(cat "$scratch/pip/torch-2.1.2+cu118.dist-info/INSTALLER")" \
  "dlenv pip"
for file in torch/__init__.py filelock/version.py demo_extra.py demo_plat.py demo_pkg/tool.sh; do
  cmp "$site/$file" "$scratch/pip/$file" || fail "$file differs from pip's"
done
# RECORD: pip lists the files it wrote (no .pyc with --no-compile) and INSTALLER,
# REQUESTED and direct_url.json, which dlenv does not write; every other line is the same.
records() { # records RECORD: its lines, without those
  grep -v -e '/INSTALLER,' -e '/REQUESTED,' -e '/direct_url.json,' -e '\.pyc,' -e '^\.\./\.\./bin/' -e '^bin/' "$1" |
    tr -d '\r' | sort
}
expect_eq "torch's RECORD lines are pip's" \
  "$(records "$site/torch-2.1.2+cu118.dist-info/RECORD")" "$(records "$scratch/pip/torch-2.1.2+cu118.dist-info/RECORD")"
expect_eq "the scripts' shebangs name the runtime's interpreter" \
  "$(head -1 "$rootfs/usr/local/bin/demo-tool") $(head -1 "$rootfs/usr/local/bin/demo")" \
  "#!/usr/local/bin/python3.11 #!/usr/local/bin/python3.11"
echo "runtime: CPython $version, $(du -k "$store/dlenv/artifacts/sha256/$runtime_sha256" 2>/dev/null | cut -f1) KiB archive"
