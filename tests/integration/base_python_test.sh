#!/usr/bin/env bash
# A lock that pins packages and no Python runtime installs them into the base's own Python.
# The base holds this machine's Debian python3 (3.11, its libraries and standard library);
# the packages land in Debian's /usr/local/lib/python3.11/dist-packages, and that python3,
# run by runc in the image, imports them from there. A lock for Python 3.10 on the same
# base fails the build naming both versions.
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/python3.11 && -d /usr/lib/python3/dist-packages ]] || {
  echo "skipped: this machine's python3 is not Debian's 3.11"
  exit 77
}
wheels=$source_dir/tests/fixtures/wheels
python3 "$wheels/make_wheels.py" "$scratch/wheels" resolve
python3 "$source_dir/tests/fixtures/python_base/make_python_base.py" debian "$scratch/base"

lock_for() { # lock_for PYTHON LOCK: the quickstart's torch profile for PYTHON, from the wheelhouse
  python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/torch-$1.json" "$1" <<'PY'
import json, sys
source, out, python = sys.argv[1:]
profile = json.load(open(source))
profile.update(name="torch-app", python=python, base_image="scratch")
profile.pop("files")
json.dump(profile, open(out, "w"))
PY
  "$dlenv" lock "$scratch/torch-$1.json" -o "$2" --offline --wheelhouse "$scratch/wheels" >/dev/null
}

lock_for 3.11 "$scratch/torch.lock.json"
store=$scratch/store
built=$("$dlenv" build "$scratch/torch.lock.json" --store "$store" --base "oci:$scratch/base")
expect_eq "the build says where the packages went" "$(grep -c '^  base: Python packages for Debian.s python3 /usr/bin/python3.11 into /usr/local/lib/python3.11/dist-packages$' <<<"$built")" "1"
expect_eq "and that PEP 668's mark does not forbid it" "$(grep -c '^  base: its Python is marked EXTERNALLY-MANAGED (PEP 668)' <<<"$built")" "1"

umoci unpack --image "$store:torch-app:latest" "$scratch/bundle" >/dev/null
rootfs=$scratch/bundle/rootfs
expect_eq "no site-packages is made" "$(ls "$rootfs/usr/local/lib/python3.11" 2>&1)" "dist-packages"
expect_eq "dlenv installed filelock" "$(cat "$rootfs/usr/local/lib/python3.11/dist-packages/filelock-3.13.1.dist-info/INSTALLER")" "dlenv"

# The image's own python3, started by runc, finds the package where it was installed.
python3 - "$scratch/bundle/config.json" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["process"]["terminal"] = False
config["process"]["args"] = ["python3", "-c", "import filelock; print(filelock.__file__)"]
json.dump(config, open(sys.argv[1], "w"))
PY
container=dlenv-base-python-$$
imported=$(cd "$scratch/bundle" && runc run "$container" </dev/null 2>&1) || fail "runc run: $imported"
expect_eq "python3 imports it from dist-packages" "$imported" "/usr/local/lib/python3.11/dist-packages/filelock/__init__.py"

# The fixture wheels are for CPython 3.11; torch and triton for 3.10 are written beside
# them so that a 3.10 lock resolves.
python3 - "$wheels" "$scratch/wheels" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import make_wheels
for name, version, requires in (("torch", "2.1.2+cu118", ["filelock", "triton==2.1.0"]),
                                ("triton", "2.1.0", ["filelock"])):
    make_wheels.wheel(sys.argv[2], name, version, "cp310-cp310-" + make_wheels.MANYLINUX, requires=requires)
PY
lock_for 3.10 "$scratch/torch-3.10.lock.json"
set +e
refused=$("$dlenv" build "$scratch/torch-3.10.lock.json" --store "$store" --base "oci:$scratch/base" 2>&1)
status=$?
set -e
expect_eq "a 3.10 lock on the 3.11 base fails" "$status" "1"
expect_eq "naming both" "$(head -1 <<<"$refused")" \
  "dlenv: the base's python3 is 3.11 (/usr/bin/python3.11), the lock's python is 3.10"
