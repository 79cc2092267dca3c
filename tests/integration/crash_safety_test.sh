#!/usr/bin/env bash
# Builds killed with SIGKILL at random points leave a sound store: `dlenv fsck` passes
# after every kill, and `latest` is either the image it was before or the finished new
# one, in which case the one before became `rollback`.
source "$(dirname "$0")/lib.sh"

store=$scratch/.dlenv
build_quickstart "$store"
quickstart=$(image_digest "$store" quickstart latest)
base=docker-archive:$scratch/quickstart-base.tar

# A profile with a file large enough that a build takes a while to write.
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/crash.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
profile["name"] = "crash"
profile["files"] = [{"source": "big.bin", "target": "/data/big.bin", "mode": "0644"}]
json.dump(profile, open(sys.argv[2], "w"))
PY

kills=${CRASH_KILLS:-25}
interrupted=0
finished=0
for i in $(seq 1 "$kills"); do
  head -c 48000000 /dev/urandom >"$scratch/big.bin"
  "$dlenv" lock "$scratch/crash.json" -o "$scratch/crash.lock.json" --offline >/dev/null
  before=$(image_digest "$store" crash latest)
  "$dlenv" build "$scratch/crash.lock.json" --store "$store" --base "$base" >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v r="$RANDOM" 'BEGIN { printf "%.3f", (r % 2500) / 1000 }')" # a build takes about 1.5 s

  kill -9 "$pid" 2>/dev/null && interrupted=$((interrupted + 1))
  wait "$pid" 2>/dev/null || true

  "$dlenv" fsck --store "$store" >"$scratch/fsck.out" || { cat "$scratch/fsck.out"; fail "fsck after kill $i"; }
  after=$(image_digest "$store" crash latest)
  if [[ "$after" != "$before" ]]; then
    finished=$((finished + 1))
    rollback=$(image_digest "$store" crash rollback)
    [[ "$before" == none || "$rollback" == "$before" ]] || fail "kill $i: latest moved but rollback is $rollback, not $before"
  fi
done
echo "ok: $kills builds, $interrupted killed mid-way, $finished finished, fsck passed after each"
expect_eq "the quickstart image was never touched" "$(image_digest "$store" quickstart latest)" "$quickstart"
"$dlenv" gc --store "$store" >/dev/null
"$dlenv" fsck --store "$store" >/dev/null || fail "fsck after gc"
echo "ok: gc removed the leftovers and fsck still passes"
