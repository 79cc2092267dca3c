#!/usr/bin/env bash
# `dlenv lock` pins a registry base to its digest; `dlenv build` pulls exactly that image
# once, and builds again with the registry gone.
source "$(dirname "$0")/lib.sh"
source "$(dirname "$0")/registry_lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
start_registry "$scratch/registry"
remote=127.0.0.1:$registry_port
"$dlenv" push quickstart "$remote/base/quickstart:1" --store "$store" --insecure >/dev/null 2>&1
base_digest=$(image_digest "$store" quickstart latest)

# The quickstart profile over that base, for the Python the fixture wheels are built for;
# its packages come from their wheelhouse and its Python runtime (the base has none) from
# a file, so only the registry is asked anything.
python3 "$source_dir/tests/fixtures/wheels/make_wheels.py" "$scratch/wheels" resolve
stub_python_runtime "$scratch/cpython.tar.gz"
mkdir -p "$scratch/team/app"
cp "$source_dir/examples/quickstart/app/hello.sh" "$scratch/team/app/"
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/team/team.json" "$remote/base/quickstart:1" \
  "file://$scratch/cpython.tar.gz" "$(sha256sum "$scratch/cpython.tar.gz" | cut -d' ' -f1)" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
profile.update(name="team", base_image=sys.argv[3], python="3.11",
               packages={"python_runtime": {"url": sys.argv[4], "sha256": sys.argv[5]}})
json.dump(profile, open(sys.argv[2], "w"))
PY

set +e
"$dlenv" lock "$scratch/team/team.json" -o "$scratch/team/team.lock.json" --wheelhouse "$scratch/wheels" \
  2>"$scratch/lock.err"
status=$?
set -e
expect_eq "a plain-HTTP registry is refused without --insecure" "$status" "3"
grep -q -- "--insecure" "$scratch/lock.err" || fail "the hint names --insecure: $(cat "$scratch/lock.err")"
grep -q -- "--offline" "$scratch/lock.err" || fail "the hint names --offline: $(cat "$scratch/lock.err")"
echo "ok: the refusal says to pass --insecure or --offline"

"$dlenv" lock "$scratch/team/team.json" -o "$scratch/team/team.lock.json" --wheelhouse "$scratch/wheels" \
  --insecure >/dev/null
lock_field() { python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["base_image"][sys.argv[2]])' "$scratch/team/team.lock.json" "$1"; }
expect_eq "the lock pins the tag's digest" "$(lock_field digest)" "$base_digest"
expect_eq "the lock pins the platform's manifest" "$(lock_field manifest)" "$base_digest"

built=$scratch/built/.dlenv
"$dlenv" build "$scratch/team/team.lock.json" --store "$built" --insecure --json >"$scratch/build.json"
digest=$(json_field 'j["digest"]' <"$scratch/build.json")
expect_eq "the build pulled the pinned base" \
  "$(skopeo inspect --raw "oci:$built:team:latest" | json_field 'j["annotations"]["org.opencontainers.image.base.digest"]')" \
  "$base_digest"
pulls=$(count_requests GET "/v2/base/quickstart/blobs/")

stop_registry
"$dlenv" build "$scratch/team/team.lock.json" --store "$built" --insecure --json >"$scratch/rebuild.json"
expect_eq "with the registry gone the build gives the same digest" "$(json_field 'j["digest"]' <"$scratch/rebuild.json")" "$digest"
set +e
"$dlenv" build "$scratch/team/team.lock.json" --store "$scratch/fresh/.dlenv" --insecure 2>"$scratch/fresh.err"
status=$?
set -e
expect_eq "a fresh store cannot build with the registry gone" "$status" "3"

start_registry "$scratch/registry"
"$dlenv" build "$scratch/team/team.lock.json" --store "$scratch/fresh/.dlenv" --insecure --json >"$scratch/fresh.json"
expect_eq "a fresh store builds the same digest once the registry is back" \
  "$(json_field 'j["digest"]' <"$scratch/fresh.json")" "$digest"
[[ "$pulls" -ge 2 ]] || fail "the first build downloaded $pulls blobs"
echo "ok: the first build downloaded $pulls blobs; the rebuild needed no registry"
