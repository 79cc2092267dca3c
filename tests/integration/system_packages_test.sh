#!/usr/bin/env bash
# System packages end to end, with real Debian 12 .debs: a base made of the packages dpkg
# needs (base-files, libc6, dpkg and its dependencies, merged /usr, a real dpkg status),
# a local apt repository of python3's and python3-numpy's closure (dpkg-scanpackages and a
# Release with SHA256 sums) served on 127.0.0.1; `dlenv lock` resolves the two names
# against the base's status and the repository, `dlenv fetch` brings the .debs, the server
# stops, and `dlenv build` installs them as one layer without a package manager. In the
# image, run by runc, dpkg says python3-numpy is installed, `dpkg --audit` finds nothing,
# and Debian's python3 imports Debian's numpy. A second store builds the same digest. The
# Dockerfile of a lock that adds python3-pip (which the Dockerfile's Python step runs), built
# by podman with no network from debs/ of its context, holds the files and dpkg entries of
# `dlenv build`'s image. An unknown package and a dependency the archive cannot satisfy fail
# with their messages.
source "$(dirname "$0")/lib.sh"

for tool in apt-get apt-cache dpkg-deb dpkg-scanpackages runc umoci podman skopeo; do
  command -v "$tool" >/dev/null || { echo "skipped: no $tool"; exit 77; }
done
if ! grep -q '^VERSION_CODENAME=bookworm$' /etc/os-release || [[ $(dpkg --print-architecture) != amd64 ]]; then
  echo "skipped: the .debs come from this machine's apt, which is not Debian 12 on amd64"
  exit 77
fi

# The .debs: python3's, python3-numpy's and python3-pip's closure as apt sees it (no
# Recommends), and the base's own packages; kept beside the binary so that later runs need
# no network. The base is dpkg's closure and the Essential shell and tools debian:bookworm
# holds (dash, coreutils, ...), which dpkg and the maintainer scripts run in a Dockerfile.
cache=${DLENV_DEB_CACHE:-$(dirname "$(dirname "$(realpath "$dlenv")")")/system-packages-debs}
mkdir -p "$cache"
essential="coreutils dash debianutils diffutils findutils grep libattr1 libc-bin libcrypt1 libgmp10 perl-base sed"
base_packages="base-files dpkg gcc-12-base libacl1 libbz2-1.0 libc6 libgcc-s1 liblzma5 libmd0 libpcre2-8-0 libselinux1 libzstd1 tar zlib1g $essential"
closure=$(apt-cache depends --recurse --no-recommends --no-suggests --no-conflicts --no-breaks --no-replaces \
  --no-enhances python3 python3-numpy python3-pip | grep -v '^ ' | grep -v '^<' | sort -u)
# shellcheck disable=SC2086
wanted=$(apt-get download --print-uris $base_packages $closure 2>/dev/null | awk '{print $2}') || true
[[ -n $wanted ]] || { echo "skipped: apt knows no candidates for the packages"; exit 77; }
missing=()
for file in $wanted; do
  [[ -s $cache/$file ]] && continue
  if [[ -s /var/cache/apt/archives/$file ]]; then cp "/var/cache/apt/archives/$file" "$cache/"; else missing+=("${file%%_*}"); fi
done
if ((${#missing[@]})); then
  (cd "$cache" && apt-get download "${missing[@]}" >/dev/null 2>&1) || { echo "skipped: apt-get download failed"; exit 77; }
fi
debs=$scratch/debs
mkdir -p "$debs"
for file in $wanted; do cp "$cache/$file" "$debs/"; done

# shellcheck disable=SC2086
python3 "$source_dir/tests/fixtures/debian_base/make_debian_base.py" "$debs" "$scratch/base" $essential >/dev/null

# The repository: pool/ and two suites, bookworm with every package and "broken" without
# libpython3.11-stdlib, each with a Release listing its Packages files' SHA256 sums.
repo=$scratch/repo
mkdir -p "$repo/pool/main"
cp "$debs"/*.deb "$repo/pool/main/"
(cd "$repo" && dpkg-scanpackages --multiversion pool /dev/null 2>/dev/null) >"$scratch/Packages"
python3 - "$repo" "$scratch/Packages" <<'PY'
import gzip, hashlib, os, sys
repo, packages = sys.argv[1:]
stanzas = open(packages).read().strip("\n").split("\n\n")
for suite, kept in (("bookworm", stanzas), ("broken", [s for s in stanzas if not s.startswith("Package: libpython3.11-stdlib\n")])):
    directory = os.path.join(repo, "dists", suite, "main", "binary-amd64")
    os.makedirs(directory)
    text = ("\n\n".join(kept) + "\n").encode()
    files = {"main/binary-amd64/Packages": text, "main/binary-amd64/Packages.gz": gzip.compress(text, mtime=0)}
    for name, data in files.items():
        open(os.path.join(repo, "dists", suite, name), "wb").write(data)
    release = f"Origin: Debian\nSuite: {suite}\nCodename: {suite}\nArchitectures: amd64\nComponents: main\nSHA256:\n"
    release += "".join(f" {hashlib.sha256(d).hexdigest()} {len(d)} {n}\n" for n, d in sorted(files.items()))
    open(os.path.join(repo, "dists", suite, "Release"), "w").write(release)
PY

trap 'stop_serving; podman_cleanup; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
start_serving "$repo"
archive_url=$served_origin

profile_for() { # profile_for FILE SUITE PACKAGE...
  python3 - "$@" "$scratch/base" "$archive_url" <<'PY'
import json, sys
out, suite, *packages, base, url = sys.argv[1:]
json.dump({"format": "dlenv.profile/v1", "name": "debian-numpy", "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"},
           "python": "3.11", "base_image": "oci:" + base, "source_date_epoch": 1700000000,
           "system_packages": packages, "system_archive": {"url": url, "suites": [suite], "components": ["main"]},
           "validation": {"tiers": ["static"]}}, open(out, "w"))
PY
}
python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$scratch/wheels" resolve

store=$scratch/store
profile_for "$scratch/numpy.json" bookworm python3 python3-numpy
locked=$("$dlenv" lock "$scratch/numpy.json" -o "$scratch/numpy.lock.json" --store "$store" --wheelhouse "$scratch/wheels")
count=$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["system_packages"]["packages"]))' "$scratch/numpy.lock.json")
expect_eq "the lock says where the system packages come from" "$(grep -c "^  $count system packages pinned by sha256 from $archive_url (profile system_archive)$" <<<"$locked")" "1"
lock_field() { python3 -c 'import json,sys; s=json.load(open(sys.argv[1]))["system_packages"]; print(eval(sys.argv[2]))' "$scratch/numpy.lock.json" "$1"; }
expect_eq "what the base has is not added again" "$(lock_field '" ".join(p["name"] for p in s["packages"] if p["name"] in ("libc6", "dpkg", "tar", "zlib1g"))')" ""
expect_eq "python3-numpy is pinned at the archive's version" "$(lock_field 'next(p["version"] for p in s["packages"] if p["name"]=="python3-numpy")')" \
  "$(dpkg-deb -f "$debs"/python3-numpy_*.deb Version)"
expect_eq "libblas3 is there for libblas3 | libblas.so.3" "$(lock_field 'next(p["required_by"] for p in s["packages"] if p["name"]=="libblas3")')" "['liblapack3', 'python3-numpy']"
expect_eq "the Release's digest is pinned" "$(lock_field 's["archive"]["release_sha256"]["bookworm"]')" \
  "$(sha256sum "$repo/dists/bookworm/Release" | cut -d' ' -f1)"
python3 - "$scratch/numpy.lock.json" "$repo" <<'PY' || fail "a locked .deb is not the served file"
import hashlib, json, os, sys
lock, repo = sys.argv[1:]
for p in json.load(open(lock))["system_packages"]["packages"]:
    data = open(os.path.join(repo, "pool", "main", p["filename"]), "rb").read()
    assert hashlib.sha256(data).hexdigest() == p["sha256"] and len(data) == p["size"], p["filename"]
PY
echo "ok: every locked .deb is the served file, by sha256 and size"

# fetch into two stores while the archive is up, then build both without it
"$dlenv" fetch "$scratch/numpy.lock.json" --store "$store" >/dev/null
"$dlenv" fetch "$scratch/numpy.lock.json" --store "$scratch/store2" >/dev/null
# The lock the Dockerfile builds from: numpy and pip, which its Python step runs.
profile_for "$scratch/pip.json" bookworm python3 python3-numpy python3-pip
"$dlenv" lock "$scratch/pip.json" -o "$scratch/pip.lock.json" --store "$scratch/docker-store" --wheelhouse "$scratch/wheels" >/dev/null
"$dlenv" fetch "$scratch/pip.lock.json" --store "$scratch/docker-store" >/dev/null
stop_serving
built=$("$dlenv" build "$scratch/numpy.lock.json" --store "$store")
expect_eq "the build says which scripts it did not run" "$(grep -c '^  system packages: postinst scripts not run (dlenv runs no package manager): .*python3-numpy' <<<"$built")" "1"
expect_eq "and which alternatives it set up instead" \
  "$(grep -c '^  system packages: alternative libblas.so.3-x86_64-linux-gnu: /usr/lib/x86_64-linux-gnu/libblas.so.3 -> /usr/lib/x86_64-linux-gnu/blas/libblas.so.3' <<<"$built")" "1"
digest=$(image_digest "$store" debian-numpy latest)
rebuilt=$("$dlenv" build "$scratch/numpy.lock.json" --store "$store")
expect_eq "a rebuild takes the layer from the cache" "$(grep -c '^  system packages: system packages layer reused from the layer cache$' <<<"$rebuilt")" "1"
expect_eq "and builds the same image" "$(image_digest "$store" debian-numpy latest)" "$digest"
"$dlenv" build "$scratch/numpy.lock.json" --store "$scratch/store2" >/dev/null
expect_eq "another store builds the same image" "$(image_digest "$scratch/store2" debian-numpy latest)" "$digest"

umoci unpack --image "$store:debian-numpy:latest" "$scratch/bundle" >/dev/null
expect_eq "the base's merged /usr stays" "$(readlink "$scratch/bundle/rootfs/lib")" "usr/lib"
run_in_image() { # run_in_image ARG...: the command's output in the image, under runc
  python3 - "$scratch/bundle/config.json" "$@" <<'PY'
import json, sys
config = json.load(open(sys.argv[1]))
config["process"]["terminal"] = False
config["process"]["args"] = sys.argv[2:]
json.dump(config, open(sys.argv[1], "w"))
PY
  (cd "$scratch/bundle" && runc run "dlenv-system-packages-$$" </dev/null 2>&1)
}
status=$(run_in_image dpkg -s python3-numpy) || fail "dpkg -s: $status"
expect_eq "dpkg says python3-numpy is installed" "$(grep '^Status:' <<<"$status")" "Status: install ok installed"
audit=$(run_in_image dpkg --audit) || fail "dpkg --audit: $audit"
expect_eq "dpkg --audit finds nothing" "$audit" ""
imported=$(run_in_image python3 -c 'import numpy; print(numpy.__version__)') || fail "python3: $imported"
upstream=$(dpkg-deb -f "$debs"/python3-numpy_*.deb Version | sed 's/^[0-9]*://; s/-[^-]*$//')
expect_eq "Debian's python3 imports Debian's numpy" "$imported" "$upstream"

# The Dockerfile of the pip lock, built by podman without a network from the base in its
# storage and the context `dlenv build --dockerfile` wrote (the .debs from the store), holds
# what `dlenv build` put in its image: every file, link and directory, and the same
# /var/lib/dpkg/status entries (compared field by field: dpkg writes a stanza's fields in
# its own order). The paths that differ are named, each with its reason, below.
docker_started=$(date +%s)
"$dlenv" build "$scratch/pip.lock.json" --store "$scratch/docker-store" --dockerfile "$scratch/docker/Dockerfile" >/dev/null
expect_eq "the context carries each pinned .deb" "$(find "$scratch/docker/debs" -name '*.deb' | wc -l)" \
  "$(python3 -c 'import json,sys; print(len(json.load(open(sys.argv[1]))["system_packages"]["packages"]))' "$scratch/pip.lock.json")"
skopeo copy -q "oci:$scratch/base:debian-base" "containers-storage:$(podman_storage)localhost/debian-base:fixture"
sed -i "s|^FROM .*|FROM localhost/debian-base:fixture|" "$scratch/docker/Dockerfile"
podman_in_scratch build --network none --pull=never -f "$scratch/docker/Dockerfile" -t docker-numpy "$scratch/docker" \
  >"$scratch/docker.log" 2>&1 || { cat "$scratch/docker.log"; fail "podman build of the system packages' Dockerfile"; }
umoci unpack --image "$scratch/docker-store:debian-numpy:latest" "$scratch/docker-bundle" >/dev/null
mounted=$(podman_in_scratch image mount docker-numpy)
# Each status stanza with its fields sorted (dpkg writes them in an order of its own), the
# stanzas sorted by package.
status_entries() { # status_entries ROOT
  python3 - "$1/var/lib/dpkg/status" <<'PY'
import sys
stanzas = []
for text in open(sys.argv[1]).read().strip("\n").split("\n\n"):
    fields = []
    for line in text.split("\n"):
        if line[:1] in (" ", "\t") and fields:
            fields[-1] += "\n" + line
        else:
            fields.append(line)
    stanzas.append("\n".join(sorted(fields)))
print("\n\n".join(sorted(stanzas)))
PY
}
status_entries "$scratch/docker-bundle/rootfs" >"$scratch/dlenv.status"
status_entries "$mounted" >"$scratch/docker.status"
status_differs=0
diff -u "$scratch/dlenv.status" "$scratch/docker.status" || status_differs=1
expect_eq "dlenv's layer records the Conffiles dpkg records" \
  "$(grep -c '^Conffiles:' "$scratch/dlenv.status")" "$(grep -c '^Conffiles:' "$scratch/docker.status")"
# What dpkg does that dlenv does not: the maintainer scripts and triggers it runs write
# byte-code (__pycache__/), ldconfig's cache (/etc/ld.so.cache, /var/cache/ldconfig),
# what the Python packages' postinsts write (/usr/local/lib/python3.11/dist-packages,
# /etc/python3/debian_config, /var/lib/python/python3.11_installed), readline-common's
# /etc/inputrc, update-shells' (debianutils' trigger) /etc/shells and /var/lib/shells.state,
# debconf's database (/var/cache/debconf), ca-certificates' bundle, links and list
# (/etc/ssl/certs, /etc/ca-certificates.conf); dpkg keeps logs (/var/log), status-old, its lock files and a
# triggers/ state; the status file itself is compared above. podman's own: the mount points
# it leaves (/dev, /proc, /sys, /run, /tmp, the .debs' /tmp/dlenv-debs and the wheels'
# /tmp/dlenv-wheels, all empty) and /etc/hostname; pip's: RECORD, INSTALLER, REQUESTED.
without_dpkg_differences() {
  sed -E -e 's#^(f 0o644 [^ ]*\.dist-info/(RECORD|INSTALLER)) .*#\1#' -e '/\.dist-info\/REQUESTED /d' \
    -e '/ [^ ]*__pycache__[^ ]* /d' -e '/ (dev|proc|sys|run|tmp|tmp\/dlenv-(debs|wheels)|etc|etc\/hostname) /d' \
    -e '/ var\/lib\/dpkg\/(status|status-old|lock|lock-frontend|triggers\/[^ ]*) /d' -e '/ var\/log(\/[^ ]*)? /d' \
    -e '/ (etc\/ld\.so\.cache|etc\/ca-certificates\.conf|etc\/ssl\/certs\/[^ ]*|var\/cache\/debconf\/[^ ]*) /d' \
    -e '/ usr\/local\/lib\/python3\.11(\/dist-packages)? /d' -e '/ var\/cache\/ldconfig(\/aux-cache)? /d' \
    -e '/ (etc\/python3|etc\/python3\/debian_config|var\/lib\/python|var\/lib\/python\/python3\.11_installed) /d' \
    -e '/ (etc\/inputrc|etc\/shells|var\/lib\/shells\.state) /d' | sort
}
tree_of "$scratch/docker-bundle/rootfs" | without_dpkg_differences >"$scratch/dlenv.tree"
tree_of "$mounted" | without_dpkg_differences >"$scratch/docker.tree"
podman_in_scratch image unmount docker-numpy >/dev/null
diff -u "$scratch/dlenv.tree" "$scratch/docker.tree" || fail "the Dockerfile's image differs from dlenv build's"
((status_differs == 0)) || fail "dpkg's status in the Dockerfile's image differs"
echo "ok: dpkg's status holds the same $(grep -c '^Package: ' "$scratch/dlenv.status") entries, with their Conffiles"
echo "ok: the Dockerfile's image holds dlenv build's $(wc -l <"$scratch/dlenv.tree") entries ($(($(date +%s) - docker_started)) s)"

# An unknown package is the profile's mistake (2); an archive that lacks what a package
# needs is a conflict (1) with the chain that led there.
start_serving "$repo"
archive_url=$served_origin
profile_for "$scratch/unknown.json" bookworm python3 python3-nump
set +e
refused=$("$dlenv" lock "$scratch/unknown.json" -o "$scratch/unknown.lock.json" --store "$store" --wheelhouse "$scratch/wheels" 2>&1)
code=$?
set -e
expect_eq "an unknown package is bad input" "$code" "2"
expect_eq "named with the profile's field" "$(head -1 <<<"$refused")" \
  "dlenv: $scratch/unknown.json: system_packages: no package python3-nump in the archive"
profile_for "$scratch/broken.json" broken python3
set +e
refused=$("$dlenv" lock "$scratch/broken.json" -o "$scratch/broken.lock.json" --store "$store" --wheelhouse "$scratch/wheels" 2>&1)
code=$?
set -e
python3_wants=$(dpkg-deb -f "$debs"/python3_*.deb Depends | tr ',' '\n' | grep -o 'python3\.11 ([^)]*)')
stdlib=$(dpkg-deb -f "$debs"/python3.11_*.deb Depends | tr ',' '\n' | grep -o 'libpython3\.11-stdlib ([^)]*)')
expect_eq "an unsatisfiable dependency is a conflict" "$code" "1"
expect_eq "with its chain" "$(head -1 <<<"$refused")" \
  "dlenv: python3 -> $python3_wants -> $stdlib: no package libpython3.11-stdlib in the archive"
[[ ! -e $scratch/broken.lock.json ]] || fail "a lock was written for the unsatisfiable profile"
echo "ok: nothing written"
