#!/usr/bin/env bash
# `dlenv sbom` of the quickstart image is an SPDX 2.3 document, and with --format cyclonedx a
# CycloneDX 1.5 BOM, that the published schemas accept (python3-jsonschema), naming the image
# by digest, its base and the layers dlenv added; written twice it is the same bytes, and -o
# replaces a file and refuses a directory.
source "$(dirname "$0")/lib.sh"

python3 -c 'import jsonschema' 2>/dev/null || { echo "python3-jsonschema is not installed (scripts/setup.sh)"; exit 77; }
command -v skopeo >/dev/null || { echo "skopeo is not installed (scripts/setup.sh)"; exit 77; }

store=$scratch/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)

"$dlenv" sbom quickstart --store "$store" >"$scratch/sbom.json"
validate() { # validate SCHEMA DOCUMENT
  python3 "$source_dir/tests/support/validate_json_schema.py" "$source_dir/tests/fixtures/$1" "$2"
}
validate spdx/spdx-schema.json "$scratch/sbom.json" || fail "the SBOM does not validate against the SPDX 2.3 schema"
echo "ok: the SBOM validates against the SPDX 2.3 schema"

field() { # field EXPRESSION: a Python expression over the document `d`
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))' "$scratch/sbom.json" "$1"
}
expect_eq "the document's name" "$(field 'd["name"]')" "quickstart@$digest"
expect_eq "the namespace follows from the digest" "$(field 'd["documentNamespace"]')" \
  "https://dlenv.dev/spdx/quickstart-${digest#sha256:}"
epoch=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["image"]["source_date_epoch"])' "$scratch/quickstart.lock.json")
expect_eq "created is the lock's epoch" "$(field 'd["creationInfo"]["created"]')" "$(date -u -d "@$epoch" +%Y-%m-%dT%H:%M:%SZ)"
expect_eq "the image package" "$(field '[p["versionInfo"] for p in d["packages"] if p["SPDXID"]=="SPDXRef-Image"]')" "['$digest']"
base_manifest=$(skopeo inspect --raw "oci:$store:quickstart:latest" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["annotations"]["org.opencontainers.image.base.digest"])')
expect_eq "the base by the manifest it was built on" \
  "$(field '[p["versionInfo"] for p in d["packages"] if p["SPDXID"]=="SPDXRef-Base"]')" "['$base_manifest']"
layers=$(skopeo inspect --raw "oci:$store:quickstart:latest" |
  python3 -c 'import json,sys; print([l["digest"] for l in json.load(sys.stdin)["layers"]][1:])')
expect_eq "the layers dlenv added, above the base's one" \
  "$(field '[p["versionInfo"] for p in d["packages"] if p["primaryPackagePurpose"]=="ARCHIVE"]')" "$layers"

"$dlenv" sbom quickstart:latest --store "$store" -o "$scratch/again.json"
cmp "$scratch/sbom.json" "$scratch/again.json" || fail "a second SBOM of the same image differs"
echo "ok: -o writes the same bytes"

"$dlenv" sbom quickstart --store "$store" --format cyclonedx -o "$scratch/bom.json"
validate cyclonedx/bom-1.5.schema.json "$scratch/bom.json" || fail "the BOM does not validate against the CycloneDX 1.5 schema"
echo "ok: the BOM validates against the CycloneDX 1.5 schema"
expect_eq "the BOM's image" \
  "$(python3 -c 'import json,sys; c=json.load(open(sys.argv[1]))["metadata"]["component"]; print(c["name"], c["version"])' "$scratch/bom.json")" \
  "quickstart $digest"
expect_eq "the BOM lists the base and the layers the SBOM does" \
  "$(python3 -c 'import json,sys; print(sorted(c["version"] for c in json.load(open(sys.argv[1]))["components"]))' "$scratch/bom.json")" \
  "$(field 'sorted(p["versionInfo"] for p in d["packages"] if p["SPDXID"]!="SPDXRef-Image")')"

mkdir "$scratch/a-directory"
set +e
out=$("$dlenv" sbom quickstart --store "$store" -o "$scratch/a-directory" 2>&1)
rc=$?
set -e
expect_eq "-o naming a directory is refused" "$rc" "2"
set +e
"$dlenv" sbom quickstart:nosuchtag --store "$store" >/dev/null 2>&1
rc=$?
set -e
expect_eq "an unknown tag is refused" "$rc" "2"
