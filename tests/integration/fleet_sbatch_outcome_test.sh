#!/usr/bin/env bash
# The script `dlenv fleet slurm` writes, run by bash with a stand-in srun that runs the node
# program once per node it is given, and a stand-in dlenv that records its arguments and
# exits as told: every node pulls by digest, verifies the lock's tiers and pushes back, and
# the job's code is the worst node's (1 over 2 over 3 over 0, a node that never reports
# counting as 3), whatever else the nodes said.
source "$(dirname "$0")/lib.sh"

store=$scratch/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
fake=$scratch/bin
mkdir -p "$fake"
# srun: runs the command it is given once for each "NODE:VERIFY_CODE" in $NODES.
cat >"$fake/srun" <<'SH'
#!/bin/sh
while [ "$1" != /bin/sh ]; do shift; done
for node in $NODES; do
  SLURMD_NODENAME=${node%%:*} VERIFY_CODE=${node#*:} "$@"
done
exit 0
SH
# dlenv: records each call; pull makes the store it is given and exits with $PULL_CODE,
# verify exits with $VERIFY_CODE.
cat >"$fake/dlenv" <<'SH'
#!/bin/sh
echo "$SLURMD_NODENAME $*" >>"$CALLS"
case "$1" in
  pull) mkdir -p "$3" && exit "${PULL_CODE:-0}" ;;
  verify) exit "$VERIFY_CODE" ;;
esac
SH
chmod 755 "$fake/srun" "$fake/dlenv"
"$dlenv" fleet slurm quickstart --registry 127.0.0.1:5000/team/quickstart:v1 --store "$store" --nodes 2 \
  --dlenv "$fake/dlenv" -o "$scratch/verify.sbatch"

run_job() { # run_job NODES [PULL_CODE]: the script's exit code; its output in $scratch/out
  local rc
  : >"$scratch/calls"
  set +e
  (cd "$scratch" && PATH=$fake:$PATH NODES=$1 PULL_CODE=${2:-0} CALLS=$scratch/calls SLURM_JOB_ID=7 TMPDIR=$scratch \
    bash "$scratch/verify.sbatch" >"$scratch/out" 2>&1)
  rc=$?
  set -e
  echo "$rc"
}

expect_eq "both nodes pass: 0" "$(run_job "gpu-a:0 gpu-b:0")" 0
expect_eq "each node pulls by digest, verifies, pushes back" "$(cat "$scratch/calls")" \
  "gpu-a pull --store $scratch/dlenv-fleet-7 127.0.0.1:5000/team/quickstart@$digest
gpu-a verify --store $scratch/dlenv-fleet-7 --tier static,gpu,framework 127.0.0.1:5000/team/quickstart:sha256-${digest#sha256:}
gpu-a push --store $scratch/dlenv-fleet-7 127.0.0.1:5000/team/quickstart:sha256-${digest#sha256:} 127.0.0.1:5000/team/quickstart:v1
gpu-b pull --store $scratch/dlenv-fleet-7 127.0.0.1:5000/team/quickstart@$digest
gpu-b verify --store $scratch/dlenv-fleet-7 --tier static,gpu,framework 127.0.0.1:5000/team/quickstart:sha256-${digest#sha256:}
gpu-b push --store $scratch/dlenv-fleet-7 127.0.0.1:5000/team/quickstart:sha256-${digest#sha256:} 127.0.0.1:5000/team/quickstart:v1"
expect_eq "the nodes' lines and the outcome" "$(cat "$scratch/out")" "dlenv-fleet-result gpu-a 0
dlenv-fleet-result gpu-b 0
dlenv-fleet-outcome 0"
expect_eq "one node could not run, one failed: 1" "$(run_job "gpu-a:3 gpu-b:1")" 1
expect_eq "one node could not run: 3" "$(run_job "gpu-a:0 gpu-b:3")" 3
expect_eq "bad input beats could not run: 2" "$(run_job "gpu-a:3 gpu-b:2")" 2
expect_eq "a node that never reports: 3" "$(run_job "gpu-a:0")" 3
expect_eq "a signal is no verification: 3" "$(run_job "gpu-a:0 gpu-b:137")" 3
expect_eq "a pull that fails is the node's code: 3" "$(run_job "gpu-a:0 gpu-b:0" 3)" 3
expect_eq "and nothing is verified after it" "$(grep -c ' verify ' "$scratch/calls" || true)" 0
[[ ! -e "$scratch/dlenv-fleet-7" ]] || fail "a node's store was left behind"
echo "ok: no node store is left behind"
