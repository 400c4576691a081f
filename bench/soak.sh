#!/usr/bin/env bash
# A soak: loadgen at a steady rate against its own local redis-server for a long time (default 30 minutes),
# printing over time what would show a slow leak or a harness that falls behind: heap after GC, GC pauses,
# the harness's own scheduling lag and the target's intended latency. Not part of CI.
#
#   bench/soak.sh                          # 30 minutes at 2000 ops/s, workloada, a row per minute
#   MINUTES=5 RATE=5000 bench/soak.sh
#
# Heap and GC come from the JVM's own unified GC log (-Xlog:gc); lag and p99 from the run's interval log,
# read back with 'loadgen report' (per-interval lines, one per tag). A healthy soak has flat heap after GC,
# pauses that do not grow, and harness.lag far below the gap between one thread's operations.
#
# Environment: MINUTES (30), RATE (2000), THREADS (4), RECORDS (100000), EVERY_SECONDS (60),
# REDIS_SERVER (redis-server), JAVA (java). Needs redis-server (Debian: redis-server).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
minutes="${MINUTES:-30}"
rate="${RATE:-2000}"
threads="${THREADS:-4}"
records="${RECORDS:-100000}"
every="${EVERY_SECONDS:-60}"
work="bench/target/soak"
mkdir -p "$work"
rm -f "$work"/soak.hlog "$work"/gc.log "$work"/lag* "$work"/p99*

die() { echo "soak: $*" >&2; exit 1; }
[[ "$minutes" =~ ^[1-9][0-9]*$ ]] || die "MINUTES must be a positive integer, got '$minutes'"

# shellcheck source=lib/redis-server.sh
. bench/lib/redis-server.sh
start_redis "$work"

echo "soak: loading $records records into redis-server on port $port" >&2
./loadgen load -P workloads/workloada --driver redis -p "recordcount=$records" -p "redis.uri=$uri" \
  --threads 4 --max-in-flight 16 -q >/dev/null
echo "soak: $minutes min at $rate ops/s over $threads threads (workloada); a line every ${every} s at the end" >&2
LOADGEN_JAVA_OPTS="-Xlog:gc:file=$work/gc.log:uptime ${LOADGEN_JAVA_OPTS:-}" ./loadgen run -P workloads/workloada \
  --driver redis -p "recordcount=$records" -p operationcount=0 -p "redis.uri=$uri" \
  --target "$rate" --threads "$threads" --duration "${minutes}m" --interval "${every}s" -q \
  --hlog "$work/soak.hlog" --json "$work/soak.json" >"$work/soak.out"

./loadgen report -i "$work/soak.hlog" --tag harness.lag -o "$work/lag" --csv >/dev/null
./loadgen report -i "$work/soak.hlog" --tag READ.intended -o "$work/p99" --csv >/dev/null
python3 - "$work" "$every" <<'PY'
import csv, re, sys
work, every = sys.argv[1], float(sys.argv[2])
def per_interval(path):
    rows = list(csv.reader(l for l in open(path) if not l.startswith('#')))
    head = rows[0]
    return [dict(zip(head, r)) for r in rows[1:]]
lag = per_interval(work + "/lag")
p99 = per_interval(work + "/p99")  # HistogramLogProcessor's interval columns: Int_50%, Int_90%, Int_Max
# the JVM's uptime at t0 is unknown here; GC lines are placed by uptime, intervals by run time: close enough
heap, pauses = {}, {}
for line in open(work + "/gc.log"):
    m = re.match(r"\[(\d+\.\d+)s\].*Pause.*?(\d+)M->(\d+)M\(\d+M\) (\d+\.\d+)ms", line)
    if m:
        b = int(float(m.group(1)) // every)
        heap[b] = int(m.group(3))
        pauses.setdefault(b, []).append(float(m.group(4)))
print("| until (s) | heap after GC (MB) | GC pauses | longest pause (ms) | harness.lag max (ms) | READ.intended p90 (ms) | READ.intended max (ms) |")
print("|---|---|---|---|---|---|---|")
for i, (l, r) in enumerate(zip(lag, p99)):
    ps = pauses.get(i, [])
    print("| %d | %s | %d | %.1f | %s | %s | %s |" % ((i + 1) * every, heap.get(i, "-"), len(ps), max(ps) if ps else 0.0,
          l.get("Int_Max", "-"), r.get("Int_90%", "-"), r.get("Int_Max", "-")))
PY
grep -E "Throughput|\[READ\], 99th|\[Intended-READ\], 99th" "$work/soak.out" || true
