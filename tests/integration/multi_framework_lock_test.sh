#!/usr/bin/env bash
# `dlenv lock` of a profile with torch and JAX: each framework's build is resolved, the lock
# records JAX in stack.also and pins both frameworks' wheels with one cuDNN and one NCCL
# wheel serving both (tests/fixtures/wheels/make_wheels.py torch-jax); a pair whose cuDNN
# needs cannot share one wheel is a conflict (exit 1) naming both, the library and the fix, writing nothing.
# `dlenv check` of the same frameworks gives the lock's findings and exit code, a GPU torch has
# code for and JAX does not fails both naming JAX, and an image of the lock labels both frameworks.
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
[{"extra": "cuda12", "local_version": "0.4.31", "min_compute_capability": "5.2", "name": "jax", "variant": "cuda12", "version": "0.4.31"}]
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

# `dlenv check` with both frameworks reaches the lock's verdict: the lock runs check's rules on
# the profile's frameworks, so the same request (torch's build pinned by its label, JAX with
# the profile's extra, the profile's CUDA and Python) gives the same findings and the same exit code, whether the pair
# shares its libraries, needs two cuDNN wheels, or meets a GPU one of them has no code for.
same_verdict() { # same_verdict WHAT TORCH_LINE EXPECTED_RC report|conflict [--gpu GPU]: lock and check agree
  local what=$1 line=$2 want=$3 lock_says=$4
  shift 4
  profile "$line"
  set +e
  "$dlenv" lock "$scratch/team.json" -o "$scratch/verdict.lock.json" --offline --json "$@" \
    >"$scratch/lock.json" 2>/dev/null
  local lock_rc=$?
  "$dlenv" check --framework "torch==$line+cu121" --framework "jax[cuda12]==0.4.31" --cuda 12.1 --python 3.11 \
    --json "$@" \
    >"$scratch/check.json"
  local check_rc=$?
  set -e
  rm -f "$scratch/verdict.lock.json"
  expect_eq "$what: lock exit" "$lock_rc" "$want"
  expect_eq "$what: check exit" "$check_rc" "$want"
  if [[ $lock_says == report ]]; then # a conflict is the lock's error, not a report
    expect_eq "$what: the same findings" "$(findings <"$scratch/check.json")" "$(findings <"$scratch/lock.json")"
  fi
}
findings() { # the verdict, then "severity code [gpu]: message" of each finding of a report on stdin
  python3 -c '
import json, sys
report = json.load(sys.stdin)
print(report["verdict"])
for f in report["findings"]:
    print(f["severity"], f["code"], "[%s]:" % f.get("gpu", ""), f["message"])'
}
coexistence() { # the frameworks-* lines of a report on stdin
  findings | grep " frameworks-"
}

same_verdict "a pair that shares" 2.4 0 report
expect_eq "check: the pair shares cuDNN and NCCL" "$(coexistence <"$scratch/check.json")" \
"info frameworks-cudnn []: torch 2.4 cu121 carries cuDNN 9.1.0.70 and jax 0.4.31 cuda12 needs cuDNN 9.1-9.99: one \
nvidia-cudnn-cu12 serves both
info frameworks-nccl []: torch 2.4 cu121 carries NCCL 2.20.5 and jax 0.4.31 cuda12 needs NCCL >=2.18.1: one \
nvidia-nccl-cu12 serves both"

same_verdict "a pair that needs two cuDNN wheels" 2.3 1 conflict
expect_eq "check: the conflict is the lock's" "$(coexistence <"$scratch/check.json" | grep '^error ')" \
"error frameworks-cudnn []: torch 2.3 cu121 carries cuDNN 8.9.2.26 and jax 0.4.31 cuda12 needs cuDNN 9.1-9.99: one \
environment holds one nvidia-cudnn-cu12, so they cannot be installed together"

# torch 2.4 cu121 carries sm_50 cubins; JAX's cuda12 build supports compute capability 5.2 and newer.
same_verdict "a GPU only torch has code for" 2.4 1 report --gpu sm_50
expect_eq "lock: the GPU's failure names JAX" "$(findings <"$scratch/lock.json" | grep '^error ')" \
  "error gpu-below-framework-minimum [sm_50]: jax[cuda12]==0.4.31: JAX's cuda12 build supports compute capability 5.2 and newer; sm_50 is 5.0"
expect_eq "check: the same failure" "$(findings <"$scratch/check.json" | grep '^error ')" \
  "error gpu-below-framework-minimum [sm_50]: jax[cuda12]==0.4.31: JAX's cuda12 build supports compute capability 5.2 and newer; sm_50 is 5.0"

# An image of the lock names both frameworks: its config's labels, its manifest's annotations
# and the Dockerfile's LABEL carry JAX beside torch.
profile 2.4
"$dlenv" lock "$scratch/team.json" -o "$scratch/image.lock.json" --offline >/dev/null
digest=$("$dlenv" build "$scratch/image.lock.json" --store "$scratch/store" --json |
  python3 -c 'import json, sys; print(json.load(sys.stdin)["digest"])')
framework_labels() { # framework_labels MANIFEST_DIGEST: the dev.dlenv.framework* of its annotations, then its config's
  python3 -c '
import json, os, sys
blob = lambda digest: json.load(open(os.path.join(sys.argv[1], "blobs/sha256", digest[len("sha256:"):])))
manifest = blob(sys.argv[2])
labels = blob(manifest["config"]["digest"])["config"]["Labels"]
for where, values in (("annotation", manifest["annotations"]), ("label", labels)):
    for key in sorted(values):
        if key.startswith("dev.dlenv.framework"):
            print(where, key, values[key])' "$scratch/store" "$1"
}
expect_eq "the image's framework labels and annotations" "$(framework_labels "$digest")" \
'annotation dev.dlenv.framework torch 2.4.1+cu121
annotation dev.dlenv.framework.also jax 0.4.31
label dev.dlenv.framework torch 2.4.1+cu121
label dev.dlenv.framework.also jax 0.4.31'
"$dlenv" export dockerfile "$scratch/image.lock.json" -o "$scratch/docker/Dockerfile" --store "$scratch/store"
expect_eq "the Dockerfile's framework labels" \
  "$(grep -o 'dev\.dlenv\.framework[.a-z]*="[^"]*"' "$scratch/docker/Dockerfile")" \
  'dev.dlenv.framework="torch 2.4.1+cu121"
dev.dlenv.framework.also="jax 0.4.31"'
