#!/usr/bin/env bash
# `dlenv verify` killed with SIGKILL at random points leaves nothing behind once the next
# command has run: the unpacked rootfs and the runtime's bundle live in the store's
# staging, and the next verify removes what a dead one left there (and nothing in TMPDIR
# ever); the store stays sound and the next verify records a pass.
source "$(dirname "$0")/lib.sh"

store=$scratch/store/.dlenv
build_quickstart "$store"
digest=$(image_digest "$store" quickstart latest)
record=$store/dlenv/verifications/sha256-${digest#sha256:}.json
export TMPDIR=$scratch/tmp
mkdir -p "$TMPDIR"

start=$(date +%s%N)
"$dlenv" verify quickstart --store "$store" --tier static >/dev/null
millis=$((($(date +%s%N) - start) / 1000000))

kills=${VERIFY_KILLS:-12}
interrupted=0
for i in $(seq 1 "$kills"); do
  "$dlenv" verify quickstart --store "$store" --tier static >/dev/null 2>&1 &
  pid=$!
  sleep "$(awk -v r="$RANDOM" -v m="$millis" 'BEGIN { printf "%.3f", (r % (m + 1)) / 1000 }')"
  kill -9 "$pid" 2>/dev/null && interrupted=$((interrupted + 1))
  wait "$pid" 2>/dev/null || true

  "$dlenv" verify quickstart --store "$store" --tier static >"$scratch/verify.out" 2>&1 ||
    { cat "$scratch/verify.out"; fail "the verify after kill $i"; }
  [[ -z "$(ls -A "$store/dlenv/staging" 2>/dev/null)" ]] ||
    fail "kill $i: left in staging: $(ls -A "$store/dlenv/staging")"
  [[ -z "$(ls -A "$TMPDIR")" ]] || fail "kill $i: left in TMPDIR: $(ls -A "$TMPDIR")"
  "$dlenv" fsck --store "$store" >"$scratch/fsck.out" || { cat "$scratch/fsck.out"; fail "fsck after kill $i"; }
  python3 -c 'import json,sys; r=json.load(open(sys.argv[1])); sys.exit(0 if r["tiers"]["static"]["passed"] else 1)' \
    "$record" || fail "kill $i: the record is not a pass"
done
echo "ok: $kills verifies of about $millis ms, $interrupted killed mid-way; nothing left after each next verify"
