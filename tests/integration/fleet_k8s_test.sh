#!/usr/bin/env bash
# `dlenv fleet k8s` writes a batch/v1 Indexed Job that the Kubernetes OpenAPI schema of
# v1.32 accepts (tests/fixtures/kubernetes, with unknown fields refused as the API server's
# strict validation refuses them), with the fields that make it a fleet verification: one
# completion per node, anti-affinity by hostname, the GPU product selector, GPU limits, the
# failure policy, the image by digest. A hostile GPU product is refused with exit 2.
source "$(dirname "$0")/lib.sh"

python3 -c 'import jsonschema' 2>/dev/null || { echo "skip: python3-jsonschema is not installed (scripts/setup.sh)"; exit 77; }

store=$scratch/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
runner=registry.example.com/tools/dlenv@sha256:$(printf '%064d' 0)

"$dlenv" fleet k8s quickstart --registry registry.example.com/team/quickstart:v1 --store "$store" \
  --dlenv-image "$runner" --nodes 4 --gpus-per-node 8 --gpu-product NVIDIA-H100-80GB-HBM3 -o "$scratch/job.json"
validate() { # validate DOCUMENT
  python3 "$source_dir/tests/support/validate_openapi.py" \
    "$source_dir/tests/fixtures/kubernetes/apis__batch__v1_openapi.json" io.k8s.api.batch.v1.Job "$1"
}
validate "$scratch/job.json" || fail "the Job does not validate against the batch/v1 schema"
echo "ok: the Job validates against the Kubernetes v1.32 batch/v1 schema"

field() { # field EXPRESSION: a Python expression over the Job `j`
  python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); s=j["spec"]; p=s["template"]["spec"]; c=p["containers"][0]; print(json.dumps(eval(sys.argv[2]), sort_keys=True))' \
    "$scratch/job.json" "$1"
}
name=dlenv-verify-quickstart-${digest:7:8}
expect_eq "an Indexed Job of one completion per node" \
  "$(field '[j["kind"], s["completionMode"], s["completions"], s["parallelism"], s["backoffLimitPerIndex"]]')" \
  '["Job", "Indexed", 4, 4, 2]'
expect_eq "required anti-affinity on the job's pods by hostname" \
  "$(field 'p["affinity"]["podAntiAffinity"]["requiredDuringSchedulingIgnoredDuringExecution"]')" \
  "[{\"labelSelector\": {\"matchLabels\": {\"dlenv.dev/fleet-job\": \"$name\"}}, \"topologyKey\": \"kubernetes.io/hostname\"}]"
expect_eq "the pods carry the label the anti-affinity selects" "$(field 's["template"]["metadata"]["labels"]')" \
  "{\"dlenv.dev/fleet-job\": \"$name\"}"
expect_eq "the GPU product selector" "$(field 'p["nodeSelector"]')" '{"nvidia.com/gpu.product": "NVIDIA-H100-80GB-HBM3"}'
expect_eq "the GPU limits" "$(field 'c["resources"]')" '{"limits": {"nvidia.com/gpu": "8"}}'
expect_eq "the failure policy: exit 1 fails the index, 3 is retried, disruptions ignored" "$(field 's["podFailurePolicy"]')" \
  '{"rules": [{"action": "FailIndex", "onExitCodes": {"containerName": "verify", "operator": "In", "values": [1, 2]}}, {"action": "Count", "onExitCodes": {"containerName": "verify", "operator": "In", "values": [3]}}, {"action": "Ignore", "onPodConditions": [{"status": "True", "type": "DisruptionTarget"}]}]}'
expect_eq "restartPolicy Never" "$(field 'p["restartPolicy"]')" '"Never"'
expect_eq "the pod runs dlenv's image" "$(field 'c["image"]')" "\"$runner\""
expect_eq "the nodes pull the image by digest" "$(field '[e["value"] for e in c["env"] if e["name"]=="DLENV_FLEET_IMAGE"]')" \
  "[\"registry.example.com/team/quickstart@$digest\"]"
expect_eq "the nodes verify the lock's tiers and gpu" "$(field '[e["value"] for e in c["env"] if e["name"]=="DLENV_FLEET_TIERS"]')" \
  '["static,gpu,framework"]'

# The check is no formality: a field the schema lacks, or of the wrong type, fails it.
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j["spec"]["podFailurePolicies"]=j["spec"].pop("podFailurePolicy"); json.dump(j, open(sys.argv[2], "w"))' \
  "$scratch/job.json" "$scratch/typo.json"
! validate "$scratch/typo.json" 2>/dev/null || fail "a misspelt field passed the schema"
python3 -c 'import json,sys; j=json.load(open(sys.argv[1])); j["spec"]["completions"]="4"; json.dump(j, open(sys.argv[2], "w"))' \
  "$scratch/job.json" "$scratch/type.json"
! validate "$scratch/type.json" 2>/dev/null || fail "a string completions passed the schema"
echo "ok: the schema refuses a misspelt field and a wrong type"

set +e
out=$("$dlenv" fleet k8s quickstart --registry registry.example.com/team/quickstart:v1 --store "$store" \
  --dlenv-image "$runner" --gpu-product 'H100;id' 2>&1)
rc=$?
set -e
expect_eq "a hostile GPU product exits 2" "$rc" 2
expect_eq "and says why" "$out" "dlenv: --gpu-product: \"H100;id\" is no Kubernetes label value
  hint: give the value GPU Feature Discovery puts in nvidia.com/gpu.product, such as NVIDIA-H100-80GB-HBM3"
