#!/usr/bin/env bash
# How accurately, and at what CPU cost, each --wait strategy meets a schedule: the noop driver, one thread,
# at 1,000, 10,000 and 100,000 ops/s. For each strategy and rate it prints the scheduling lag (harness.lag:
# how late each operation started after it could have, the wait strategy's own error) at p50/p99/p99.9/max,
# and the CPU seconds the whole process used (user + system, /usr/bin/time), against spin's at the same rate,
# and those of the worker thread alone (loadgen-worker-0's utime + stime from /proc/<pid>/task/*/stat, read
# every 0.1 s while it runs, so it may miss its last 0.1 s): what the strategy itself spends, without the
# JVM's start-up and compiler threads.
#
#   bench/wait-strategies.sh                       # 10 s per run, 1 s of it warm-up
#   SECONDS_PER_RUN=20 RATES="10000" STRATEGIES="adaptive spin" bench/wait-strategies.sh
#
# The warm-up leaves the JIT's first second out of the lag figures (the loop runs interpreted at first). CPU
# includes the JVM's own start-up and compiler threads, about the same for every strategy: compare within a
# rate. Needs GNU time at /usr/bin/time. Keep the machine otherwise idle: a busy core shows as lag.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. bench/lib/common.sh
secs="${SECONDS_PER_RUN:-10}"
rates="${RATES:-1000 10000 100000}"
strategies="${STRATEGIES:-adaptive park hybrid spin}"
work="bench/target/wait-strategies"
mkdir -p "$work"
[ -x /usr/bin/time ] || { echo "wait-strategies: needs GNU time at /usr/bin/time (Debian: time)" >&2; exit 1; }
./loadgen --version >/dev/null # builds the jar once, outside the measurements
echo "wait-strategies: load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
printf '| ops/s | --wait | lag p50 (µs) | lag p99 (µs) | lag p99.9 (µs) | lag max (µs) | CPU s | CPU vs spin | worker CPU s | worker vs spin |\n'
printf '|---|---|---|---|---|---|---|---|---|---|\n'
for rate in $rates; do
  declare -A cpu=() worker=()
  rows=()
  for s in $strategies spin; do
    [ -n "${cpu[$s]:-}" ] && continue
    json="$work/$s-$rate.json"
    /usr/bin/time -f "%U %S" -o "$work/$s-$rate.time" ./loadgen run --driver noop --target "$rate" --wait "$s" \
      --duration "$((secs + 1))s" --warmup 1s -q --json "$json" >"$work/$s-$rate.out" 2>&1 &
    pid=$!
    java_pid=""
    for _ in $(seq 50); do # the launcher execs java under /usr/bin/time; find it, bounded
      java_pid="$(pgrep -P "$pid" java || true)"
      [ -n "$java_pid" ] && break
      sleep 0.1
    done
    worker[$s]="nan"
    if [ -n "$java_pid" ]; then worker[$s]="$(worker_cpu "$java_pid")"; fi
    wait "$pid" || { echo "wait-strategies: the $s run failed: see $work/$s-$rate.out" >&2; exit 1; }
    cpu[$s]="$(awk '{printf "%.2f", $1 + $2}' "$work/$s-$rate.time")"
    rows+=("$s")
  done
  for s in $strategies; do
    python3 - "$work/$s-$rate.json" "$rate" "$s" "${cpu[$s]}" "${cpu[spin]}" "${worker[$s]}" "${worker[spin]}" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
lag = j["harness"]["lag"]
cpu, spin, worker, worker_spin = (float(v) for v in sys.argv[4:8])
ratio = lambda a, b: a / b if b > 0 else float("nan")
print("| %s | %s | %.1f | %.1f | %.1f | %.0f | %.2f | %.2f | %.2f | %.2f |" % (
    format(int(sys.argv[2]), ","), sys.argv[3], lag["p50_us"], lag["p99_us"], lag["p99_9_us"], lag["max_us"],
    cpu, ratio(cpu, spin), worker, ratio(worker, worker_spin)))
PY
  done
  unset cpu worker
done
echo "wait-strategies: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
