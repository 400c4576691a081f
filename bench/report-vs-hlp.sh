#!/usr/bin/env bash
# loadgen report vs HdrHistogram's HistogramLogProcessor (HLP), wall clock, JVM start included (both are
# command-line tools), on a synthetic 1-hour, 1-second-interval, 6-tag loadgen interval log.
#
#   bench/report-vs-hlp.sh            # 3 repetitions, median
#   REPS=5 bench/report-vs-hlp.sh     # more repetitions
#   JAVA=/path/to/java bench/report-vs-hlp.sh
#
# Cases:
#   (a) one tag, files:   HLP -i LOG -o BASE -tag READ.intended   vs  loadgen report, same arguments
#   (b) all six tags:     HLP once per tag (six JVMs, as HLP needs) vs  loadgen report -i LOG -o BASE --all-tags
#   (c) one tag, stdout:  HLP -i LOG -tag READ.intended (no -o)  vs  loadgen report, same arguments
#   (d) memory:           HLP -i LOG -o BASE -tag READ.intended   vs  loadgen report -i LOG -o BASE --all-tags,
#                         with the launcher's JVM flags and with the JVM's defaults: peak RSS (GNU time's
#                         "Maximum resident set size"), wall clock and CPU seconds (user + system)
# Every case's outputs are compared byte for byte (cmp) before any timing counts. Ratio = HLP / loadgen:
# above 1 means loadgen report is faster. loadgen runs with the launcher's own java command line
# (LOADGEN_PRINT_COMMAND=1 ./loadgen report: its per-command JVM flags included), minus its staleness check.
#
# Environment: REPS (3), SECONDS_OF_LOG (3600), SEED (42), JAVA (java), HLP_JAR (the HdrHistogram jar in
# the local Maven repository), MVN_FLAGS (extra flags for the build, e.g. -o). Needs GNU time at /usr/bin/time.
# Runs from any directory; builds what is missing or stale with ./mvnw. Keep the machine otherwise idle.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

reps="${REPS:-3}"
log_seconds="${SECONDS_OF_LOG:-3600}"
seed="${SEED:-42}"
java="${JAVA:-java}"
work="bench/target/report-vs-hlp"
log="$work/synthetic-${log_seconds}s-seed${seed}.hlog"
tags=(READ.intended READ.service UPDATE.intended UPDATE.service INSERT.intended harness.lag)
one_tag=READ.intended

die() { echo "report-vs-hlp: $*" >&2; exit 1; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, got '$reps'"
[ -x /usr/bin/time ] || die "GNU time is needed at /usr/bin/time for peak RSS (Debian/Ubuntu: apt-get install time)"

# --- build (the CLI's shaded jar and the benchmarks jar), only when missing or older than the sources ---
cli_jar="loadgen-cli/target/loadgen.jar"
bench_jar="bench/target/benchmarks.jar"
stale() { # $1 = jar; stale when missing or any pom or main source is newer
  [ ! -f "$1" ] && return 0
  [ -n "$(find pom.xml ./*/pom.xml ./*/src/main -newer "$1" -print -quit 2>/dev/null)" ]
}
if stale "$cli_jar" || stale "$bench_jar"; then
  echo "building loadgen and the benchmarks jar (./mvnw -B -q -DskipTests package)..." >&2
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_FLAGS:-} -DskipTests package >&2 || die "the build failed; run ./mvnw -DskipTests package"
fi

hdr_version="$(sed -n 's:.*<hdrhistogram.version>\(.*\)</hdrhistogram.version>.*:\1:p' pom.xml | head -1)"
hlp_jar="${HLP_JAR:-$HOME/.m2/repository/org/hdrhistogram/HdrHistogram/$hdr_version/HdrHistogram-$hdr_version.jar}"
[ -f "$hlp_jar" ] || die "HdrHistogram jar not found at $hlp_jar (the build downloads it; or set HLP_JAR)"

# --- the log: generated once, cached; regenerated when the generator was rebuilt ---
mkdir -p "$work"
if [ ! -f "$log" ] || [ "$bench_jar" -nt "$log" ]; then
  echo "generating $log (${log_seconds} s x 6 tags, seed $seed)..." >&2
  "$java" -cp "$bench_jar" io.loadgen.bench.SyntheticIntervalLog "$log" "$log_seconds" "$seed"
fi

# --- the two command lines, exactly as run ---
java_version="$("$java" -version 2>&1 | head -1)"
major="$("$java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
hlp=("$java" -cp "$hlp_jar" org.HdrHistogram.HistogramLogProcessor)
# ./loadgen's own command line for report (its JVM flags included), minus its staleness check.
mapfile -t lg < <(JAVA="$java" LOADGEN_JAVA_OPTS="" LOADGEN_PRINT_COMMAND=1 ./loadgen report)
[ "${#lg[@]}" -gt 3 ] || die "./loadgen did not print its command line (LOADGEN_PRINT_COMMAND=1)"
# For (d) only: the same without the launcher's flags, i.e. the JVM's defaults (G1, a quarter of RAM as heap).
lg_defaults=("$java")
# As ./loadgen does: JDK 24+ would warn about sun.misc.Unsafe (JCTools, Netty) without this.
if [ -n "$major" ] && [ "$major" -ge 24 ] 2>/dev/null; then
  lg_defaults+=(--sun-misc-unsafe-memory-access=allow)
fi
lg_defaults+=(-cp "$cli_jar:lib/*" io.loadgen.cli.Main report)

out="$work/out"
run_hlp_one()    { "${hlp[@]}" -i "$log" -o "$out/hlp-a/x" -tag "$one_tag"; }
run_lg_one()     { "${lg[@]}" -i "$log" -o "$out/lg-a/x" -tag "$one_tag"; }
run_hlp_all()    { local t; for t in "${tags[@]}"; do "${hlp[@]}" -i "$log" -o "$out/hlp-b/y.$t" -tag "$t"; done; }
run_lg_all()     { "${lg[@]}" -i "$log" -o "$out/lg-b/y" --all-tags; }
run_hlp_stdout() { "${hlp[@]}" -i "$log" -tag "$one_tag" >"$out/hlp-c.hgrm"; }
run_lg_stdout()  { "${lg[@]}" -i "$log" -tag "$one_tag" >"$out/lg-c.hgrm"; }
# (d): GNU time appends "peak-RSS-KB wall-s user-s system-s" to $work/NAME.mem
mem() { local name="$1"; shift; /usr/bin/time -a -o "$work/$name.mem" -f "%M %e %U %S" "$@"; }
run_hlp_mem()    { mem hlp-d "${hlp[@]}" -i "$log" -o "$out/hlp-d/x" -tag "$one_tag"; }
run_lg_mem()     { mem lg-d "${lg[@]}" -i "$log" -o "$out/lg-d/y" --all-tags; }
run_lgdef_mem()  { mem lgdef-d "${lg_defaults[@]}" -i "$log" -o "$out/lgdef-d/y" --all-tags; }

fresh() { rm -rf "$out/$1"; mkdir -p "$out/$1"; }
now() { date +%s.%N; }
# time_run NAME FN: runs FN once from an empty output directory, appends the wall-clock seconds to $work/NAME.times
time_run() {
  local name="$1" fn="$2" t0 t1
  fresh "${name}"
  t0="$(now)"
  "$fn" 2>>"$work/stderr.log" || die "$fn failed; see $work/stderr.log"
  t1="$(now)"
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.3f\n", b - a }' >>"$work/$name.times"
}
median_of_stdin() { sort -g | awk '{ v[NR] = $1 } END { printf "%.2f", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
median() { median_of_stdin <"$work/$1.times"; }
all_times() { paste -sd' ' "$work/$1.times"; }

echo "== loadgen report vs HistogramLogProcessor"
echo "java:     $java_version ($(command -v "$java" || echo "$java"))"
echo "machine:  $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) before the runs"
echo "log:      $log ($(wc -c <"$log") bytes, $(grep -c '^Tag=' "$log") interval lines, tags ${tags[*]})"
echo "HLP:      $hlp_jar"
echo "commands:"
echo "  (a) HLP:     ${hlp[*]} -i $log -o $out/hlp-a/x -tag $one_tag"
echo "  (a) loadgen: ${lg[*]} -i $log -o $out/lg-a/x -tag $one_tag"
echo "  (b) HLP:     for t in ${tags[*]}; do ${hlp[*]} -i $log -o $out/hlp-b/y.\$t -tag \$t; done"
echo "  (b) loadgen: ${lg[*]} -i $log -o $out/lg-b/y --all-tags"
echo "  (c) HLP:     ${hlp[*]} -i $log -tag $one_tag > $out/hlp-c.hgrm"
echo "  (c) loadgen: ${lg[*]} -i $log -tag $one_tag > $out/lg-c.hgrm"
echo "  (d) HLP:     ${hlp[*]} -i $log -o $out/hlp-d/x -tag $one_tag"
echo "  (d) loadgen: ${lg[*]} -i $log -o $out/lg-d/y --all-tags"
echo "  (d) loadgen, JVM defaults: ${lg_defaults[*]} -i $log -o $out/lgdef-d/y --all-tags"

# Warm the page cache (log and jars) and check the outputs before any timing counts.
cat "$log" "$hlp_jar" "$cli_jar" >/dev/null
rm -f "$work"/*.times "$work"/*.mem "$work/stderr.log"
run_checked() { fresh "$1"; "$2" 2>>"$work/stderr.log" || die "$2 failed; see $work/stderr.log"; }
run_checked hlp-a run_hlp_one
run_checked lg-a run_lg_one
cmp "$out/hlp-a/x" "$out/lg-a/x" && cmp "$out/hlp-a/x.hgrm" "$out/lg-a/x.hgrm" \
  || die "(a) outputs differ: $out/hlp-a vs $out/lg-a"
run_checked hlp-b run_hlp_all
run_checked lg-b run_lg_all
for t in "${tags[@]}"; do
  cmp "$out/hlp-b/y.$t" "$out/lg-b/y.$t" && cmp "$out/hlp-b/y.$t.hgrm" "$out/lg-b/y.$t.hgrm" \
    || die "(b) outputs for $t differ: $out/hlp-b vs $out/lg-b"
done
run_hlp_stdout 2>>"$work/stderr.log"
run_lg_stdout 2>>"$work/stderr.log"
cmp "$out/hlp-c.hgrm" "$out/lg-c.hgrm" || die "(c) outputs differ"
echo "outputs:  byte-identical (cmp) for (a) x and x.hgrm, (b) all 6 tags' y.TAG and y.TAG.hgrm, (c) stdout"

# Timed runs: sequential, HLP and loadgen alternating within each repetition.
for ((r = 1; r <= reps; r++)); do
  echo "repetition $r/$reps..." >&2
  time_run hlp-a run_hlp_one
  time_run lg-a run_lg_one
  time_run hlp-b run_hlp_all
  time_run lg-b run_lg_all
  time_run hlp-c run_hlp_stdout
  time_run lg-c run_lg_stdout
  # (d) outputs equal (a)'s and (b)'s, already compared; the alternation keeps the load the same for all three.
  fresh hlp-d; run_hlp_mem 2>>"$work/stderr.log" || die "HLP (d) failed; see $work/stderr.log"
  fresh lg-d; run_lg_mem 2>>"$work/stderr.log" || die "loadgen (d) failed; see $work/stderr.log"
  fresh lgdef-d; run_lgdef_mem 2>>"$work/stderr.log" || die "loadgen (d, JVM defaults) failed; see $work/stderr.log"
done

echo
echo "wall-clock seconds, median of $reps (every run on the right); ratio = HLP / loadgen, > 1: loadgen faster"
printf '%-40s %8s %8s %8s   %s\n' "case" "HLP" "loadgen" "ratio" "runs HLP | loadgen"
row() {
  local label="$1" h l
  h="$(median "hlp-$2")"
  l="$(median "lg-$2")"
  printf '%-40s %8s %8s %8s   %s | %s\n' "$label" "$h" "$l" "$(awk -v h="$h" -v l="$l" 'BEGIN { printf "%.2f", h / l }')" \
    "$(all_times "hlp-$2")" "$(all_times "lg-$2")"
}
row "(a) -o x -tag $one_tag" a
row "(b) all 6 tags (HLP: 6 JVMs; --all-tags)" b
row "(c) -tag $one_tag, hgrm to stdout" c

# mem_median NAME EXPR: the median of an awk expression over $work/NAME.mem ($1 KB, $2 wall, $3 user, $4 system)
mem_median() { awk "{ print $2 }" "$work/$1.mem" | median_of_stdin; }
echo
echo "(d) memory and time, median of $reps: peak RSS (MB), wall clock and CPU (user + system) seconds"
printf '%-58s %10s %8s %8s   %s\n' "case" "peak RSS" "wall" "CPU" "peak RSS of each run (MB)"
mem_row() {
  printf '%-58s %7s MB %6s s %6s s   %s\n' "$1" "$(mem_median "$2" '$1 / 1024')" "$(mem_median "$2" '$2')" \
    "$(mem_median "$2" '$3 + $4')" \
    "$(awk '{ printf "%s%.0f", (NR > 1 ? " " : ""), $1 / 1024 }' "$work/$2.mem")"
}
mem_row "HLP -o x -tag $one_tag (one tag)" hlp-d
mem_row "loadgen report -o y --all-tags (./loadgen's JVM flags)" lg-d
mem_row "loadgen report -o y --all-tags (the JVM's defaults)" lgdef-d
echo "load average after the runs: $(cut -d' ' -f1-3 /proc/loadavg)"
