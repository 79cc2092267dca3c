#!/usr/bin/env bash
# A lock that pins a Python closure and a Python runtime: locked from a wheelhouse and from
# an index served on 127.0.0.1, fetched into the store, then built after the server is
# gone and the files deleted; the image equals one built while the server was up, umoci
# unpacks the packages and the runtime under /usr/local, and a wheel that changed
# upstream is refused with nothing stored.
source "$(dirname "$0")/lib.sh"

fixtures=$source_dir/tests/fixtures/wheels
python3 "$fixtures/make_wheels.py" "$scratch/wheels" resolve
python3 "$fixtures/make_index.py" "$scratch/wheels" "$scratch/index"
build_quickstart "$scratch/quickstart/.dlenv" # for its small base archive
base=$scratch/quickstart/quickstart-base.tar

stub_python_runtime "$scratch/cpython.tar.gz"
runtime_sha256=$(sha256sum "$scratch/cpython.tar.gz" | cut -d' ' -f1)

# The quickstart's profile for torch 2.1 on CUDA 11.8 and Python 3.11, with the runtime.
cp -r "$source_dir/examples/quickstart/app" "$scratch/app"
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/torch.json" "$base" \
  "file://$scratch/cpython.tar.gz" "$runtime_sha256" <<'PY'
import json, sys
source, out, base, url, sha256 = sys.argv[1:]
profile = json.load(open(source))
profile.update(name="torch-app", python="3.11", base_image="docker-archive:" + base,
               framework={"name": "torch", "version": "2.1", "cuda": "11.8"},
               packages={"python_runtime": {"url": url, "sha256": sha256}})
json.dump(profile, open(out, "w"))
PY

json_value() { # json_value EXPR: EXPR of the JSON document `j` on stdin
  python3 -c "import json,sys; j=json.load(sys.stdin); print($1)"
}
packages_of() { # packages_of LOCK FIELD: the field of each pinned package, one a line
  json_value "'\n'.join(p['$2'] for p in j['packages'])" <"$1"
}

"$dlenv" lock "$scratch/torch.json" -o "$scratch/wheelhouse.lock.json" --offline --wheelhouse "$scratch/wheels" \
  >/dev/null
expect_eq "the wheelhouse lock pins the closure" "$(packages_of "$scratch/wheelhouse.lock.json" name | tr '\n' ' ')" \
  "filelock nvidia-cublas-cu11 nvidia-cudnn-cu11 nvidia-nccl-cu11 torch triton typing-extensions "

start_serving "$scratch/index"
origin=$served_origin
lock=$scratch/torch.lock.json
"$dlenv" lock "$scratch/torch.json" -o "$lock" --index "pypi=$origin/simple/" --index "pytorch=$origin/simple/" \
  >/dev/null
expect_eq "the index lock pins the same files" \
  "$(packages_of "$lock" sha256)" "$(packages_of "$scratch/wheelhouse.lock.json" sha256)"
expect_eq "the index lock's URLs are the server's" "$(packages_of "$lock" url | grep -cv "^$origin/files/")" "0"

# While the server is up: a build that fetches as it goes, in a store of its own.
online=$scratch/online/.dlenv
online_build=$("$dlenv" build "$lock" --store "$online" --json)
online_digest=$(json_value 'j["digest"]' <<<"$online_build")
expect_eq "the build fetched the runtime and seven wheels" \
  "$(json_value '[a["state"] for a in j["fetched"]].count("fetched")' <<<"$online_build")" "8"
expect_eq "the layers, in order" "$(json_value '"\n".join(l["created_by"] for l in j["layers"])' <<<"$online_build")" \
  "dlenv build: Python 3.11 runtime into /usr/local
dlenv build: 7 Python packages into /usr/local/lib/python3.11/site-packages
dlenv build: files pinned by the lock
dlenv build: validation kit in /opt/dlenv"
wheelhouse_build=$("$dlenv" build "$scratch/wheelhouse.lock.json" --store "$online" --name wheelhouse --json)
expect_eq "the wheelhouse lock's closure reuses the index lock's packages layer" \
  "$(json_value 'j["layers"][1]["reused"], j["layers"][1]["digest"]' <<<"$wheelhouse_build")" \
  "$(json_value 'True, j["layers"][1]["digest"]' <<<"$online_build")"

# `dlenv fetch` into the store that will build without the network.
offline=$scratch/offline/.dlenv
fetched=$("$dlenv" fetch "$lock" --store "$offline" --json)
expect_eq "fetch brought the runtime and seven wheels" \
  "$(json_value '[a["state"] for a in j["artifacts"]].count("fetched")' <<<"$fetched")" "8"
expect_eq "a second fetch finds them all in the store" \
  "$("$dlenv" fetch "$lock" --store "$offline" 2>/dev/null | tail -n 1 | sed 's/.*: //')" \
  "0 fetched (0 bytes), 8 already in the store ($(json_value 'sum(a["bytes"] for a in j["artifacts"])' <<<"$fetched") bytes)"

# A wheel that changed upstream: refused, exit 1, and nothing of it stored.
torch_of() { # torch_of FIELD: the field of the lock's torch
  json_value "next(p['$1'] for p in j['packages'] if p['name'] == 'torch')" <"$lock"
}
torch_url=$(torch_of url)
torch_sha256=$(torch_of sha256)
torch_file=$scratch/index/files/$(torch_of filename)
cp "$torch_file" "$scratch/torch.whl.orig"
printf 'not the wheel that was locked\n' >"$torch_file"
set +e
refused=$("$dlenv" fetch "$lock" --store "$scratch/fresh/.dlenv" --json)
status=$?
set -e
expect_eq "a changed wheel fails the fetch" "$status" "1"
expect_eq "the refusal names the URL and both hashes" \
  "$(json_value 'j["error"]["message"]' <<<"$refused")" \
  "$torch_url has sha256 $(sha256sum "$torch_file" | cut -d' ' -f1), the lock pins $torch_sha256"
expect_eq "the fresh store has no torch artifact" "$(ls "$scratch/fresh/.dlenv/dlenv/artifacts/sha256" | grep -c "$torch_sha256")" "0"
expect_eq "nor a temporary file" "$(ls -A "$scratch/fresh/.dlenv/dlenv/artifacts/sha256" | grep -c '^\.')" "0"

# The server stops and every file the lock names is deleted: the fetched store still builds.
stop_serving
rm -rf "$scratch/index" "$scratch/wheels" "$scratch/cpython.tar.gz" "$scratch/torch.whl.orig"
"$dlenv" build "$lock" --store "$offline" >/dev/null
expect_eq "built without the network, the same image as with it" "$(image_digest "$offline" torch-app latest)" "$online_digest"
"$dlenv" fsck --store "$offline" >/dev/null

umoci unpack --image "$offline:torch-app:latest" "$scratch/bundle" >/dev/null
rootfs=$scratch/bundle/rootfs
site=$rootfs/usr/local/lib/python3.11/site-packages
expect_eq "torch is installed" "$(stat -c '%u:%g %a' "$site/torch/__init__.py")" "0:0 644"
expect_eq "its RECORD is written" "$(grep -c '^torch/__init__.py,sha256=' "$site/torch-2.1.2+cu118.dist-info/RECORD")" "1"
expect_eq "dlenv installed it" "$(cat "$site/torch-2.1.2+cu118.dist-info/INSTALLER")" "dlenv"
expect_eq "the runtime's interpreter" "$(stat -c '%u:%g %a %Y' "$rootfs/usr/local/bin/python3.11")" "0:0 755 1700000000"
expect_eq "the runtime's symbolic link" "$(readlink "$rootfs/usr/local/bin/python3")" "python3.11"
expect_eq "the runtime's library" "$(cat "$rootfs/usr/local/lib/python3.11/os.py")" 'sep = "/"'
expect_eq "the base's shell is still there" "$(stat -c '%a' "$rootfs/bin/sh")" "755"
echo "digests: online $online_digest, offline $(image_digest "$offline" torch-app latest)"
