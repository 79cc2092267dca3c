#!/usr/bin/env bash
# Installs what dlenv needs on Debian 12 (as root), builds it, and then either runs the
# quickstart or the whole test suite:
#   scripts/setup.sh quickstart   build the `quickstart` image into build/quickstart/.dlenv, offline
#   scripts/setup.sh test         run every test through ctest, then the unit tests and the
#                                 fuzz targets again in build-sanitize/ (clang, ASan, UBSan)
set -euo pipefail

mode=${1:-}
case "$mode" in
  quickstart|test) ;;
  *) echo "usage: $0 quickstart|test" >&2; exit 2 ;;
esac

root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
packages=(cmake g++ ninja-build pkg-config libarchive-dev libdeflate-dev libzstd-dev libisal-dev nettle-dev
          nlohmann-json3-dev libcli11-dev libcurl4-openssl-dev libyaml-cpp-dev catch2 python3)
# The tests check dlenv's images with tools no one here wrote, against the reference registry
# (over TLS with openssl's certificates, behind htpasswd or a token service, or with the
# login in a password store that docker-credential-pass reads). clang and its
# runtime (ASan, UBSan, libFuzzer) build the sanitized tests and the fuzz targets;
# clang-format checks the sources' layout. patchelf gives the test's python-build-standalone
# stand-in the $ORIGIN/../lib rpath python-build-standalone gives its interpreter.
# prometheus (with promtool) scrapes `dlenv metrics --listen` and lints its exposition.
# python3-torch and python3-torchvision make the Debian 12 image the acceptance tier trains
# in on the CPU; dpkg-dev's dpkg-scanpackages indexes the system packages test's apt archive;
# python3-jsonschema validates the SBOMs against the published SPDX schema, and the fleet's
# Kubernetes Job against the Kubernetes OpenAPI schema; python3-yaml reads the CI examples the
# tests run. munge, slurmctld, slurmd and slurm-client (sbatch, srun, sinfo) make the one-node
# Slurm cluster `dlenv fleet slurm` submits to.
if [[ "$mode" == test ]]; then
  packages+=(skopeo umoci runc bubblewrap podman docker-registry curl openssl apache2-utils python3-pip
             python3-pip-whl python3-setuptools-whl python3-wheel-whl clang libclang-rt-14-dev clang-format patchelf
             golang-docker-credential-helpers pass prometheus python3-torch python3-torchvision dpkg-dev
             python3-jsonschema python3-yaml munge slurmctld slurmd slurm-client)
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "installing: ${missing[*]}"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

cmake -S "$root" -B "$build" -G Ninja -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
# The quickstart needs only the binary; the tests need everything.
targets=()
[[ "$mode" == quickstart ]] && targets=(--target dlenv)
cmake --build "$build" --parallel "$(nproc)" "${targets[@]}"

case "$mode" in
  quickstart)
    DLENV="$build/src/dlenv" bash "$root/examples/quickstart/run.sh" "$build/quickstart/.dlenv"
    ;;
  test)
    ctest --test-dir "$build" --output-on-failure --parallel "$(nproc)"
    # One more build, with clang: the unit tests under ASan and UBSan, and each fuzz target
    # over its seed corpus and for a few seconds.
    bash "$root/scripts/fuzz.sh" build
    ctest --test-dir "$root/build-sanitize" --output-on-failure --parallel "$(nproc)" -L '^(unit|fuzz)$'
    ;;
esac
