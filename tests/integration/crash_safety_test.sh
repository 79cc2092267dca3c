#!/usr/bin/env bash
# Every command that writes the store, killed with SIGKILL at random points, leaves it
# sound: build, promote, rollback, rollback --production and gc, in turn. Each round runs
# the command to its end on a copy of the store first, which tells the state it leads to
# and how long it takes, then on the store itself, killed at a random moment of that
# time (every other one near the end, where the tags move). After each kill `dlenv fsck`
# passes, every stored blob hashes to its name, and the tags are all as they were before
# or all as the command left them on the copy. A kill that left them as before is
# followed by the same command again, which must reach the copy's tags and leave nothing
# of the kill behind (temporary files, staging), as the command on the copy must leave
# nothing of the kill in the round before. CRASH_ROUNDS rounds (default 49), no new one
# after CRASH_SECONDS (default 90).
source "$(dirname "$0")/lib.sh"

store=$scratch/.dlenv
copy=$scratch/copy
build_quickstart "$store"
quickstart=$(image_digest "$store" quickstart latest)
base=docker-archive:$scratch/quickstart-base.tar

# An image whose lock requires only the static tier, with a file large enough that a
# build takes a while to write.
python3 - "$source_dir/examples/quickstart/quickstart.json" "$scratch/crash.json" <<'PY'
import json, sys
profile = json.load(open(sys.argv[1]))
profile["name"] = "crash"
profile["validation"] = {"tiers": ["static"]}
profile["files"] = [{"source": "big.bin", "target": "/data/big.bin", "mode": "0644"}]
json.dump(profile, open(sys.argv[2], "w"))
PY
new_input() {
  head -c 16000000 /dev/urandom >"$scratch/big.bin"
  "$dlenv" lock "$scratch/crash.json" -o "$scratch/crash.lock.json" --offline >/dev/null
}

# A passing static verification of DIGEST on record, as `dlenv verify --tier static`
# leaves it, without a container run in every round.
pass_static() { # pass_static DIGEST
  python3 - "$store" "$1" <<'PY'
import json, os, sys
store, digest = sys.argv[1:]
path = os.path.join(store, "dlenv", "verifications", "sha256-" + digest[len("sha256:"):] + ".json")
os.makedirs(os.path.dirname(path), exist_ok=True)
static = {"passed": True, "time": "2026-01-01T00:00:00Z", "report": {}}
json.dump({"schema": "dlenv.verification/v1", "image": digest, "tiers": {"static": static}}, open(path, "w"))
PY
}

# Every tag of the store, "NAME:TAG=DIGEST" sorted.
tags() { # tags STORE
  "$dlenv" images --store "$1" --json |
    python3 -c 'import json,sys; print(" ".join(sorted(i["name"]+":"+i["tag"]+"="+i["digest"] for i in json.load(sys.stdin))))'
}
leftovers() { # leftovers STORE
  find "$1" \( -name '.*.tmp-??????' -o -path "$1/dlenv/staging/*" \) -print -prune
}
blobs_intact() { # blobs_intact STORE
  (cd "$1/blobs/sha256" && for blob in *; do echo "$blob  $blob"; done | sha256sum --quiet -c)
}
args_of() { # args_of COMMAND: sets `args`
  case $1 in
    build) args=(build "$scratch/crash.lock.json" --base "$base") ;;
    promote) args=(promote crash) ;;
    rollback) args=(rollback crash) ;;
    rollback-production) args=(rollback crash --production) ;;
    gc) args=(gc --keep 1) ;;
  esac
}

commands=(build promote build promote rollback rollback-production gc)
rounds=${CRASH_ROUNDS:-49}
seconds=${CRASH_SECONDS:-90}
done_rounds=0
declare -A per_command killed late
SECONDS=0
for round in $(seq 1 "$rounds"); do
  ((SECONDS < seconds)) || break
  command=${commands[$(((round - 1) % ${#commands[@]}))]}
  args_of "$command"
  [[ $command != build ]] || new_input
  before=$(tags "$store")

  chmod -R u+w "$copy" 2>/dev/null || true
  rm -rf "$copy"
  cp -a "$store" "$copy"
  start=$(date +%s%N)
  "$dlenv" "${args[@]}" --store "$copy" >/dev/null 2>&1 || true # a step back with nowhere to go refuses
  took=$((($(date +%s%N) - start) / 1000))
  after=$(tags "$copy")
  [[ -z "$(leftovers "$copy")" ]] || fail "round $round: $command left $(leftovers "$copy")"

  "$dlenv" "${args[@]}" --store "$store" >/dev/null 2>&1 &
  pid=$!
  # Every other kill lands near the end, where the tags move.
  sleep "$(awk -v r="$RANDOM" -v t="$took" -v end=$((round % 2)) \
    'BEGIN { f = r / 32768; if (end) f = 0.85 + f * 0.2; printf "%.6f", f * t / 1000000 }')"
  kill -9 "$pid" 2>/dev/null || true
  rc=0
  wait "$pid" 2>/dev/null || rc=$?

  "$dlenv" fsck --store "$store" >"$scratch/fsck.out" || { cat "$scratch/fsck.out"; fail "fsck after round $round ($command)"; }
  blobs_intact "$store" || fail "round $round ($command): a stored blob does not hash to its name"
  now=$(tags "$store")
  [[ "$now" == "$before" || "$now" == "$after" ]] ||
    fail "round $round ($command): tags are '$now', neither the old '$before' nor the new '$after'"
  if [[ "$now" != "$after" ]]; then
    # The same command again finishes what the kill stopped, and leaves nothing of it.
    "$dlenv" "${args[@]}" --store "$store" >/dev/null 2>&1 || true
    [[ "$(tags "$store")" == "$after" ]] || fail "round $round ($command): run again, it gave '$(tags "$store")', not '$after'"
    [[ -z "$(leftovers "$store")" ]] || fail "round $round: $command run again left $(leftovers "$store")"
  elif ((rc == 137)) && [[ "$before" != "$after" ]]; then
    late[$command]=$((${late[$command]:-0} + 1))
  fi
  ((rc != 137)) || killed[$command]=$((${killed[$command]:-0} + 1)) # 128 + SIGKILL: it was still running
  [[ $command != build || "$before" == "$after" ]] || pass_static "$(image_digest "$store" crash latest)"
  per_command[$command]=$((${per_command[$command]:-0} + 1))
  done_rounds=$round
done
((done_rounds >= ${#commands[@]})) || fail "only $done_rounds round(s) in ${seconds}s: not every command was killed"
summary=""
for command in build promote rollback rollback-production gc; do
  summary+="$command ${killed[$command]:-0} of ${per_command[$command]:-0} (${late[$command]:-0} after the tags moved), "
done
echo "ok: $done_rounds rounds in ${SECONDS}s, killed while running: ${summary%, }; fsck, blobs and tags sound after each"
expect_eq "the quickstart image was never touched" "$(image_digest "$store" quickstart latest)" "$quickstart"
"$dlenv" gc --store "$store" >/dev/null
"$dlenv" fsck --store "$store" >/dev/null || fail "fsck after gc"
expect_eq "gc left nothing of the kills behind" "$(leftovers "$store")" ""
