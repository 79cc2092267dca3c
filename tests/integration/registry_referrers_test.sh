#!/usr/bin/env bash
# Reports in the registry, against the reference registry (Debian's docker-registry 2.8,
# which has no referrers API, so the sha256-<hex> tag schema of distribution-spec 1.1 is
# used): `dlenv build` keeps the SBOM beside the image; `dlenv push` sends the lock, the
# SBOM and the static report as OCI 1.1 artifacts whose subject is the image, which
# skopeo and the tag list show; pushing again lists nothing twice and keeps what others
# listed; a fresh store pulls them back and promotes from the registry; `fleet status`
# reads them by node; a report bound to another image, or whose content says another
# image, or another GPU UUID than its annotation, is refused and nothing is kept. The
# verifying machine has a stand-in nvidia-smi: the report names its GPU by model and UUID.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

command -v docker-registry >/dev/null || { echo "docker-registry is not installed (scripts/setup.sh)"; exit 77; }
command -v skopeo >/dev/null || { echo "skopeo is not installed (scripts/setup.sh)"; exit 77; }
command -v runc >/dev/null || command -v bwrap >/dev/null ||
  { echo "no container runtime (runc, bwrap) for the static tier (scripts/setup.sh)"; exit 77; }

# Store A: the image requiring the static tier only, built and verified.
store=$scratch/a/.dlenv
build_quickstart "$store"
static_quickstart_profile "$scratch/static"
"$dlenv" lock "$scratch/static/quickstart-static.json" -o "$scratch/static/lock.json" --offline >/dev/null
"$dlenv" build "$scratch/static/lock.json" --store "$store" --base "docker-archive:$scratch/a/quickstart-base.tar" >/dev/null
digest=$(image_digest "$store" quickstart-static latest)
hex=${digest#sha256:}

# The build keeps the SBOM `dlenv sbom` writes, and the lock, by the image's digest.
attached() { # attached STORE KIND: the artifact holding the image's KIND in STORE
  python3 -c 'import json,sys; s,k,h=sys.argv[1:]; r=json.load(open(f"{s}/dlenv/attachments/sha256-{h}.json")); print(f"{s}/dlenv/artifacts/sha256/" + r["attachments"][k]["sha256"])' \
    "$1" "$2" "$hex"
}
"$dlenv" sbom quickstart-static --store "$store" >"$scratch/sbom.json"
cmp -s "$(attached "$store" sbom)" "$scratch/sbom.json" || fail "the stored SBOM is not what dlenv sbom writes"
echo "ok: the build stores the SBOM dlenv sbom writes"
expect_eq "the stored lock is the image's" \
  "$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["digest"])' "$(attached "$store" lock)")" \
  "$(skopeo inspect --raw "oci:$store:quickstart-static:latest" | json_field 'j["annotations"]["dev.dlenv.lock.digest"]')"

# Verified where a stand-in nvidia-smi reports one H100 with its UUID (NVML is absent here).
stand_in_nvidia_smi "$scratch/bin"
PATH="$scratch/bin:$PATH" "$dlenv" verify quickstart-static --store "$store" --tier static >/dev/null
uuid=GPU-b8ea3855-276c-c9cb-b366-c6fa655957c5

start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port
"$dlenv" push quickstart-static "$remote/team/app" --store "$store" --insecure --json >"$scratch/push.json"
expect_eq "push attaches the lock, the SBOM and the static report through the tag schema" \
  "$(json_field '" ".join(a["artifact_type"] + "/" + a["listed"] for a in j["pushed"][0]["artifacts"])' <"$scratch/push.json")" \
  "application/vnd.dlenv.lock.v1+json/tag-schema application/spdx+json/tag-schema application/vnd.dlenv.verification.v1+json/tag-schema"
expect_eq "the tag list shows the referrers' tag" \
  "$(skopeo list-tags --tls-verify=false "docker://$remote/team/app" | json_field '" ".join(sorted(j["Tags"]))')" \
  "latest sha256-$hex"
referrers() { skopeo inspect --tls-verify=false --raw "docker://$remote/team/app:sha256-$hex"; }
expect_eq "skopeo reads the referrers index" \
  "$(referrers | json_field 'j["mediaType"] + " " + " ".join(sorted(m["artifactType"] for m in j["manifests"]))')" \
  "application/vnd.oci.image.index.v1+json application/spdx+json application/vnd.dlenv.lock.v1+json application/vnd.dlenv.verification.v1+json"
report=$(referrers | json_field 'next(m["digest"] for m in j["manifests"] if m["artifactType"].startswith("application/vnd.dlenv.verification"))')
skopeo inspect --tls-verify=false --raw "docker://$remote/team/app@$report" >"$scratch/report-manifest.json"
expect_eq "the report's subject is the image" "$(json_field 'j["subject"]["digest"]' <"$scratch/report-manifest.json")" "$digest"
expect_eq "its config is the empty one" "$(json_field 'j["config"]["mediaType"] + " " + str(j["config"]["size"])' <"$scratch/report-manifest.json")" \
  "application/vnd.oci.empty.v1+json 2"
expect_eq "its annotations bind it to the image and the node, its GPU by model and UUID" \
  "$(json_field '" | ".join(j["annotations"][k] for k in ("dev.dlenv.image.digest", "dev.dlenv.verification.tier", "dev.dlenv.verification.passed", "dev.dlenv.node.host", "dev.dlenv.node.gpus", "dev.dlenv.node.gpu-uuids", "dev.dlenv.node.driver"))' <"$scratch/report-manifest.json")" \
  "$digest | static | true | $(uname -n) | NVIDIA H100 80GB HBM3 | $uuid | 550.54.15"

# An entry another tool listed stays; pushing again lists nothing twice.
push_referrer() { python3 "$source_dir/tests/integration/push_referrer.py" "$remote" team/app "$digest" "$@"; }
push_referrer other >/dev/null
"$dlenv" push quickstart-static "$remote/team/app" --store "$store" --insecure >/dev/null
expect_eq "a second push lists nothing twice and keeps the other tool's entry" \
  "$(referrers | json_field 'len(j["manifests"]), len({m["digest"] for m in j["manifests"]}), any(m["artifactType"] == "application/vnd.example.signature.v1+json" for m in j["manifests"])')" \
  "4 4 True"

# Store B, fresh: pulls the image with its documents, and promotes on the registry's reports.
fresh=$scratch/b/.dlenv
name=$remote/team/app
"$dlenv" pull "$name:latest" --store "$fresh" --insecure --json >"$scratch/pull.json"
expect_eq "pull brings the lock, the SBOM and the report" \
  "$(json_field '(j["attached"]["lock"], j["attached"]["sbom"], [(r["tier"], r["passed"], r["node"], r["gpus"]) for r in j["attached"]["reports"]])' <"$scratch/pull.json")" \
  "(True, True, [('static', True, '$(uname -n)', [{'model': 'NVIDIA H100 80GB HBM3', 'uuid': '$uuid'}])])"
cmp -s "$(attached "$fresh" sbom)" "$scratch/sbom.json" || fail "the pulled SBOM is not the one pushed"
echo "ok: the pulled SBOM is the one pushed"
cmp -s "$(attached "$fresh" lock)" "$(attached "$store" lock)" || fail "the pulled lock is not the one pushed"
echo "ok: the pulled lock is the one pushed"
expect_eq "the report is kept as coming from the registry" \
  "$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); t=r["tiers"]["static"]; print(t["passed"], t["source"])' "$fresh/dlenv/verifications/sha256-$hex.json")" \
  "True $name@$report"

rm "$fresh/dlenv/verifications/sha256-$hex.json" # only the registry's reports count now
set +e
"$dlenv" promote "$name" --store "$fresh" >/dev/null 2>&1
rc=$?
set -e
expect_eq "without the pulled record a plain promote is refused" "$rc" 1
set +e
message=$("$dlenv" promote "$name" --store "$fresh" --from-registry "$name:latest" --insecure --require-gpu-models 2>&1)
rc=$?
set -e
expect_eq "--require-gpu-models wants a gpu report per GPU the lock targets" "$rc:$(head -1 <<<"$message")" \
  "1:dlenv: $name:latest cannot be promoted: no passing \`gpu\` report from a node with NVIDIA A100-SXM4-80GB (run \`dlenv verify --tier gpu\` on one and push its report); no passing \`gpu\` report from a node with NVIDIA H100 80GB HBM3 (run \`dlenv verify --tier gpu\` on one and push its report)"
"$dlenv" promote "$name" --store "$fresh" --from-registry "$name:latest" --insecure >/dev/null
expect_eq "promote --from-registry moves production" "$(image_digest "$fresh" "$name" production)" "$digest"

# fleet status reads the same reports back: the node passed static; no node ran the gpu tier.
set +e
"$dlenv" fleet status "$name:latest" --insecure --json >"$scratch/fleet.json"
rc=$?
set -e
expect_eq "fleet status names the node, its GPU by model and UUID, and the GPU models no node verified (exit 1)" \
  "$rc $(json_field '([(r["node"], r["tier"], r["passed"], r["gpus"]) for r in j["reports"]], j["gpu_models"]["missing"])' <"$scratch/fleet.json")" \
  "1 ([('$(uname -n)', 'static', True, [{'model': 'NVIDIA H100 80GB HBM3', 'uuid': '$uuid'}])], ['NVIDIA A100-SXM4-80GB', 'NVIDIA H100 80GB HBM3'])"
set +e
"$dlenv" fleet status "$name:latest" --insecure >"$scratch/fleet.txt"
set -e
expect_eq "and says it in words" "$(sed -n 2p "$scratch/fleet.txt")" \
  "  $(uname -n) static passed at $(json_field 'j["reports"][0]["time"]' <"$scratch/fleet.json"), GPUs NVIDIA H100 80GB HBM3 $uuid, driver 550.54.15"

# A report bound to another image, and one whose content reports on another, are refused.
refused_pull() { # refused_pull WHAT EXPECTED_MESSAGE
  local other=$scratch/refused-$1/.dlenv
  set +e
  message=$("$dlenv" pull "$name:latest" --store "$other" --insecure 2>&1)
  rc=$?
  set -e
  expect_eq "a report with a forged $1 is refused" "$rc:$(grep -m1 '^dlenv:' <<<"$message")" "2:$2"
  expect_eq "and nothing is kept" \
    "$(image_digest "$other" "$name" latest) $(ls "$other/dlenv/verifications" "$other/dlenv/attachments" 2>/dev/null | wc -l)" "none 0"
}
forged=$(push_referrer annotation "$scratch/report-manifest.json")
refused_pull annotation "dlenv: $name@$forged (application/vnd.dlenv.verification.v1+json): its dev.dlenv.image.digest annotation names sha256:$(printf '2%.0s' $(seq 64)), not its subject $digest"
set +e
"$dlenv" promote "$name" --store "$fresh" --from-registry "$name:latest" --insecure >/dev/null 2>&1
rc=$?
set -e
expect_eq "promote --from-registry refuses it too" "$rc" 2
forged=$(push_referrer content "$scratch/report-manifest.json")
refused_pull content "dlenv: $name@$forged (application/vnd.dlenv.verification.v1+json): its content reports on sha256:$(printf '2%.0s' $(seq 64)), not $digest"
forged=$(push_referrer uuid "$scratch/report-manifest.json")
refused_pull uuid "dlenv: $name@$forged (application/vnd.dlenv.verification.v1+json): its annotation dev.dlenv.node.gpu-uuids is \"GPU-c5533cd4-5a60-059e-348d-b6d7466932e4\" but its content says \"$uuid\""
