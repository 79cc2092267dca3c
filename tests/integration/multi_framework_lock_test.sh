#!/usr/bin/env bash
# `dlenv lock` of a profile with torch and JAX: each framework's build is resolved, the lock
# records JAX in stack.also and pins both frameworks' wheels with one cuDNN and one NCCL
# wheel serving both (tests/fixtures/wheels/make_wheels.py torch-jax); a pair whose cuDNN
# needs cannot share one wheel is a conflict (exit 1) naming both, the library and the fix, writing nothing.
source "$(dirname "$0")/lib.sh"

python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$scratch/wheels" torch-jax

profile() { # profile TORCH_LINE: torch on CUDA 12.1 with jax 0.4.31, for Python 3.11
  cat >"$scratch/team.json" <<JSON
{"format": "dlenv.profile/v1", "name": "team", "python": "3.11", "base_image": "scratch",
 "framework": {"name": "torch", "version": "$1", "cuda": "12.1"},
 "also": [{"name": "jax", "version": "0.4.31", "extra": "cuda12"}]}
JSON
}

profile 2.4
"$dlenv" lock "$scratch/team.json" -o "$scratch/team.lock.json" --offline --wheelhouse "$scratch/wheels" \
  >"$scratch/out"
expect_eq "summary" "$(sed -n 2p "$scratch/out")" \
  "  torch 2.4.1+cu121, jax 0.4.31; CUDA 12.1.1, cuDNN 9.1.0.70; Python 3.11; driver >= 530.30.02 (>= 525.60.13 under minor-version compatibility)"
fields() { # fields LOCKFILE: the stack's frameworks, cuDNN and NCCL, then "name version" per package
  python3 -c '
import json, sys
lock = json.load(open(sys.argv[1]))
stack = lock["stack"]
print(json.dumps(stack["framework"], sort_keys=True))
print(json.dumps(stack["also"], sort_keys=True))
print(stack["cudnn"], stack["nccl"])
for p in lock["packages"]:
    print(p["name"], p["version"])' "$1"
}
expect_eq "the lock's frameworks and closure" "$(fields "$scratch/team.lock.json")" \
'{"local_version": "2.4.1+cu121", "name": "torch", "variant": "cu121", "version": "2.4.1"}
[{"extra": "cuda12", "local_version": "0.4.31", "name": "jax", "variant": "cuda12", "version": "0.4.31"}]
9.1.0.70 2.20.5
filelock 3.13.1
jax 0.4.31
jax-cuda12-pjrt 0.4.31
jax-cuda12-plugin 0.4.31
jaxlib 0.4.31
ml-dtypes 0.4.0
numpy 1.26.2
nvidia-cublas-cu12 12.1.3.1
nvidia-cuda-runtime-cu12 12.1.105
nvidia-cudnn-cu12 9.1.0.70
nvidia-nccl-cu12 2.20.5
opt-einsum 3.3.0
scipy 1.11.4
torch 2.4.1+cu121
triton 3.0.0
typing-extensions 4.9.0'

# torch 2.3's cu121 build pins cuDNN 8.9.2.26, below jax 0.4.31's floor of 9.1.
profile 2.3
set +e
"$dlenv" lock "$scratch/team.json" -o "$scratch/conflict.lock.json" --offline --wheelhouse "$scratch/wheels" \
  2>"$scratch/err" >/dev/null
rc=$?
set -e
expect_eq "conflict exit" "$rc" 1
expect_eq "conflict message" "$(cat "$scratch/err")" \
"dlenv: $scratch/team.json: also: torch 2.3 cu121 carries cuDNN 8.9.2.26 and jax 0.4.31 cuda12 needs cuDNN 9.1-9.99: \
one environment holds one nvidia-cudnn-cu12, so they cannot be installed together
  hint: name releases that agree on cuDNN (\`dlenv check\` with both --framework options compares them), or lock \
each framework from its own profile"
[[ ! -e $scratch/conflict.lock.json ]] || fail "a lock was written despite the conflict"
