#!/usr/bin/env bash
# Runs the validation kit's tiers on a machine with a GPU, straight from kit/ with the
# host's python3 and the host's CUDA libraries (no container, no dlenv binary), and
# prints each tier's JSON and a summary of its findings and figures. Not part of ctest.
#   tests/gpu/run_gpu_checks.sh [LOCK]     (default: a lock made here from this machine's CUDA)
# The made lock is lockfiles/pytorch-2.7-cu128.lock.json with the CUDA major of the
# NVRTC found here and the cuDNN version of the libcudnn found here, so the kit loads
# those libraries and compares against what is installed. Exit status: 0 when both tiers
# printed a report (whatever it says), 1 when the kit itself crashed.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
python=${PYTHON:-python3}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# CUDA toolkits outside the loader's path (a toolkit install without ldconfig entries).
for dir in /usr/local/cuda/lib64 /usr/local/cuda-*/lib64; do
  [[ -d $dir ]] && LD_LIBRARY_PATH=${LD_LIBRARY_PATH:+$LD_LIBRARY_PATH:}$dir
done
export LD_LIBRARY_PATH=${LD_LIBRARY_PATH:-}

lock=${1:-}
if [[ -z $lock ]]; then
  lock=$work/gpu-check.lock.json
  "$python" - "$root" "$lock" <<'PY'
import json, sys
root, out = sys.argv[1:]
sys.dont_write_bytecode = True
sys.path.insert(0, root + "/kit")
from dlenv_kit import dnn, libraries, nvrtc
with open(root + "/lockfiles/pytorch-2.7-cu128.lock.json") as f:
    lock = json.load(f)
stack = lock["stack"]
for major in (13, 12, 11):
    try:
        compiler = nvrtc.Nvrtc(major)
    except libraries.LibraryMissing:
        continue
    version = compiler.version()
    stack["cuda"] = "%d.%d.0" % version
    print("lock: CUDA %d.%d from %s" % (version + (compiler.path,)))
    break
else:
    print("lock: no libnvrtc found here; keeping CUDA " + stack["cuda"])
for major in (9, 8):
    try:
        cudnn = dnn.Cudnn(major)
    except libraries.LibraryMissing:
        continue
    stack["cudnn"] = "%d.%d.%d" % cudnn.version()
    print("lock: cuDNN %s from %s" % (stack["cudnn"], cudnn.path))
    break
with open(out, "w") as f:
    json.dump(lock, f, indent=2)
PY
fi
echo "lock: $lock"
nvidia-smi --query-gpu=index,name,compute_cap,driver_version,memory.total --format=csv 2>/dev/null || true

status=0
for tier in gpu framework; do
  echo "== $tier tier"
  if ! timeout 900 "$python" "$root/kit/${tier}_tier.py" --lock "$lock" >"$work/$tier.json" 2>"$work/$tier.err"; then
    echo "the $tier tier crashed or ran past 900 s; its stderr ends:"
    tail -n 40 "$work/$tier.err"
    status=1
    continue
  fi
  cat "$work/$tier.json"
  "$python" - "$work/$tier.json" <<'PY' || status=1
import json, sys
document = json.load(open(sys.argv[1]))
for device in document["devices"]:
    print("device %(index)d: %(name)s, compute capability %(compute_capability)s, %(multiprocessors)d SMs, "
          "%(memory_bytes)d bytes" % device)
for finding in document["findings"]:
    print("%-22s %-4s %s" % (finding["code"], finding["outcome"], finding["message"]))
for figure in document["figures"]:
    print("figure gpu%(device)d_%(name)s = %(value)s %(unit)s" % figure)
PY
  echo "stderr lines: $(wc -l <"$work/$tier.err")"
done
exit $status
