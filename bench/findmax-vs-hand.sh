#!/usr/bin/env bash
# loadgen findmax vs the same bisection run by hand, wall clock, JVM starts included.
#
#   bench/findmax-vs-hand.sh                     # mockdb of capacity 2730 ops/s, p99 < 10ms, from 2000
#   CAPACITY=5000 FROM=1000 bench/findmax-vs-hand.sh
#
# First runs one findmax search against an in-process mockdb of known capacity (mockdb.capacity: one server, a
# fixed service time 1/C, in arrival order) and keeps its JSON. Then runs the very same rates by hand, as a user
# bisecting with wrk2 -R would: one './loadgen run --target R -d L --warmup W' per step, in the same order, L the
# measured length findmax's step took (so the hand run measures as long as findmax did), W the same warm-up. Prints
# both wall times and their ratio (findmax / hand; the budget is 1.5): findmax's extra is its judging (a bootstrap
# per objective per step) and its steps' opening of the driver, against the hand runs' JVM starts.
#
# Environment: CAPACITY (2730), FROM (2000), SLO ('p99 < 10ms'), THREADS (4), MIN_STEP (5s), MAX_STEP (30s),
# WARMUP (1s), SEED (7). Needs jq. Runs from any directory; builds with ./mvnw when the launcher's jars are missing.
# Keep the machine otherwise idle: a stall of the machine fails a step and changes the search.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
command -v jq >/dev/null || { echo "findmax-vs-hand: jq is needed" >&2; exit 1; }

capacity="${CAPACITY:-2730}"
from="${FROM:-2000}"
slo="${SLO:-p99 < 10ms}"
threads="${THREADS:-4}"
min_step="${MIN_STEP:-5s}"
max_step="${MAX_STEP:-30s}"
warmup="${WARMUP:-1s}"
seed="${SEED:-7}"
work="bench/target/findmax-vs-hand"
mkdir -p "$work"

[ -f loadgen-cli/target/loadgen.jar ] || ./mvnw -B -q -o -pl loadgen-cli -am -DskipTests package >&2

common=(--driver mockdb -p "mockdb.capacity=$capacity" --threads "$threads" --wait park --seed "$seed" -q)

start=$(date +%s.%N)
./loadgen findmax "${common[@]}" --slo "$slo" --from "$from" --min-step "$min_step" --max-step "$max_step" \
  --warmup "$warmup" --json "$work/findmax.json" >"$work/findmax.txt" 2>"$work/findmax.err" || true
end=$(date +%s.%N)
findmax_s=$(echo "$end - $start" | bc -l)
cat "$work/findmax.txt"

mapfile -t steps < <(jq -r '.steps[] | "\(.offered_ops_per_sec) \(.length_s)"' "$work/findmax.json")
warmup_s=$(echo "$warmup" | sed 's/s$//')
start=$(date +%s.%N)
for step in "${steps[@]}"; do
  read -r rate length <<<"$step"
  # the step's measured length plus its warm-up, to the millisecond
  ms=$(printf '%.0f' "$(echo "($length + $warmup_s) * 1000" | bc -l)")
  ./loadgen run "${common[@]}" --target "$rate" -d "${ms}ms" --warmup "$warmup" >/dev/null 2>&1 || true
done
end=$(date +%s.%N)
hand_s=$(echo "$end - $start" | bc -l)

printf '\nfindmax-vs-hand: capacity %s ops/s, %d steps\n' "$capacity" "${#steps[@]}"
printf '  findmax            %7.1f s (answer %s ops/s)\n' "$findmax_s" "$(jq -r '.rate_ops_per_sec' "$work/findmax.json")"
printf '  the same by hand   %7.1f s (%d x ./loadgen run)\n' "$hand_s" "${#steps[@]}"
printf '  ratio              %7.2f (findmax / hand; budget 1.5)\n' "$(echo "$findmax_s / $hand_s" | bc -l)"
