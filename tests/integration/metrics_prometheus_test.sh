#!/usr/bin/env bash
# `dlenv metrics` as Prometheus sees it: a store with a real build, a static verification
# and a promotion, plus a gpu tier record laid out as verify writes one (no GPU here); the
# exposition passes `promtool check metrics`; -o refuses what is no regular file; and a
# real Prometheus on 127.0.0.1 scrapes `dlenv metrics --listen` and returns dlenv's figures
# from its query API.
source "$(dirname "$0")/lib.sh"

command -v prometheus >/dev/null || { echo "skip: prometheus is not installed (Debian package prometheus)"; exit 77; }
command -v promtool >/dev/null || { echo "skip: promtool is not installed (Debian package prometheus)"; exit 77; }

# An image that requires the static tier only, built, verified and promoted.
store=$scratch/store
build_quickstart "$store"
static_quickstart_profile "$scratch/static"
"$dlenv" lock "$scratch/static/quickstart-static.json" -o "$scratch/static/lock.json" --offline >/dev/null
"$dlenv" build "$scratch/static/lock.json" --store "$store" --base "docker-archive:$scratch/quickstart-base.tar" >/dev/null
set +e
verify_out=$("$dlenv" verify quickstart-static --store "$store" --tier static 2>&1)
rc=$?
set -e
[[ $rc != 3 ]] || { echo "skip: no container runtime for the static tier: $verify_out"; exit 77; }
expect_eq "static tier passes" "$rc" 0
"$dlenv" promote quickstart-static --store "$store" >/dev/null
digest=$(image_digest "$store" quickstart-static production)

# A gpu tier beside it, as verify records one on two H100s (store/verifications.h, the
# tier's JSON of verify/report.cpp): GPU 1 under the bandwidth threshold.
record=$store/dlenv/verifications/sha256-${digest#sha256:}.json
python3 - "$record" <<'PY'
import json, sys
path = sys.argv[1]
doc = json.load(open(path))
static = doc["tiers"]["static"]["report"]
figures = [("gpu0_memory_bandwidth", 2900.5, "GB/s", None), ("gpu0_bandwidth_fraction", 0.866, "fraction", 0.8),
           ("gpu0_gemm_fp16_fraction", 0.71, "fraction", 0.6), ("gpu0_gemm_bf16_fraction", 0.705, "fraction", 0.6),
           ("gpu1_bandwidth_fraction", 0.5, "fraction", 0.8)]
report = {"tier": "gpu", "passed": False, "seconds": 12.25,
          "counts": {"pass": 3, "fail": 1, "skip": 0, "warn": 0},
          "findings": [{"code": "bandwidth", "outcome": "fail", "message": "GPU 1 (NVIDIA H100 80GB HBM3): under"}],
          "figures": [{"name": n, "value": v, "unit": u, "threshold": t} for n, v, u, t in figures],
          "host": {"kernel": static["host"]["kernel"], "driver": "550.54.15",
                   "gpus": ["NVIDIA H100 80GB HBM3", "NVIDIA H100 80GB HBM3"]},
          "runtime": "runc", "time": "2026-11-29T18:04:50Z", "lock_digest": static["lock_digest"],
          "thresholds": {"bandwidth_min_fraction": 0.8, "gemm_min_fraction": 0.6}}
doc["tiers"]["gpu"] = {"passed": False, "time": "2026-11-29T18:04:50Z", "report": report}
json.dump(doc, open(path, "w"), indent=2, sort_keys=True)
PY

# The exposition, with and without the doctor, passes promtool's lint.
mkdir -p "$scratch/data"
"$dlenv" metrics --store "$store" --no-doctor >"$scratch/store.prom"
lint=$(promtool check metrics <"$scratch/store.prom" 2>&1) || fail "promtool check metrics: $lint"
expect_eq "promtool finds nothing in the store's metrics" "$lint" ""
expect_eq "the production digest" "$(grep '^dlenv_image_tag_info{image="quickstart-static",tag="production"' "$scratch/store.prom")" \
  "dlenv_image_tag_info{image=\"quickstart-static\",tag=\"production\",digest=\"$digest\"} 1"
"$dlenv" metrics --store "$store" --data-dir "$scratch/data" --read-size 1 -o "$scratch/textfile/dlenv.prom"
lint=$(promtool check metrics <"$scratch/textfile/dlenv.prom" 2>&1) || fail "promtool check metrics: $lint"
expect_eq "promtool finds nothing in the doctor's metrics" "$lint" ""
expect_eq "the textfile is a regular file" "$(stat -c %F "$scratch/textfile/dlenv.prom")" "regular file"
expect_eq "the data directory is left empty" "$(ls -A "$scratch/data")" ""

# -o names a regular file or is refused before anything runs.
mkfifo "$scratch/fifo"
for target in "$scratch/textfile" "$scratch/fifo"; do
  set +e
  message=$("$dlenv" metrics --store "$store" --no-doctor -o "$target" 2>&1)
  rc=$?
  set -e
  expect_eq "-o $(basename "$target") exits 2" "$rc" 2
  expect_eq "-o $(basename "$target") says why" "$(head -1 <<<"$message")" "dlenv: -o $target: not a regular file"
done

# Free ports for Prometheus; dlenv takes its own (port 0) and says which.
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
"$dlenv" metrics --store "$store" --data-dir "$scratch/data" --read-size 1 --listen 127.0.0.1:0 >"$scratch/listen.out" 2>&1 &
dlenv_pid=$!
prometheus_pid=
trap 'kill $dlenv_pid $prometheus_pid 2>/dev/null; wait 2>/dev/null; chmod -R u+w "$scratch" 2>/dev/null; rm -rf "$scratch"' EXIT
for _ in $(seq 100); do
  grep -q '^serving ' "$scratch/listen.out" && break
  sleep 0.1
done
dlenv_address=$(sed -n 's|^serving http://\(.*\)/metrics$|\1|p' "$scratch/listen.out")
[[ -n $dlenv_address ]] || fail "dlenv metrics --listen did not start: $(cat "$scratch/listen.out")"
expect_eq "dlenv serves on loopback" "${dlenv_address%:*}" "127.0.0.1"

status_of() { curl -s -o /dev/null -w '%{http_code}' "$@"; }
expect_eq "GET / is 404" "$(status_of "http://$dlenv_address/")" 404
expect_eq "POST /metrics is 405" "$(status_of -X POST "http://$dlenv_address/metrics")" 405
expect_eq "the content type" "$(curl -s -o /dev/null -w '%{content_type}' "http://$dlenv_address/metrics")" \
  "text/plain; version=0.0.4; charset=utf-8"

prometheus_port=$(free_port)
cat >"$scratch/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
  evaluation_interval: 1s
scrape_configs:
  - job_name: dlenv
    static_configs:
      - targets: ["$dlenv_address"]
YAML
prometheus --config.file="$scratch/prometheus.yml" --storage.tsdb.path="$scratch/tsdb" \
  --web.listen-address="127.0.0.1:$prometheus_port" >"$scratch/prometheus.log" 2>&1 &
prometheus_pid=$!

# The values of an instant query, one "labels=value" line per series, sorted.
query() {
  python3 - "http://127.0.0.1:$prometheus_port" "$1" <<'PY'
import json, sys, urllib.parse, urllib.request
url = sys.argv[1] + "/api/v1/query?" + urllib.parse.urlencode({"query": sys.argv[2]})
doc = json.load(urllib.request.urlopen(url, timeout=5))
assert doc["status"] == "success", doc
rows = []
for series in doc["data"]["result"]:
    labels = ",".join("%s=%s" % (k, v) for k, v in sorted(series["metric"].items())
                      if k not in ("__name__", "instance", "job"))
    rows.append(labels + "=" + series["value"][1])
print("\n".join(sorted(rows)))
PY
}
for _ in $(seq 300); do
  [[ $(query 'up{job="dlenv"}' 2>/dev/null) == "=1" ]] && [[ -n $(query 'dlenv_doctor_verdict' 2>/dev/null) ]] && break
  kill -0 "$prometheus_pid" || fail "prometheus exited: $(tail -5 "$scratch/prometheus.log")"
  sleep 0.1
done
expect_eq "Prometheus scraped dlenv" "$(query 'up{job="dlenv"}')" "=1"

d="digest=$digest"
expect_eq "bandwidth fractions per GPU" "$(query 'dlenv_verification_memory_bandwidth_ratio')" \
  "$d,gpu=NVIDIA H100 80GB HBM3,gpu_index=0,tier=gpu=0.866
$d,gpu=NVIDIA H100 80GB HBM3,gpu_index=1,tier=gpu=0.5"
expect_eq "GEMM fractions by precision" "$(query 'dlenv_verification_gemm_ratio')" \
  "$d,gpu=NVIDIA H100 80GB HBM3,gpu_index=0,precision=bf16,tier=gpu=0.705
$d,gpu=NVIDIA H100 80GB HBM3,gpu_index=0,precision=fp16,tier=gpu=0.71"
expect_eq "pass and fail per tier" "$(query 'dlenv_verification_passed')" "$d,tier=gpu=0
$d,tier=static=1"
expect_eq "when the gpu tier ran" "$(query 'dlenv_verification_timestamp_seconds{tier="gpu"}')" "$d,tier=gpu=1795975490"
expect_eq "the lock's threshold, beside each tier" "$(query 'dlenv_verification_memory_bandwidth_min_ratio')" "$d,tier=gpu=0.8
$d,tier=static=0.8"
expect_eq "GPUs under the threshold" \
  "$(query 'dlenv_verification_memory_bandwidth_ratio < on(digest, tier) group_left dlenv_verification_memory_bandwidth_min_ratio')" \
  "$d,gpu=NVIDIA H100 80GB HBM3,gpu_index=1,tier=gpu=0.5"
expect_eq "the production digest" "$(query 'dlenv_image_tag_info{tag="production"}')" \
  "$d,image=quickstart-static,tag=production=1"
expect_eq "production's verifications by image name" \
  "$(query 'dlenv_verification_passed * on(digest) group_left(image) dlenv_image_tag_info{tag="production"}')" \
  "$d,image=quickstart-static,tier=gpu=0
$d,image=quickstart-static,tier=static=1"
cores=$(python3 -c 'import os; print(len(os.sched_getaffinity(0)))')
expect_eq "the doctor's core count" "$(query 'dlenv_doctor_measured_cores')" "check=cpu_cores_per_gpu=$cores"
expect_eq "no GPU here: the gpu check is unknown" "$(query 'dlenv_doctor_check{check="gpu"} == 1')" \
  "check=gpu,verdict=unknown=1"
expect_eq "one verdict per check" "$(query 'count(sum by (check, subject) (dlenv_doctor_check) != 1)')" ""
