#!/usr/bin/env bash
# `dlenv fleet slurm` on a real one-node Slurm cluster (munge, slurmctld, slurmd on
# 127.0.0.1) with one gpu generic resource and no GPU behind it: the script dlenv writes asks
# for the whole node and its GPU and pins the image by digest; submitted, the node pulls it
# by that digest from a local registry, verifies it (static passes, the gpu tier cannot
# run on the stand-in driver's H100), pushes it back with a report naming that GPU by model
# and UUID, and the job ends with verify's 3, which dlenv prints per node and
# exits with. Hostile names and an -o that is no regular file are refused with exit 2.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"
source "$(dirname "$0")/slurm_lib.sh"

why=$(slurm_missing)
[[ -z "$why" ]] || { echo "skip: $why"; exit 77; }
command -v docker-registry >/dev/null || { echo "skip: docker-registry is not installed (scripts/setup.sh)"; exit 77; }
trap 'stop_slurm; stop_registry; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

store=$scratch/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port/team/quickstart
"$dlenv" push quickstart "$remote:v1" --store "$store" --insecure >/dev/null

refused() { # refused FIELD ARGS...: exit 2 and a message that starts with the field
  local field=$1 out rc
  shift
  set +e
  out=$("$dlenv" fleet slurm "$@" --store "$store" 2>&1)
  rc=$?
  set -e
  expect_eq "fleet slurm $* exits 2" "$rc" 2
  [[ "$out" == "dlenv: $field"* ]] || fail "the refusal does not name $field: $out"
}
refused "NAME: holds a character a fleet job refuses" 'quickstart;id' --registry "$remote:v1"
refused "--registry: holds a character a fleet job refuses" quickstart --registry "$remote:v1\$(id)"
refused "--mem: holds a character a fleet job refuses" quickstart --registry "$remote:v1" --mem '1G;id'
refused "--registry: not given, and quickstart names no registry" quickstart
mkdir "$scratch/a-directory"
refused "$scratch/a-directory" quickstart --registry "$remote:v1" -o "$scratch/a-directory"

"$dlenv" fleet slurm quickstart --registry "$remote:v1" --store "$store" --insecure --dlenv "$dlenv" \
  -o "$scratch/verify.sbatch"
directives=$(grep '^#SBATCH' "$scratch/verify.sbatch" | tr '\n' ' ')
expect_eq "the script asks for one whole node, one task, its GPU and all its memory" "$directives" \
  "#SBATCH --job-name=dlenv-verify-quickstart-${digest:7:8} #SBATCH --nodes=1 #SBATCH --ntasks-per-node=1 #SBATCH --exclusive #SBATCH --gres=gpu:1 #SBATCH --mem=0 #SBATCH --output=dlenv-fleet-%j.out "
expect_eq "the nodes pull the image by digest" "$(grep '^export DLENV_FLEET_IMAGE=' "$scratch/verify.sbatch")" \
  "export DLENV_FLEET_IMAGE='$remote@$digest'"
bash -n "$scratch/verify.sbatch" || fail "the script is no valid bash"

start_slurm "$scratch/slurm" 1
mkdir "$scratch/work"
cd "$scratch/work"
# The node's driver is a stand-in nvidia-smi (one H100 and its UUID), on the PATH sbatch
# passes to the job: its GPU has no device node, so the gpu tier still cannot run.
stand_in_nvidia_smi "$scratch/bin"
set +e
out=$(PATH="$scratch/bin:$PATH" "$dlenv" fleet slurm quickstart --registry "$remote:v1" --store "$store" --insecure --dlenv "$dlenv" --submit)
rc=$?
set -e
expect_eq "the job's outcome is verify's: could not run" "$rc" 3
job=$(sed -n 's/^submitted batch job \([0-9]*\)$/\1/p' <<<"$out")
[[ -n "$job" ]] || fail "no job id in: $out"
expect_eq "dlenv prints the job, each node and the outcome" "$out" "submitted batch job $job
  localhost: could not run (exit 3)
job $job: could not run (exit 3)"

log=$scratch/work/dlenv-fleet-$job.out
grep -q "^static: passed" "$log" || fail "the node's static tier did not pass: $(cat "$log")"
grep -q "^gpu: not run: " "$log" || fail "the node's gpu tier was not reported as not run: $(cat "$log")"
expect_eq "the node reports verify's exit code" "$(grep '^dlenv-fleet-result' "$log")" "dlenv-fleet-result localhost 3"
expect_eq "the job's outcome line" "$(grep '^dlenv-fleet-outcome' "$log")" "dlenv-fleet-outcome 3"
grep -q "GET /v2/team/quickstart/manifests/$digest " "$registry_log" ||
  fail "the node did not pull the manifest by its digest"
grep -q "^pushed 127.0.0.1:$registry_port/team/quickstart:sha256-${digest#sha256:} to $remote:v1 $digest" "$log" ||
  fail "the node did not push the image back: $(cat "$log")"
[[ ! -e "${TMPDIR:-/tmp}/dlenv-fleet-$job" ]] || fail "the node's store was left behind"
echo "ok: the node pulled by digest, verified, pushed back and removed its store"

# The node's report went up with the image: fleet status reads it back, by node.
set +e
"$dlenv" fleet status "$remote:v1" --insecure --json >"$scratch/fleet.json"
rc=$?
set -e
expect_eq "fleet status reports the node's static pass on its GPU, by model and UUID, and no gpu pass (exit 1)" \
  "$rc $(python3 -c 'import json,sys; print([(r["node"], r["tier"], r["passed"], [(g["model"], g["uuid"]) for g in r["gpus"]]) for r in json.load(sys.stdin)["reports"]])' <"$scratch/fleet.json")" \
  "1 [('$(uname -n)', 'static', True, [('NVIDIA H100 80GB HBM3', 'GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5')])]"
