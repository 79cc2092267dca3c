#!/usr/bin/env bash
# `dlenv matrix refresh` against replicas of the vendors' pages served on 127.0.0.1
# (tests/fixtures/matrix_refresh, see its README): with the built-in matrices it proposes
# nothing and exits 0; with a copy that lacks torch 2.6's cu124 build, CUDA 12.4.1 and
# the jax releases after 0.4.28 it proposes the first two back as sourced rows (cuDNN and
# NCCL from the wheel's METADATA, the driver left for a hand row) and names the jax
# releases PyPI's JSON API lists beyond them as needing a hand row, exits 1, and `--matrix`
# reads the refreshed copy; a hostile manifest exits 2 naming the URL and field, as does an
# --out that is no directory or holds a link; no server exits 3.
source "$(dirname "$0")/lib.sh"

replica=$scratch/replica
cp -r "$source_dir/tests/fixtures/matrix_refresh" "$replica"
start_serving "$replica"
base=$served_origin

set +e
out=$("$dlenv" matrix refresh --source-url "$base" --out "$scratch/same" 2>&1)
code=$?
set -e
expect_eq "built-in matrices: exit" "$code" 0
expect_eq "built-in matrices: output" "$out" "the matrices hold everything the vendors publish"
for f in "$source_dir"/profiles/compat/*.json; do
  cmp -s "$f" "$scratch/same/$(basename "$f")" || fail "unchanged $(basename "$f") was rewritten"
done
echo "ok: an unchanged refresh copies the files byte for byte"

# The matrices as they were before torch 2.6's cu124 build, CUDA 12.4.1 and jax 0.4.29 were known.
mkdir "$scratch/old"
cp "$source_dir"/profiles/compat/*.json "$scratch/old/"
python3 - "$scratch/old" <<'PY'
import json, sys
d = sys.argv[1]
def edit(name, change):
    text = open(f"{d}/{name}").read()
    doc = json.loads(text)
    change(doc)
    open(f"{d}/{name}", "w").write(json.dumps(doc, indent=2) + ("\n" if text.endswith("\n") else ""))
def torch(doc):
    line = next(r for r in doc["releases"] if r["line"] == "2.6")
    line["variants"] = [v for v in line["variants"] if v["tag"] != "cu124"]
edit("torch.json", torch)
edit("cuda.json", lambda doc: doc.update(toolkits=[t for t in doc["toolkits"] if t["version"] != "12.4.1"]))
def known_by_0428(row):
    return all(tuple(map(int, v.split("."))) <= (0, 4, 28) for v in row["versions"])
edit("jax.json", lambda doc: doc.update(releases=[r for r in doc["releases"] if known_by_0428(r)]))
PY

set +e
out=$("$dlenv" --matrix "$scratch/old" matrix refresh --source-url "$base" --out "$scratch/new" 2>&1)
code=$?
set -e
expect_eq "old matrices: exit" "$code" 1
expected="torch.json:
  + releases[line=2.6].variants[tag=cu124]: CUDA 12.4, cuDNN 9.1.0.70, NCCL 2.21.5 (pins read from torch-2.6.0+cu124-cp312-cp312-linux_x86_64.whl.metadata)
      needs a hand row: arch_list, ptx, pypi_default
cuda.json:
  + toolkits[version=12.4.1]: 12.4 Update 1, released 2024-04-03 (the manifest bundles Linux driver 550.54.15)
      needs a hand row: driver_linux, driver_windows
needs a hand row:
  ! jax 0.4.29, 0.4.30 on PyPI: newer than every row's (0.4.28); needs a row (CUDA and cuDNN floors, Python range, the CUDA plugins)
2 changes proposed, 1 hand row needed; the refreshed matrices are in $scratch/new (use them with --matrix $scratch/new)"
expect_eq "old matrices: proposal" "$out" "$expected"

# The added rows, as a reviewer sees them in the pull request.
python3 - "$scratch/new" "$base" <<'PY'
import json, sys
d, base = sys.argv[1:]
torch = json.load(open(f"{d}/torch.json"))
v = next(v for v in next(r for r in torch["releases"] if r["line"] == "2.6")["variants"] if v["tag"] == "cu124")
assert (v["cuda"], v["cudnn"], v["nccl"], v["arch_list"], v["ptx"]) == ("12.4", "9.1.0.70", "2.21.5", None, None), v
assert v["source"] == ["PT_WHL_INDEX", "PT_WHL_META_2_6_CU124"], v["source"]
assert torch["sources"]["PT_WHL_INDEX"]["url"] == base + "/whl/torch/"
assert torch["sources"]["PT_WHL_META_2_6_CU124"]["url"] == base + "/whl/cu124/torch-2.6.0%2Bcu124-cp312-cp312-linux_x86_64.whl.metadata"
cuda = json.load(open(f"{d}/cuda.json"))
versions = [t["version"] for t in cuda["toolkits"]]
assert versions.index("12.4.1") == versions.index("12.4.0") - 1, versions
t = cuda["toolkits"][versions.index("12.4.1")]
assert (t["name"], t["driver_linux"], t["source"]) == ("12.4 Update 1", None, ["REDIST_1241"]), t
assert cuda["sources"]["REDIST_1241"]["url"] == base + "/compute/cuda/redist/redistrib_12.4.1.json"
PY
echo "ok: the added rows carry their facts and sources"

out=$("$dlenv" --matrix "$scratch/new" check --framework torch==2.6.0+cu124 --driver 550.54.15)
expect_eq "refreshed matrices work with --matrix" "$(head -1 <<<"$out")" "ok: torch==2.6.0+cu124 + driver 550.54.15 works"

# --out names a file, or a directory holding a link where a matrix file goes: refused.
touch "$scratch/file"
set +e
err=$("$dlenv" matrix refresh --source-url "$base" --out "$scratch/file" 2>&1)
code=$?
set -e
expect_eq "--out a file: exit" "$code" 2
expect_eq "--out a file: error" "$(head -1 <<<"$err")" "dlenv: --out $scratch/file: not a directory"
mkdir "$scratch/linked"
ln -s /etc/passwd "$scratch/linked/cuda.json"
set +e
err=$("$dlenv" matrix refresh --source-url "$base" --out "$scratch/linked" 2>&1)
code=$?
set -e
expect_eq "--out with a link: exit" "$code" 2
expect_eq "--out with a link: error" "$(head -1 <<<"$err")" "dlenv: $scratch/linked/cuda.json: exists and is no regular file"

# A manifest that is not NVIDIA's: the label of another release.
sed -i 's/"release_label": "12.4.1"/"release_label": "12.4.9"/' "$replica/compute/cuda/redist/redistrib_12.4.1.json"
set +e
err=$("$dlenv" --matrix "$scratch/old" matrix refresh --source-url "$base" --out "$scratch/bad" 2>&1)
code=$?
set -e
expect_eq "hostile manifest: exit" "$code" 2
expect_eq "hostile manifest: error" "$(head -1 <<<"$err")" \
  "dlenv: $base/compute/cuda/redist/redistrib_12.4.1.json: release_label: expected 12.4.1, got '12.4.9'"

stop_serving
set +e
"$dlenv" matrix refresh --source-url "$base" --out "$scratch/down" >/dev/null 2>&1
code=$?
set -e
expect_eq "no server: exit" "$code" 3
