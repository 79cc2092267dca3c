#!/usr/bin/env bash
# `dlenv lock` pins a profile's whole Python closure from a simple-API index served on
# 127.0.0.1 (PEP 691 JSON, then PEP 503 HTML), each project from the index assigned to
# it; a wheelhouse gives the same pins without a network; `dlenv export requirements`
# writes what `pip install --require-hashes` installs exactly, and pip refuses it once a
# hash is changed; a requirement against the stack's cuDNN fails naming both; an index
# that does not answer exits 3.
source "$(dirname "$0")/lib.sh"

fixtures=$source_dir/tests/fixtures/wheels
python3 "$fixtures/make_wheels.py" "$scratch/wheels" resolve
python3 "$fixtures/make_index.py" "$scratch/wheels" "$scratch/index"


profile() { # profile REQUIREMENTS_JSON: torch 2.1 for CUDA 11.8 and Python 3.11, as the fixtures are built
  cat >"$scratch/team.json" <<EOF
{"format": "dlenv.profile/v1", "name": "team", "python": "3.11", "base_image": "scratch",
 "framework": {"name": "torch", "version": "2.1", "cuda": "11.8"}, "companions": ["torchvision"],
 "requirements": $1}
EOF
}
# "name version index" of each locked package.
pins() { # pins LOCKFILE
  python3 -c 'import json,sys; [print(p["name"], p["version"], p["index"]) for p in json.load(open(sys.argv[1]))["packages"]]' "$1"
}
# "name sha256" of each locked package.
hashes() { # hashes LOCKFILE
  python3 -c 'import json,sys; [print(p["name"], p["sha256"]) for p in json.load(open(sys.argv[1]))["packages"]]' "$1"
}

profile '["numpy<2"]'
expected="filelock 3.13.1 pypi
numpy 1.26.2 pypi
nvidia-cublas-cu11 11.11.3.6 pytorch
nvidia-cudnn-cu11 8.7.0.84 pytorch
nvidia-nccl-cu11 2.18.1 pytorch
torch 2.1.2+cu118 pytorch
torchvision 0.16.2+cu118 pytorch
triton 2.1.0 pytorch
typing-extensions 4.9.0 pypi"

# The JSON server stays up: pip installs from the URLs of its lock below.
for mode in html json; do
  start_serving "$scratch/index" "$([[ $mode == json ]] && echo json || echo)"
  index_url=$served_origin/simple/
  "$dlenv" lock "$scratch/team.json" -o "$scratch/$mode.lock.json" \
    --index "pypi=$index_url" --index "pytorch=$index_url" >"$scratch/out"
  [[ $mode == json ]] || stop_serving
  expect_eq "$mode: closure" "$(pins "$scratch/$mode.lock.json")" "$expected"
  expect_eq "$mode: summary" "$(tail -1 "$scratch/out")" \
    "  9 Python packages pinned by sha256 (3 from pypi, 6 from pytorch)"
done
expect_eq "JSON and HTML pages pin the same files" "$(hashes "$scratch/json.lock.json")" \
  "$(hashes "$scratch/html.lock.json")"

lock=$scratch/json.lock.json
python3 - "$lock" "$scratch/index/files" <<'EOF' || fail "a locked URL or sha256 is not the served file's"
import hashlib, json, os, sys, urllib.parse
lock, files = sys.argv[1:]
for p in json.load(open(lock))["packages"]:
    url = urllib.parse.urlsplit(p["url"])
    assert url.path == "/files/" + urllib.parse.quote(p["filename"]), p["url"]
    data = open(os.path.join(files, p["filename"]), "rb").read()
    assert p["sha256"] == hashlib.sha256(data).hexdigest(), p["name"]
    assert p["size"] == len(data), p["name"]
EOF
echo "ok: every URL, sha256 and size is the served file's"
expect_eq "torch is required by" \
  "$(python3 -c 'import json,sys; print(next(p["required_by"] for p in json.load(open(sys.argv[1]))["packages"] if p["name"]=="torch"))' "$lock")" \
  "['profile team', 'torchvision']"

# The same pins from a wheelhouse, without a network (the server is up, and unused).
expect_eq "wheelhouse: --json counts the packages" \
  "$("$dlenv" lock "$scratch/team.json" -o "$scratch/offline.lock.json" --offline --wheelhouse "$scratch/wheels" --json |
     python3 -c 'import json,sys; print(json.load(sys.stdin)["packages"])')" 9
expect_eq "wheelhouse: closure" "$(pins "$scratch/offline.lock.json" | cut -d' ' -f1,2)" "$(cut -d' ' -f1,2 <<<"$expected")"
expect_eq "wheelhouse: same sha256" "$(hashes "$scratch/offline.lock.json")" "$(hashes "$lock")"

# What pip installs from the export is exactly the lock.
"$dlenv" export requirements "$lock" -o "$scratch/requirements.txt"
expect_eq "requirement lines" "$(grep -c ' @ http://127.0.0.1:' "$scratch/requirements.txt")" 9
python3 -m pip install --quiet --root-user-action=ignore --disable-pip-version-check --no-deps --require-hashes --no-index --target "$scratch/site" \
  -r "$scratch/requirements.txt" || fail "pip refused the exported requirements"
expect_eq "pip installed the lock" \
  "$(cd "$scratch/site" && ls -d *.dist-info | sed 's/\.dist-info$//' | sort)" \
  "$(python3 -c 'import json,sys; [print(p["filename"].split("-")[0] + "-" + p["version"]) for p in json.load(open(sys.argv[1]))["packages"]]' "$lock" | sort)"
torch_hash=$(hashes "$lock" | awk '$1=="torch"{print $2}')
sed "s/$torch_hash/$(printf '0%.0s' {1..64})/" "$scratch/requirements.txt" >"$scratch/tampered.txt"
set +e
python3 -m pip install --quiet --root-user-action=ignore --disable-pip-version-check --no-deps --require-hashes --no-index --target "$scratch/site2" \
  -r "$scratch/tampered.txt" 2>"$scratch/pip.err"
rc=$?
set -e
stop_serving
expect_eq "pip refuses a changed hash" "$rc" 1
grep -q "THESE PACKAGES DO NOT MATCH THE HASHES" "$scratch/pip.err" || fail "pip's refusal: $(cat "$scratch/pip.err")"
echo "ok: pip names the hash mismatch"

# A requirement against the stack's cuDNN is a conflict naming the chain and the pin.
profile '["nvidia-cudnn-cu11==8.9.2.26"]'
set +e
"$dlenv" lock "$scratch/team.json" -o "$scratch/conflict.lock.json" --offline --wheelhouse "$scratch/wheels" \
  2>"$scratch/err" >/dev/null
rc=$?
set -e
expect_eq "conflict exit" "$rc" 1
expect_eq "conflict message" "$(head -1 "$scratch/err")" \
  "dlenv: profile team requires nvidia-cudnn-cu11==8.9.2.26, but the stack pins cuDNN 8.7.0.84 (profile team)"
[[ ! -e $scratch/conflict.lock.json ]] || fail "a lock was written despite the conflict"

# An index that does not answer: exit 3, naming it; nothing written.
set +e
"$dlenv" lock "$scratch/team.json" -o "$scratch/down.lock.json" --index "pypi=$index_url" \
  --index "pytorch=$index_url" 2>"$scratch/err" >/dev/null
rc=$?
set -e
expect_eq "index down exit" "$rc" 3
grep -q "index $index_url" "$scratch/err" || fail "the error does not name the index: $(cat "$scratch/err")"
[[ ! -e $scratch/down.lock.json ]] || fail "a lock was written without its packages"
