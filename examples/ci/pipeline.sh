#!/usr/bin/env bash
# The pipeline of a team's base image, one function per step, for a CI system to call step
# by step (each job names the steps it runs; see pipeline-github.yml, pipeline-gitlab-ci.yml):
#
#   lock           lock the profile again (on a schedule) into LOCKFILE and write what changed
#                  since the committed lock to OUT/lock-diff.md, the pull-request comment
#   build          build LOCKFILE into STORE as NAME
#   verify-static  the static tier, no GPU needed; its report in OUT/verify-static.json
#   push           the SBOM to OUT/sbom.spdx.json, then the image to REGISTRY/NAME:TAG
#   verify-gpu     the gpu tier on a GPU runner; its report in OUT/verify-gpu.json. Exit 3
#                  (no GPU or driver here) is "could not run here", never a pass
#   fleet-verify   the gpu tier on every node of a Slurm fleet (`dlenv fleet slurm --submit`),
#                  each node's report pushed to the registry with the image; exit 3 where no
#                  node could run it
#   promote        production moves to latest once every tier its lock requires passed
#   promote-from-registry
#                  the same on the reports the registry holds for REGISTRY/NAME:TAG (those
#                  of the GPU runner or the fleet), in any store that built LOCKFILE (the
#                  same lock builds the same digest), then REGISTRY/NAME:production names
#                  the promoted digest: what the cluster pulls moves only on those reports
#
#   examples/ci/pipeline.sh STEP...   runs the steps in order. A step that fails stops the
#   run with its exit status; one that could not run here (exit 3) is reported and the run
#   goes on, and then exits 3 at the end, so a job is never green on a tier that did not run.
#
# Settings (environment): PROFILE (a profile name or file; default the quickstart's), NAME
# (default the profile's base name), LOCKFILE (default lockfiles/NAME.lock.json), STORE
# (default build/pipeline/.dlenv), OUT (default build/pipeline/out), REGISTRY (the team's
# registry and repository path), TAG (default the commit's SHA), DLENV (default
# build/src/dlenv), extra flags for one command each: LOCK_FLAGS, BUILD_FLAGS, PUSH_FLAGS,
# FLEET_FLAGS (`dlenv fleet slurm`'s: --nodes, --partition, ...), and REGISTRY_FLAGS for the
# steps that read the registry (fleet-verify, promote-from-registry), such as --insecure.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
dlenv=${DLENV:-build/src/dlenv}
profile=${PROFILE:-$here/../quickstart/quickstart.json}
name=${NAME:-$(basename "$profile" .json)}
lockfile=${LOCKFILE:-lockfiles/$name.lock.json}
store=${STORE:-build/pipeline/.dlenv}
out=${OUT:-build/pipeline/out}
tag=${TAG:-${GITHUB_SHA:-${CI_COMMIT_SHA:-candidate}}}
read -r -a lock_flags <<<"${LOCK_FLAGS:-}"
read -r -a build_flags <<<"${BUILD_FLAGS:-}"
read -r -a push_flags <<<"${PUSH_FLAGS:-}"
read -r -a fleet_flags <<<"${FLEET_FLAGS:-}"
read -r -a registry_flags <<<"${REGISTRY_FLAGS:-}"
mkdir -p "$out"

say() { echo "pipeline: $*" >&2; }

step_lock() {
  local previous=$out/previous.lock.json
  rm -f "$previous" "$out/lock-diff.md"
  if [[ -f $lockfile ]]; then cp "$lockfile" "$previous"; fi
  "$dlenv" lock "$profile" -o "$lockfile" "${lock_flags[@]}"
  [[ -f $previous ]] || { say "lock: $lockfile is new, nothing to compare"; return 0; }
  local status=0
  "$dlenv" diff "$previous" "$lockfile" >"$out/lock-diff.md" || status=$?
  case $status in
    0) say "lock: $lockfile is current" ;;
    1) say "lock: $lockfile changed; $out/lock-diff.md is the review comment" ;;
    *) return "$status" ;;
  esac
}

step_build() {
  "$dlenv" build "$lockfile" --store "$store" --name "$name" "${build_flags[@]}"
}

step_verify_static() {
  "$dlenv" verify "$name" --store "$store" --tier static --json >"$out/verify-static.json"
}

step_push() {
  : "${REGISTRY:?set REGISTRY to the registry and repository path of the team}"
  "$dlenv" sbom "$name" --store "$store" -o "$out/sbom.spdx.json"
  "$dlenv" push "$name" "$REGISTRY/$name:$tag" --store "$store" "${push_flags[@]}"
}

step_verify_gpu() {
  local status=0
  "$dlenv" verify "$name" --store "$store" --tier gpu --json >"$out/verify-gpu.json" || status=$?
  if [[ $status == 3 ]]; then
    say "verify-gpu: could not run here (exit 3, no GPU or driver): the gpu tier is not verified"
  fi
  return "$status"
}

step_fleet_verify() {
  : "${REGISTRY:?set REGISTRY to the registry and repository path of the team}"
  local status=0
  "$dlenv" fleet slurm "$name" --store "$store" --registry "$REGISTRY/$name:$tag" --submit \
    "${registry_flags[@]}" "${fleet_flags[@]}" || status=$?
  if [[ $status == 3 ]]; then
    say "fleet-verify: no node could run the gpu tier (exit 3): the gpu tier is not verified"
  fi
  return "$status"
}

step_promote() {
  "$dlenv" promote "$name" --store "$store"
}

step_promote_from_registry() {
  : "${REGISTRY:?set REGISTRY to the registry and repository path of the team}"
  "$dlenv" promote "$name" --store "$store" --from-registry "$REGISTRY/$name:$tag" "${registry_flags[@]}"
  "$dlenv" push "$name:production" "$REGISTRY/$name:production" --store "$store" "${push_flags[@]}"
}

steps=(lock build verify-static push verify-gpu fleet-verify promote promote-from-registry)
[[ $# -gt 0 ]] || {
  echo "usage: $0 STEP... (steps: ${steps[*]})" >&2
  exit 2
}
for step in "$@"; do
  [[ " ${steps[*]} " == *" $step "* ]] || {
    echo "$0: no step \"$step\" (steps: ${steps[*]})" >&2
    exit 2
  }
done
not_run=()
for step in "$@"; do
  # A subshell outside any `||`, so that `set -e` holds inside the step.
  set +e
  (
    set -e
    "step_${step//-/_}"
  )
  status=$?
  set -e
  case $status in
    0) say "$step: done" ;;
    3) not_run+=("$step") ;;
    *)
      say "$step: failed with exit $status"
      exit "$status"
      ;;
  esac
done
if [[ ${#not_run[@]} -gt 0 ]]; then
  say "could not run here: ${not_run[*]} (exit 3); run them where the machine has what they need"
  exit 3
fi
