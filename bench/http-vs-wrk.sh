#!/usr/bin/env bash
# loadgen's http driver vs wrk (the C load generator, Debian's wrk), side by side in one run, against the same
# local server: 'loadgen http-server' (Netty, one event-loop thread, 200 and a 13-byte body) on a free loopback
# port, which this script starts and stops.
#
#   bench/http-vs-wrk.sh                 # 3 alternating repetitions per case, median
#   REPS=5 SECONDS_PER_RUN=8 bench/http-vs-wrk.sh
#
# Unthrottled, equal threads and connections (every connection keeps one request in flight, keep-alive):
#   t1c1    wrk -t1 -c1     vs  loadgen --threads 1 -p http.connections=1
#   t1c16   wrk -t1 -c16    vs  loadgen --threads 1 -p http.connections=16
#   t1c64   wrk -t1 -c64    vs  loadgen --threads 1 -p http.connections=64
# Both run WARMUP_SECONDS + SECONDS_PER_RUN; wrk's requests/s and its --latency p99 are over the whole run (its
# JIT is warm from the start), loadgen's from its JSON summary with the first WARMUP_SECONDS left out (--warmup).
# Ratio = loadgen / wrk requests/s: 1.0 or more means loadgen is at least as fast. The server and the client
# share the machine's cores, so a faster client leaves the server less: on 2 cores the server is the limit as
# often as the client, and the ratio is the honest comparison (absolute numbers are this machine's).
#
# Then one fixed-rate case, the ground truth a wrk2 user checks: a second server holds every response
# DELAY_MS (10 ms); loadgen offers RATE requests/s (1000) over RATE_CONNECTIONS (32) connections, more than
# RATE x DELAY = 10 in flight, so nothing queues: intended p50 and p99 must be the server's delay, plus a
# loopback round trip and the timers' lateness. Beside it, wrk's own view of the same server (closed loop,
# RATE x DELAY connections, so about RATE requests/s): what the delay looks like to a C client on this VM.
#
# Environment: REPS (3), SECONDS_PER_RUN (8), WARMUP_SECONDS (2), CASES ("t1c1 t1c16 t1c64 rate"),
# DELAY_MS (10), RATE (1000), RATE_CONNECTIONS (32), WRK (wrk), JAVA (java). Keep the machine otherwise idle.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
reps="${REPS:-3}"
secs="${SECONDS_PER_RUN:-8}"
warm="${WARMUP_SECONDS:-2}"
wrk="${WRK:-wrk}"
delay_ms="${DELAY_MS:-10}"
rate="${RATE:-1000}"
rate_connections="${RATE_CONNECTIONS:-32}"
work="bench/target/http-vs-wrk"
mkdir -p "$work"

die() { echo "http-vs-wrk: $*" >&2; exit 1; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, got '$reps'"
command -v "$wrk" >/dev/null || die "no $wrk: apt-get install wrk"

# shellcheck source=lib/common.sh
. bench/lib/common.sh
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done; wait 2>/dev/null || true' EXIT
# $1 port, $2 delay: starts a server and waits until it answers
start_server() {
  ./loadgen http-server --port "$1" --delay "$2" >"$work/server-$1.log" 2>&1 &
  pids+=($!)
  local i
  for i in $(seq 300); do # at most 30 s (the first start may build the jar)
    if curl -fs "http://127.0.0.1:$1/" >/dev/null 2>&1 \
        || python3 -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$1/', timeout=1)" 2>/dev/null; then
      return 0
    fi
    sleep 0.1
  done
  die "http-server on port $1 did not answer within 30 s: see $work/server-$1.log"
}
port="$(free_port)"
start_server "$port" 0ms
url="http://127.0.0.1:$port/"

# wrk's duration, e.g. 1.23ms / 456.78us / 1.02s, in microseconds
to_us() { awk '{v=$1; if (v ~ /us$/) {sub(/us$/,"",v); print v} else if (v ~ /ms$/) {sub(/ms$/,"",v); print v*1000} else if (v ~ /s$/) {sub(/s$/,"",v); print v*1000000} else print v}'; }
# $1 connections: prints "requests_per_sec p99_us"
run_wrk() {
  local out="$work/wrk-c$1.out"
  "$wrk" -t1 -c "$1" -d "$((secs + warm))s" --latency "$url" >"$out" 2>&1 || die "wrk failed: see $out"
  local rps p99
  rps="$(awk '/^Requests\/sec:/ {print $2}' "$out")"
  p99="$(awk '$1 == "99%" {print $2}' "$out" | to_us)"
  [ -n "$rps" ] || die "no Requests/sec in $out"
  echo "$rps $p99"
}
# $1 connections: prints "requests_per_sec p99_us"
run_lg() {
  local json="$work/loadgen-c$1.json"
  ./loadgen run --driver http -p "http.url=$url" -p "http.connections=$1" --threads 1 \
    --duration "$((secs + warm))s" --warmup "${warm}s" -q --json "$json" \
    >"$work/loadgen-c$1.out" 2>&1 || die "loadgen failed: see $work/loadgen-c$1.out"
  python3 - "$json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
print("%.0f %.0f" % (j["throughput_ops_per_sec"], j["operations"]["GET"]["service"]["p99_us"]))
EOF
}

printf '| case | wrk requests/s | loadgen requests/s | ratio | wrk p99 (us) | loadgen service p99 (us) |\n'
printf '|---|---|---|---|---|---|\n'
for spec in "t1c1 1" "t1c16 16" "t1c64 64"; do
  read -r name connections <<<"$spec"
  [[ " ${CASES:-t1c1 t1c16 t1c64 rate} " == *" $name "* ]] || continue
  : >"$work/$name.wrk"; : >"$work/$name.lg"
  for rep in $(seq "$reps"); do
    # The order alternates, so that neither tool always runs on a machine the other has just disturbed.
    if (( rep % 2 == 1 )); then order="wrk lg"; else order="lg wrk"; fi
    for tool in $order; do
      case "$tool" in
        wrk) run_wrk "$connections" >>"$work/$name.wrk" ;;
        lg) run_lg "$connections" >>"$work/$name.lg" ;;
      esac
    done
  done
  wrk_rps="$(cut -d' ' -f1 "$work/$name.wrk" | median)"
  lg_rps="$(cut -d' ' -f1 "$work/$name.lg" | median)"
  wrk_p99="$(cut -d' ' -f2 "$work/$name.wrk" | median)"
  lg_p99="$(cut -d' ' -f2 "$work/$name.lg" | median)"
  printf '| %s | %.0f | %.0f | %.2f | %.0f | %.0f |\n' "$name" "$wrk_rps" "$lg_rps" \
    "$(python3 -c "print($lg_rps / $wrk_rps)")" "$wrk_p99" "$lg_p99"
done

if [[ " ${CASES:-t1c1 t1c16 t1c64 rate} " == *" rate "* ]]; then
  slow_port="$(free_port)"
  start_server "$slow_port" "${delay_ms}ms"
  # The peer's view of the same server: wrk, closed loop, with RATE x DELAY connections (so about RATE
  # requests/s), on the same seconds' worth of requests: what a C client measures of the delay on this VM.
  "$wrk" -t1 -c "$(( rate * delay_ms / 1000 ))" -d "$((secs + warm))s" --latency "http://127.0.0.1:$slow_port/" \
    >"$work/wrk-rate.out" 2>&1 || die "wrk failed: see $work/wrk-rate.out"
  wrk_p50="$(awk '$1 == "50%" {print $2}' "$work/wrk-rate.out" | to_us)"
  wrk_p99="$(awk '$1 == "99%" {print $2}' "$work/wrk-rate.out" | to_us)"
  json="$work/loadgen-rate.json"
  ./loadgen run --driver http -p "http.url=http://127.0.0.1:$slow_port/" -p "http.connections=$rate_connections" \
    --threads 1 --target "$rate" --duration "$((secs + warm))s" --warmup "${warm}s" -q --json "$json" \
    >"$work/loadgen-rate.out" 2>&1 || die "loadgen failed: see $work/loadgen-rate.out"
  echo
  echo "Fixed rate: $rate requests/s over $rate_connections connections, server delay $delay_ms ms (the analytic answer):"
  python3 - "$json" "$delay_ms" "$wrk_p50" "$wrk_p99" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1])); d = float(sys.argv[2])
g = j["operations"]["GET"]
i, s = g["intended"], g["service"]
print("| view | p50 (ms) | p99 (ms) | p99 / delay |")
print("|---|---|---|---|")
for name, v in (("loadgen intended", i), ("loadgen service", s)):
    print("| %s | %.3f | %.3f | %.3f |" % (name, v["p50_us"] / 1000, v["p99_us"] / 1000, v["p99_us"] / 1000 / d))
w50, w99 = float(sys.argv[3]) / 1000, float(sys.argv[4]) / 1000
print("| wrk, closed loop, same server | %.3f | %.3f | %.3f |" % (w50, w99, w99 / d))
print("achieved %.1f requests/s of %s offered" % (j["throughput_ops_per_sec"], j.get("target_ops_per_sec", "?")))
h = j["harness"]
print("same run: harness lag p50 %.0f us p99 %.0f us; hiccup meter (a 5 ms sleep's lateness: the platform's timer"
      " jitter, which the server's delays share) p99 %.2f ms; verdict: %s"
      % (h["lag"]["p50_us"], h["lag"]["p99_us"], h["hiccup"]["p99_us"] / 1000, h["verdict_text"]))
EOF
fi
