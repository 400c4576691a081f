#!/usr/bin/env bash
# What --trace costs each operation: the noop driver, unthrottled, OPS operations on THREADS threads (default
# 20,000,000 on 1), run REPS times without and with --trace FILE.csv.gz, alternating, and the medians compared:
#   - ns per operation: 1e9 / throughput_ops_per_sec of the JSON summary, without and with, and the difference;
#   - the worker thread's CPU per operation (loadgen-worker-0's utime + stime, read every 0.02 s from /proc while it
#     runs, so up to 0.02 s of it may be missed), which leaves out the time it was descheduled: its own cost;
#   - the trace's rows, rows dropped (the writer thread could not keep up and the worker's ring was full: counted,
#     never waited for), bytes per row written, and the writer thread's CPU per row written.
# Then the same trace written as plain CSV (a name without .gz) once, for the compression's share of the writer's CPU.
#
#   bench/trace-cost.sh                            # 20,000,000 ops, 1 thread, 3 repetitions
#   OPS=5000000 THREADS=2 REPS=5 bench/trace-cost.sh
#
# Unthrottled noop is the worst case: the harness's fastest loop (about 10 M ops/s a thread) against one writer
# thread formatting and deflating every row; rows dropped there say the writer's ceiling, not a fault. On 2 cores
# the writer also takes CPU the worker would have had: that is part of the cost measured. Keep the machine
# otherwise idle, or say it was not.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
. bench/lib/common.sh
ops="${OPS:-20000000}"
threads="${THREADS:-1}"
reps="${REPS:-3}"
work="bench/target/trace-cost"
mkdir -p "$work"
./loadgen --version >/dev/null # builds the jar once, outside the measurements

# One run; prints: ns/op rows dropped bytes writer_cpu_ms worker_cpu_ns/op (rows to writer "- - - -" without a
# trace). The launcher execs java, so $! is the JVM.
one() {
  local name="$1" trace="$2" json="$work/$1.json" pid cpu
  ./loadgen run --driver noop --threads "$threads" --operations "$ops" -q --json "$json" ${trace:+--trace "$trace"} \
    >"$work/$name.out" 2>&1 &
  pid=$!
  cpu="$(worker_cpu "$pid" 0.02)"
  wait "$pid" || { echo "trace-cost: the run $name failed: see $work/$name.out" >&2; exit 1; }
  python3 - "$json" "$cpu" "$ops" "$threads" <<'PY'
import json, sys
j = json.load(open(sys.argv[1]))
h = j["harness"]
ns = 1e9 / j["throughput_ops_per_sec"]
worker = float(sys.argv[2]) * 1e9 / (int(sys.argv[3]) / int(sys.argv[4]))  # worker 0's share of the operations
if "trace_rows" in h:
    print(f'{ns:.2f} {h["trace_rows"]} {h["trace_dropped_rows"]} {h["trace_bytes"]} {h.get("trace_writer_cpu_ms", -1)} {worker:.1f}')
else:
    print(f'{ns:.2f} - - - - {worker:.1f}')
PY
}

echo "trace-cost: $ops ops on $threads thread(s), $reps repetitions; load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2
: >"$work/off.txt"
: >"$work/on.txt"
for rep in $(seq "$reps"); do
  one "off-$rep" "" >>"$work/off.txt"
  one "on-$rep" "$work/trace-$rep.csv.gz" >>"$work/on.txt"
  echo "  repetition $rep: without $(tail -1 "$work/off.txt" | cut -d' ' -f1,6) ns/op (wall, worker CPU), with" \
    "$(tail -1 "$work/on.txt" | cut -d' ' -f1,6)" >&2
done
plain="$(one plain "$work/trace-plain.csv")"
echo "trace-cost: load average after: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

off="$(cut -d' ' -f1 "$work/off.txt" | median)"
on="$(cut -d' ' -f1 "$work/on.txt" | median)"
off_cpu="$(cut -d' ' -f6 "$work/off.txt" | median)"
on_cpu="$(cut -d' ' -f6 "$work/on.txt" | median)"
# Per-row figures of each traced run, then their medians.
awk '{ printf "%s %s %s %s\n", $3 / ($2 + $3), $4 / $2, $5 * 1e6 / $2, $2 }' "$work/on.txt" >"$work/on-rows.txt"
dropped="$(cut -d' ' -f1 "$work/on-rows.txt" | median)"
bytes="$(cut -d' ' -f2 "$work/on-rows.txt" | median)"
cpu="$(cut -d' ' -f3 "$work/on-rows.txt" | median)"
read -r _ prows _ pbytes pcpu _ <<<"$plain"
printf '| ops | threads | ns/op without | ns/op with --trace | cost per op | worker CPU/op without | with | worker cost per op | rows dropped | bytes per row (.csv.gz) | writer CPU per row (.csv.gz) | bytes per row (.csv) | writer CPU per row (.csv) |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|---|\n'
awk -v ops="$ops" -v t="$threads" -v off="$off" -v on="$on" -v offc="$off_cpu" -v onc="$on_cpu" -v d="$dropped" \
    -v b="$bytes" -v c="$cpu" -v prows="$prows" -v pbytes="$pbytes" -v pcpu="$pcpu" 'BEGIN {
  printf "| %d | %d | %.1f | %.1f | %+.1f ns | %.1f | %.1f | %+.1f ns | %.1f %% | %.2f | %.0f ns | %.2f | %.0f ns |\n",
    ops, t, off, on, on - off, offc, onc, onc - offc, d * 100, b, c, pbytes / prows, pcpu * 1e6 / prows }'
