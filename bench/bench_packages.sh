#!/usr/bin/env bash
# Prints, side by side, the time to install a locked Python closure: dlenv's packages
# layer (the native installer, then the gzip layer written into the store) against
# `pip install --no-deps --require-hashes --no-index --target` of the same wheels from
# `dlenv export requirements`, with and without bytecode compilation, and with its tree
# packed as a gzip tarball.
# Medians of RUNS. The closure: the torch-like fixture wheels plus Debian's pip,
# setuptools and wheel wheels (/usr/share/python-wheels), locked from one wheelhouse.
#   bench/bench_packages.sh DLENV [RUNS]
set -euo pipefail

dlenv=$(realpath "$1")
runs=${2:-5}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/dlenv-bench-packages.XXXXXX)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT

python3 "$here/../tests/fixtures/wheels/make_wheels.py" "$work/wheels" resolve >/dev/null
cp /usr/share/python-wheels/{pip,setuptools,wheel}-*.whl "$work/wheels/"
cat >"$work/bench.json" <<'EOF'
{"format": "dlenv.profile/v1", "name": "bench", "python": "3.11", "base_image": "scratch",
 "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"}, "companions": ["torchvision"],
 "requirements": ["pip", "setuptools", "wheel"]}
EOF
"$dlenv" lock "$work/bench.json" -o "$work/bench.lock.json" --offline --wheelhouse "$work/wheels" >/dev/null
"$dlenv" export requirements "$work/bench.lock.json" -o "$work/requirements.txt"
wheels=$(grep -c ' @ ' "$work/requirements.txt")

seconds() { python3 -c 'import sys,time; print(f"{time.time():.3f}")'; }
median() { sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
elapsed() { # elapsed COMMAND...: wall seconds of one run
  local start end
  start=$(seconds)
  "$@" >/dev/null 2>&1
  end=$(seconds)
  python3 -c "print(f'{$end - $start:.3f}')"
}

dlenv_build() {
  rm -rf "$work/store"
  "$dlenv" fetch "$work/bench.lock.json" --store "$work/store" >/dev/null 2>&1
  elapsed "$dlenv" build "$work/bench.lock.json" --store "$work/store"
}
pip_install() { # pip_install [--no-compile]
  rm -rf "$work/site"
  elapsed python3 -m pip install --quiet --root-user-action=ignore --disable-pip-version-check --no-deps \
    --require-hashes --no-index --target "$work/site" -r "$work/requirements.txt" "$@"
}
pip_tar() {
  elapsed tar --sort=name --mtime=@0 --owner=0 --group=0 -czf "$work/site.tar.gz" -C "$work/site" .
}

dlenv_times=() pip_times=() plain_times=() tar_times=()
for _ in $(seq "$runs"); do
  dlenv_times+=("$(dlenv_build)")
  pip_times+=("$(pip_install)")
  plain_times+=("$(pip_install --no-compile)")
  tar_times+=("$(pip_tar)")
done
files=$(find "$work/site" -type f | wc -l)
d=$(printf '%s\n' "${dlenv_times[@]}" | median)
p=$(printf '%s\n' "${pip_times[@]}" | median)
n=$(printf '%s\n' "${plain_times[@]}" | median)
t=$(printf '%s\n' "${tar_times[@]}" | median)
printf '%s wheels, %s files installed; medians of %s runs\n' "$wheels" "$files" "$runs"
printf '%-58s %8s s\n' "dlenv build (install + gzip layer + image)" "$d" \
  "pip install --no-deps --require-hashes --target" "$p" \
  "the same with --no-compile (dlenv writes no .pyc either)" "$n" \
  "pip install --no-compile, then tar czf of its tree" "$(python3 -c "print(f'{$n + $t:.3f}')")"
