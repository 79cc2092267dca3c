#!/usr/bin/env bash
# `dlenv diff` of one profile locked a week of index changes apart (the wheelhouse gained
# filelock 3.13.1): the two locks, the two images built from them offline over the
# quickstart's base, and a lock against the image built from it. The markdown leads with
# the summary line and is asserted whole; the image diff's digests, layers and sizes are
# read from the store's blobs by python, not by dlenv.
source "$(dirname "$0")/lib.sh"

fixtures=$source_dir/tests/fixtures/wheels
python3 "$fixtures/make_wheels.py" "$scratch/week2" resolve
mkdir "$scratch/week1"
cp "$scratch/week2"/*.whl "$scratch/week1/"
rm "$scratch/week1"/filelock-3.13.1-*.whl # not published yet, a week earlier
build_quickstart "$scratch/quickstart/.dlenv" # for its small base archive
base=$scratch/quickstart/quickstart-base.tar
stub_python_runtime "$scratch/cpython.tar.gz"
cp -r "$source_dir/examples/quickstart/app" "$scratch/app"
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/team-base.json" "$base" \
  "file://$scratch/cpython.tar.gz" "$(sha256sum "$scratch/cpython.tar.gz" | cut -d' ' -f1)" <<'PY'
import json, sys
source, out, base, url, sha256 = sys.argv[1:]
profile = json.load(open(source))
profile.update(name="team-base", python="3.11", base_image="docker-archive:" + base,
               packages={"python_runtime": {"url": url, "sha256": sha256}})
json.dump(profile, open(out, "w"))
PY

store=$scratch/.dlenv
for week in week1 week2; do
  "$dlenv" lock "$scratch/team-base.json" -o "$scratch/$week.lock.json" --offline --wheelhouse "$scratch/$week" >/dev/null
  "$dlenv" build "$scratch/$week.lock.json" --store "$store" >/dev/null
done
cd "$scratch"

diff_of() { # diff_of ARGS...: prints the output and then the exit status
  set +e
  "$dlenv" diff "$@" --store "$store"
  echo "exit $?"
  set -e
}
filelock() { # filelock LOCK FIELD
  python3 -c 'import json,sys; print(next(p[sys.argv[2]] for p in json.load(open(sys.argv[1]))["packages"] if p["name"]=="filelock"))' "$1" "$2"
}

expect_eq "the locks a week apart" "$(diff_of week1.lock.json week2.lock.json)" \
  "**torch 2.1.2+cu118 unchanged, 1 package changed, base unchanged**

\`week1.lock.json\` → \`week2.lock.json\`: 1 change (Python packages 1)

### Python packages

| package | change | before | after |
|---|---|---|---|
| filelock | version | 3.12.0 | 3.13.1 |
exit 1"
expect_eq "--json carries the same summary" \
  "$("$dlenv" diff week1.lock.json week2.lock.json --json | python3 -c 'import json,sys; d=json.load(sys.stdin); print(d["summary"], d["packages"][0]["after"]["sha256"])')" \
  "torch 2.1.2+cu118 unchanged, 1 package changed, base unchanged $(filelock week2.lock.json sha256)"

# The expected diff of the two images, from the OCI layout itself.
expected=$(python3 - "$store" <<'PY'
import json, sys
store = sys.argv[1]
refs = json.load(open(store + "/dlenv/refs.json"))["images"]["team-base"]["tags"]
def blob(digest):
    return json.load(open(store + "/blobs/sha256/" + digest.split(":")[1]))
def size(n):
    value, units = float(n), ["B", "kB", "MB", "GB"]
    unit = 0
    while value >= 1000 and unit + 1 < len(units):
        value, unit = value / 1000, unit + 1
    return f"{value:.0f} {units[unit]}" if unit == 0 else f"{value:.1f} {units[unit]}"
sides = {}
for tag in ("rollback", "latest"):
    digest = refs[tag]["digest"]
    manifest = blob(digest)
    made = [h.get("created_by", "") for h in blob(manifest["config"]["digest"])["history"] if not h.get("empty_layer")]
    layers = manifest["layers"]
    made = [""] * (len(layers) - len(made)) + made[-len(layers):]
    sides[tag] = (digest, layers, made, sum(l["size"] for l in layers))
(a, la, ma, sa), (b, lb, mb, sb) = sides["rollback"], sides["latest"]
def cell(layer, made):
    return f"`sha256:{layer['digest'][7:19]}` {size(layer['size'])}" + (f", {made}" if made else "")
changed = [i for i in range(len(la)) if la[i]["digest"] != lb[i]["digest"]]
count = 1 + 1 + len(changed) + (1 if sa != sb else 0)
print(f"**torch 2.1.2+cu118 unchanged, 1 package changed, base unchanged, {len(changed)} of {len(lb)} layers changed**")
print()
print(f"`team-base:rollback` → `team-base:latest`: {count} changes (Python packages 1, image {1 + (sa != sb)}, layers {len(changed)})")
print(f"- `team-base:rollback`: image `{a}`, {len(la)} layers, {size(sa)}; static not run, gpu not run, framework not run")
print(f"- `team-base:latest`: image `{b}`, {len(lb)} layers, {size(sb)}; static not run, gpu not run, framework not run")
print("\n### Python packages\n\n| package | change | before | after |\n|---|---|---|---|")
print("| filelock | version | 3.12.0 | 3.13.1 |")
print("\n### Image\n\n| | before | after |\n|---|---|---|")
print(f"| digest | {a} | {b} |")
if sa != sb:
    print(f"| size | {size(sa)} ({sa} B) | {size(sb)} ({sb} B) |")
print("\n### Layers\n\n| layer | before | after |\n|---|---|---|")
for i in changed:
    print(f"| {i + 1} | {cell(la[i], ma[i])} | {cell(lb[i], mb[i])} |")
print("exit 1")
PY
)
expect_eq "the images a week apart" "$(diff_of team-base:rollback team-base:latest)" "$expected"
expect_eq "the changed layers are the packages' and the kit's (which holds the lock)" \
  "$("$dlenv" diff team-base:rollback team-base --json --store "$store" | python3 -c 'import json,sys; print(" ".join(str(l["layer"]) for l in json.load(sys.stdin)["layers"]))')" \
  "3 5"

latest=$(image_digest "$store" team-base latest)
expect_eq "a lock and the image built from it are equal" \
  "$(diff_of week2.lock.json "team-base@$latest" | tail -1)" "exit 0"

touch team-base
expect_eq "a name that is a file and an image is refused, naming both" \
  "$("$dlenv" diff week1.lock.json team-base --store "$store" --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["error"]["message"])'; echo "exit ${PIPESTATUS[0]}")" \
  "\"team-base\" names both the file team-base and the image team-base of the store $store
exit 2"
expect_eq "./team-base is the file" \
  "$("$dlenv" diff week1.lock.json ./team-base --store "$store" >/dev/null 2>&1; echo $?)" "2"
