#!/usr/bin/env bash
# The build tool that compiles profiles/compat/*.json into the image dlenv starts from
# (tests/unit/matrix/image_test.cpp holds that image to the JSON rows): the shipped files
# compile, to the same source each time, and a malformed field fails it (so the build)
# with exit 2, the file, the field and the fix, writing nothing.
source "$(dirname "$0")/lib.sh"
compile=${DLENV_MATRIX_COMPILE:?set DLENV_MATRIX_COMPILE to the dlenv_matrix_compile binary}

"$compile" "$source_dir/profiles/compat" "$scratch/image.cpp"
"$compile" "$source_dir/profiles/compat" "$scratch/again.cpp"
grep -q '^std::string_view embedded_matrix_image()$' "$scratch/image.cpp" || fail "no embedded_matrix_image() in the source"
cmp -s "$scratch/image.cpp" "$scratch/again.cpp" || fail "two compiles of the same files differ"
echo "ok: the shipped files compile, the same way twice"

cp -r "$source_dir/profiles/compat" "$scratch/bad"
python3 - "$scratch/bad/torch.json" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
doc["releases"][0]["variants"][0]["nccl"] = "2.x"
json.dump(doc, open(sys.argv[1], "w"), indent=2)
PY
set +e
out=$("$compile" "$scratch/bad" "$scratch/bad.cpp" 2>&1)
code=$?
set -e
expect_eq "malformed field: exit" "$code" 2
expect_eq "malformed field: message" "$out" "error: $scratch/bad/torch.json: releases[0].variants[0].nccl: '2.x' is not a NCCL version
  fix: write it as 2.18.1"
[[ ! -e $scratch/bad.cpp ]] || fail "a failed compile wrote $scratch/bad.cpp"
echo "ok: a malformed field fails the compile, naming the file and field"
