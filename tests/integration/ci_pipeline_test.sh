#!/usr/bin/env bash
# examples/ci/pipeline.sh runs a team base image's pipeline end to end on this machine:
# lock (with `dlenv diff` against last week's lock as the review comment) → build → verify
# static → push with the SBOM to the reference registry on 127.0.0.1 → verify gpu, which
# exits 3 here (no GPU) and is reported as not run → promote locally. The run exits 3, not 0:
# a tier that could not run is no pass, and a lock that requires the gpu tier is not
# promoted. The fleet step submits the gpu tier to a one-node Slurm cluster on 127.0.0.1,
# whose node cannot run it either (exit 3) but pushes its static report with the image, and
# a second machine promotes on the registry's reports. Every job of the pipeline's GitHub and
# GitLab files calls steps the script has.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"
source "$(dirname "$0")/slurm_lib.sh"

command -v docker-registry >/dev/null || { echo "docker-registry is not installed (scripts/setup.sh)"; exit 77; }
command -v skopeo >/dev/null || { echo "skopeo is not installed (scripts/setup.sh)"; exit 77; }
pipeline=$source_dir/examples/ci/pipeline.sh
no_slurm=$(slurm_missing)
trap 'stop_slurm; stop_registry; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT

build_quickstart "$scratch/quickstart/.dlenv" # for its small base archive
static_quickstart_profile "$scratch/profile"
start_registry "$scratch/registry"
unset DLENV_REGISTRY_AUTH DLENV_STORE
export DOCKER_CONFIG=$scratch/no-docker-config
export DLENV=$dlenv PROFILE=$scratch/profile/quickstart-static.json STORE=$scratch/store OUT=$scratch/out \
  LOCKFILE=$scratch/lockfiles/quickstart-static.lock.json REGISTRY=127.0.0.1:$registry_port/team TAG=0123abcd \
  LOCK_FLAGS=--offline BUILD_FLAGS="--base docker-archive:$scratch/quickstart/quickstart-base.tar" PUSH_FLAGS=--insecure
mkdir -p "$scratch/lockfiles"

# Last week's lock; since then the app changed.
"$dlenv" lock "$PROFILE" -o "$LOCKFILE" --offline >/dev/null
old_app=$(sha256sum "$scratch/profile/app/hello.sh" | cut -c1-12)
echo 'echo "and again"' >>"$scratch/profile/app/hello.sh"
new_app=$(sha256sum "$scratch/profile/app/hello.sh" | cut -c1-12)

run_pipeline() { # run_pipeline STEP...: the status, then stderr's "pipeline:" lines
  set +e
  bash "$pipeline" "$@" >"$scratch/stdout" 2>"$scratch/stderr"
  echo "exit $?"
  set -e
  grep '^pipeline: ' "$scratch/stderr" || true
}
expect_eq "the pipeline's steps, in order" \
  "$(run_pipeline lock build verify-static push verify-gpu promote)" \
  "exit 3
pipeline: lock: $LOCKFILE changed; $OUT/lock-diff.md is the review comment
pipeline: lock: done
pipeline: build: done
pipeline: verify-static: done
pipeline: push: done
pipeline: verify-gpu: could not run here (exit 3, no GPU or driver): the gpu tier is not verified
pipeline: promote: done
pipeline: could not run here: verify-gpu (exit 3); run them where the machine has what they need"

expect_eq "the review comment" "$(cat "$OUT/lock-diff.md")" \
  "**torch 2.1.2+cu118 unchanged, packages unchanged, 1 file changed, base unchanged**

\`$OUT/previous.lock.json\` → \`$LOCKFILE\`: 1 change (files 1)

### Files

| | before | after |
|---|---|---|
| /app/hello.sh | $old_app mode 0755 | $new_app mode 0755 |"

digest=$(image_digest "$STORE" quickstart-static latest)
expect_eq "the registry holds the image under the tag" \
  "sha256:$(skopeo inspect --raw --tls-verify=false "docker://$REGISTRY/quickstart-static:$TAG" | sha256sum | cut -d' ' -f1)" \
  "$digest"
expect_eq "the SBOM names the image" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["name"])' "$OUT/sbom.spdx.json")" \
  "quickstart-static@$digest"
expect_eq "the static report passed" \
  "$(python3 -c 'import json,sys; print([(t["tier"], t["passed"]) for t in json.load(open(sys.argv[1]))["tiers"]])' "$OUT/verify-static.json")" \
  "[('static', True)]"
expect_eq "the gpu step's report says why it did not run" \
  "$(python3 -c 'import json,sys; e=json.load(open(sys.argv[1]))["error"]; print(e["code"] + ": " + e["message"])' "$OUT/verify-gpu.json")" \
  "environment: the gpu tier cannot run: no NVIDIA driver or GPU on this machine; run this tier on a GPU machine (\`--tier static\` works without one)"
expect_eq "production is the image, promoted on its static pass" "$(image_digest "$STORE" quickstart-static production)" \
  "$digest"
expect_eq "no gpu verification is on record" \
  "$(python3 -c 'import json,sys; print(sorted(json.load(open(sys.argv[1]))["tiers"]))' "$STORE/dlenv/verifications/sha256-${digest#sha256:}.json")" \
  "['static']"

# The fleet step: the node pulls the pushed image by digest, cannot run the gpu tier
# either, and pushes its reports back with the image; fleet status names the node.
if [[ -n $no_slurm ]]; then
  echo "skip: the fleet step: $no_slurm"
else
  start_slurm "$scratch/slurm" 1
  mkdir "$scratch/fleet-job"
  expect_eq "the fleet step runs through sbatch and could not run the gpu tier" \
    "$(cd "$scratch/fleet-job" && REGISTRY_FLAGS=--insecure FLEET_FLAGS="--dlenv $dlenv" run_pipeline fleet-verify)" \
    "exit 3
pipeline: fleet-verify: no node could run the gpu tier (exit 3): the gpu tier is not verified
pipeline: could not run here: fleet-verify (exit 3); run them where the machine has what they need"
  expect_eq "the registry holds the node's static report beside the push's, the lock and the SBOM" \
    "$(skopeo inspect --tls-verify=false --raw "docker://$REGISTRY/quickstart-static:sha256-${digest#sha256:}" |
      python3 -c 'import json,sys; print(" ".join(sorted(m["artifactType"] for m in json.load(sys.stdin)["manifests"])))')" \
    "application/spdx+json application/vnd.dlenv.lock.v1+json application/vnd.dlenv.verification.v1+json application/vnd.dlenv.verification.v1+json"
  set +e
  "$dlenv" fleet status "$REGISTRY/quickstart-static:$TAG" --insecure --json >"$scratch/fleet.json"
  set -e
  expect_eq "fleet status names the node and its newest static report" \
    "$(python3 -c 'import json,sys; print([(r["node"], r["tier"], r["passed"]) for r in json.load(sys.stdin)["reports"]])' <"$scratch/fleet.json")" \
    "[('$(uname -n)', 'static', True)]"
  stop_slurm
fi

# A lock that requires the gpu tier: the run stops at promote, exit 1, production unmoved.
# A second machine (the promoting job): a fresh store builds the same lock into the same
# digest and promotes on the reports pushed with the image, with no verification of its own.
fresh=$scratch/fresh
expect_eq "the promoting job promotes on the registry's static report" \
  "$(STORE=$fresh REGISTRY_FLAGS=--insecure run_pipeline build promote-from-registry)" \
  "exit 0
pipeline: build: done
pipeline: promote-from-registry: done"
expect_eq "production in the fresh store is the image" "$(image_digest "$fresh" quickstart-static production)" \
  "$digest"
expect_eq "the fresh store verified nothing itself" "$(ls "$fresh/dlenv/verifications" 2>/dev/null | wc -l)" "0"
expect_eq "the registry's production tag names the image" \
  "sha256:$(skopeo inspect --raw --tls-verify=false "docker://$REGISTRY/quickstart-static:production" | sha256sum | cut -d' ' -f1)" \
  "$digest"

python3 - "$PROFILE" "$scratch/profile/quickstart-gpu.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
profile.update(name="quickstart-gpu", validation={"tiers": ["static", "gpu"]})
json.dump(profile, open(sys.argv[2], "w"))
PY
export PROFILE=$scratch/profile/quickstart-gpu.json LOCKFILE=$scratch/lockfiles/quickstart-gpu.lock.json
expect_eq "a lock that requires the gpu tier is not promoted" \
  "$(run_pipeline lock build verify-static verify-gpu promote | tail -2)" \
  "pipeline: verify-gpu: could not run here (exit 3, no GPU or driver): the gpu tier is not verified
pipeline: promote: failed with exit 1"
expect_eq "the refusal names the gpu tier" "$(grep -c 'no passing `gpu` verification' "$scratch/stderr")" "1"
expect_eq "quickstart-gpu has no production" "$(image_digest "$STORE" quickstart-gpu production)" "none"

expect_eq "an unknown step is refused" "$(run_pipeline build deploy | head -1)" "exit 2"

# Every job of the pipeline's CI files calls only steps the script has.
steps=$( (bash "$pipeline" 2>&1 || true) | sed -n 's/.*(steps: \(.*\))$/\1/p')
for file in pipeline-github.yml pipeline-gitlab-ci.yml; do
  called=$(python3 - "$source_dir/examples/ci/$file" <<'PY'
import re, sys, yaml
text = yaml.safe_load(open(sys.argv[1]))
lines = []
def walk(node):
    if isinstance(node, dict):
        for value in node.values():
            walk(value)
    elif isinstance(node, list):
        for value in node:
            walk(value)
    elif isinstance(node, str) and "pipeline.sh" in node:
        lines.append(node)
walk(text)
print(" ".join(step for line in lines for step in re.sub(r".*pipeline\.sh", "", line).split()))
PY
)
  for step in $called; do
    [[ " $steps " == *" $step "* ]] || fail "$file calls the step $step, which pipeline.sh lacks"
  done
  echo "ok: $file calls steps pipeline.sh has: $called"
done
