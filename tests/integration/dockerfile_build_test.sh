#!/usr/bin/env bash
# The Dockerfile `dlenv build --dockerfile` writes, and the one `dlenv export dockerfile`
# writes without reading the base, built by podman with no network on a base holding this
# machine's Debian 12 python3 (marked EXTERNALLY-MANAGED) and a real pip: both images hold
# the lock's packages in the same files and directories as `dlenv build`'s image
# (/usr/local/lib/python3.11/dist-packages, scripts in /usr/local/bin), the only
# differences being the ones pip makes and dlenv does not, named below.
source "$(dirname "$0")/lib.sh"

[[ -x /usr/bin/python3.11 ]] || { echo "no /usr/bin/python3.11 to make a base from"; exit 77; }
command -v podman >/dev/null || { echo "no podman"; exit 77; }
# The pip of the base: Debian's own build of pip (python3-pip-whl), vendored dependencies
# included, unpacked where apt's python3-pip puts pip.
pip_wheel=$(ls /usr/share/python-wheels/pip-*-py3-none-any.whl 2>/dev/null | head -n 1)
[[ -n $pip_wheel ]] || { echo "no pip wheel in /usr/share/python-wheels (apt-get install python3-pip-whl)"; exit 77; }

trap 'podman_cleanup; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

python3 "$source_dir/tests/fixtures/python_base/make_python_base.py" debian "$scratch/base" --pip "$pip_wheel"

# The torch-like closure of the resolve set and demo-pkg of the install set (scripts,
# console entry points, data, headers), locked from a wheelhouse: file:// URLs of this
# machine, which no build can reach.
fixtures=$source_dir/tests/fixtures/wheels
python3 "$fixtures/make_wheels.py" "$scratch/wheels" resolve
python3 "$fixtures/make_wheels.py" "$scratch/wheels" install
cp -r "$source_dir/examples/quickstart/app" "$scratch/app"
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/torch.json" "oci:$scratch/base:python-base" <<'PY'
import json, sys
source, out, base = sys.argv[1:]
profile = json.load(open(source))
profile.update(name="torch-app", python="3.11", base_image=base,
               framework={"name": "torch", "version": "2.1", "cuda": "11.8"})
profile["requirements"] = profile.get("requirements", []) + ["demo-pkg"]
json.dump(profile, open(out, "w"))
PY
lock=$scratch/torch.lock.json
"$dlenv" lock "$scratch/torch.json" -o "$lock" --offline --wheelhouse "$scratch/wheels" >/dev/null
store=$scratch/.dlenv
"$dlenv" build "$lock" --store "$store" --dockerfile "$scratch/built/Dockerfile" >/dev/null
"$dlenv" export dockerfile "$lock" --store "$store" -o "$scratch/exported/Dockerfile"
# The wheelhouse is gone: the contexts carry their wheels.
rm -rf "$scratch/wheels"

# The base goes from its OCI layout into podman's storage; the Dockerfiles name it as the
# lock does (oci:DIR:REF, which no FROM takes), so they are pointed at it there.
skopeo copy -q "oci:$scratch/base:python-base" \
  "containers-storage:$(podman_storage)localhost/python-base:fixture"
# The base enforces PEP 668: its pip refuses to install there without the override.
mkdir -p "$scratch/refused"
printf 'FROM localhost/python-base:fixture\nRUN ["/usr/bin/python3.11", "-m", "pip", "install", "--no-index", "demo-pkg"]\n' \
  >"$scratch/refused/Dockerfile"
set +e
podman_in_scratch build --network none --pull=never -f "$scratch/refused/Dockerfile" "$scratch/refused" \
  >"$scratch/refused.log" 2>&1
status=$?
set -e
expect_eq "the base's pip refuses without the override" "$status" 1
expect_eq "saying why" "$(grep -c '^error: externally-managed-environment' "$scratch/refused.log")" 1
for which in built exported; do
  sed -i "s|^FROM .*|FROM localhost/python-base:fixture|" "$scratch/$which/Dockerfile"
  podman_in_scratch build --network none --pull=never -f "$scratch/$which/Dockerfile" -t "$which" \
    "$scratch/$which" >"$scratch/$which.log" 2>&1 || { cat "$scratch/$which.log"; fail "podman build of the $which Dockerfile"; }
done

# The differences pip makes and dlenv does not: RECORD and INSTALLER with pip's contents
# (the same paths) and REQUESTED in each dist-info. podman's own: the mount points it
# leaves (/dev, /proc, /sys, /run, /tmp and the wheels' /tmp/dlenv-wheels, all empty) and
# /etc/hostname.
without_known_differences() {
  sed -E -e 's#^(f 0o644 [^ ]*\.dist-info/(RECORD|INSTALLER)) .*#\1#' -e '/\.dist-info\/REQUESTED /d' \
    -e '/ (dev|proc|sys|run|tmp|tmp\/dlenv-wheels|etc|etc\/hostname) /d' | sort
}
umoci unpack --image "$store:torch-app:latest" "$scratch/bundle" >/dev/null
tree_of "$scratch/bundle/rootfs" | without_known_differences >"$scratch/dlenv.tree"
dist=usr/local/lib/python3.11/dist-packages
expect_eq "dlenv build put torch into Debian's local directory" "$(grep -c " $dist/torch/__init__.py " "$scratch/dlenv.tree")" 1
expect_eq "and demo-pkg's scripts into /usr/local/bin" "$(grep -c ' usr/local/bin/demo ' "$scratch/dlenv.tree")" 1
expect_eq "its headers where pip puts them with Debian's scheme" \
  "$(grep -c ' usr/include/python3.11/demo-pkg/demo.h ' "$scratch/dlenv.tree")" 1
expect_eq "nothing went into apt's directory" "$(grep -c ' usr/lib/python3/dist-packages/torch' "$scratch/dlenv.tree")" 0
for which in built exported; do
  mounted=$(podman_in_scratch image mount "$which")
  tree_of "$mounted" | without_known_differences >"$scratch/$which.tree"
  podman_in_scratch image unmount "$which" >/dev/null
  diff -u "$scratch/dlenv.tree" "$scratch/$which.tree" || fail "the $which Dockerfile's image differs from dlenv build's"
  echo "ok: the $which Dockerfile's image holds dlenv build's $(wc -l <"$scratch/dlenv.tree") entries"
done
expect_eq "the built Dockerfile passes --break-system-packages, as the base is marked" \
  "$(grep -c '"--prefix","/usr","--break-system-packages"' "$scratch/built/Dockerfile")" 1
expect_eq "the exported one asks the image's python3" \
  "$(grep -c '^RUN --mount=type=bind,source=wheels,target=/tmp/dlenv-wheels \["python3","-B","/tmp/dlenv-wheels/install_packages.py","3.11"' "$scratch/exported/Dockerfile")" 1
expect_eq "which found the mark and installed into the local directory" \
  "$(grep -c 'EXTERNALLY-MANAGED; the packages go to /usr/local/lib/python3.11/dist-packages' "$scratch/exported.log")" 1

# A wheel changed in the context after it was written: pip refuses it by its hash. (podman's
# cache keys a RUN step by its text and the steps above, not by what it mounts, so the
# unchanged lock above would reuse the exported image's layer: --no-cache.)
cp -r "$scratch/exported" "$scratch/tampered"
printf 'changed' >>"$scratch/tampered/wheels/filelock-3.13.1-py3-none-any.whl"
set +e
podman_in_scratch build --no-cache --network none --pull=never -f "$scratch/tampered/Dockerfile" "$scratch/tampered" \
  >"$scratch/tampered.log" 2>&1
status=$?
set -e
expect_eq "a changed wheel fails the build" "$status" 1
expect_eq "pip names the hash it does not match" \
  "$(grep -c 'THESE PACKAGES DO NOT MATCH THE HASHES FROM THE REQUIREMENTS FILE' "$scratch/tampered.log")" 1
