#!/usr/bin/env bash
# How long the HTML latency explorer takes to open a 1-hour log: a synthetic 1-hour, 1-second-interval, 6-tag
# loadgen interval log (SyntheticIntervalLog: READ 2,000/s, UPDATE 1,500/s, INSERT 1,000/s), written as a page
# with 'loadgen plot --html', opened in headless chromium. The page stamps <body data-ready-ms> with
# performance.now() once its charts, distribution and tables are drawn: from the start of the navigation (the
# browser reading the file included) to the whole page shown. Its intervals are decoded after that (a window
# chosen later is then quick; <body data-intervals-ms>); the page sets data-ready once they are, and checked
# against Java's sums. Under --virtual-time-budget, as the browser tests run; the figures are performance.now()'s.
#
#   bench/explorer-open.sh            # 5 loads, each figure and the median
#   REPS=9 SECONDS_OF_LOG=600 bench/explorer-open.sh
#
# Environment: REPS (5), SECONDS_OF_LOG (3600), SEED (42), JAVA (java), CHROMIUM (chromium), MVN_FLAGS (extra
# flags for the build, e.g. -o). Builds what is missing with ./mvnw. Keep the machine otherwise idle.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

reps="${REPS:-5}"
log_seconds="${SECONDS_OF_LOG:-3600}"
seed="${SEED:-42}"
java="${JAVA:-java}"
chromium="${CHROMIUM:-chromium}"
work="bench/target/explorer-open"
log="$work/synthetic-${log_seconds}s-seed${seed}.hlog"
page="$work/synthetic-${log_seconds}s-seed${seed}.html"

die() { echo "explorer-open: $*" >&2; exit 1; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, got '$reps'"
command -v "$chromium" >/dev/null || die "no $chromium on the PATH (Debian: apt-get install chromium)"

if [ ! -f bench/target/benchmarks.jar ] || [ ! -f loadgen-cli/target/loadgen.jar ]; then
  echo "building loadgen and the benchmarks jar (./mvnw -B -q -DskipTests package)..." >&2
  ./mvnw -B -q ${MVN_FLAGS:-} -DskipTests package >&2 || die "the build failed; run ./mvnw -DskipTests package"
fi
mkdir -p "$work"
[ -f "$log" ] || "$java" -cp bench/target/benchmarks.jar io.loadgen.bench.SyntheticIntervalLog "$log" "$log_seconds" "$seed" >&2
./loadgen plot --html "$page" "$log" >/dev/null
echo "page: $page, $(stat -c %s "$page") bytes, from $log_seconds intervals x 6 tags"

profile="$(mktemp -d)"
trap 'rm -rf "$profile"' EXIT
figures=()
for ((i = 1; i <= reps; i++)); do
  dom="$("$chromium" --headless --no-sandbox --disable-gpu --no-first-run --disable-background-networking \
    --user-data-dir="$profile" --virtual-time-budget=30000 --dump-dom "file://$root/$page" 2>/dev/null)"
  ms="$(grep -o 'data-ready-ms="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')" || die "the page did not say when it was drawn"
  grep -q 'data-ready="true"' <<<"$dom" || die "the page did not finish decoding its intervals"
  grep -q '<pre id="errors" hidden=""></pre>' <<<"$dom" || die "the page reported an error: $(grep -o '<pre id="errors"[^<]*' <<<"$dom")"
  all="$(grep -o 'data-intervals-ms="[0-9]*"' <<<"$dom" | grep -o '[0-9]*')"
  echo "load $i: drawn after $ms ms; every interval inflated, decoded and checked after $all ms"
  figures+=("$ms")
done
median="$(printf '%s\n' "${figures[@]}" | sort -n | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}')"
echo "median: $median ms to open ($reps loads; $(nproc) cores, load average $(cut -d' ' -f1 /proc/loadavg))"
