#!/usr/bin/env bash
# loadgen vs YCSB on a YCSB workload, both against a store that does nothing, so what is measured is each
# tool's own cost per operation: choosing the operation and its key, timing it, recording it.
#
#   bench/ycsb-vs-loadgen.sh                  # workloada, 1 and 2 threads, 20,000,000 ops, 3 repetitions, medians
#   THREADS="1" REPS=5 bench/ycsb-vs-loadgen.sh
#   WORKLOAD=workloads/workloadb OPS=10000000 bench/ycsb-vs-loadgen.sh
#
# YCSB:    java -cp ycsb/lib/* site.ycsb.Client -t -db site.ycsb.BasicDB -P WORKLOAD
#            -p basicdb.verbose=false -p operationcount=OPS -threads T
#          (YCSB core's own no-op store; verbose=false keeps it from printing every operation)
# loadgen: java -cp loadgen.jar io.loadgen.cli.Main run -P WORKLOAD --driver noop --operations OPS --threads T -q
# Both unthrottled, same workload file, same total operation count, same threads, same java; the two
# alternate within each repetition. Each tool's throughput is its own "[OVERALL], Throughput(ops/sec)"
# line. Worker CPU is the user + system time of the tool's T busiest threads (its workers), per operation:
# the A/B figure that holds on a shared machine, where wall-clock rates depend on who else runs. Process
# CPU is the whole JVM's (start, JIT and GC included). Ratios are medians of each repetition's pair:
# throughput loadgen / YCSB, CPU YCSB / loadgen, so above 1 means loadgen is cheaper.
#
# YCSB's core is its newest master, built from source: YCSB publishes no release after 0.17.0 (2019), and
# master's core differs from it. The script compiles core/src/main/java of a YCSB checkout with javac
# against master's own core dependencies (htrace-core4, jackson-*-asl 1.9.4, HdrHistogram 2.1.12, fetched
# once with ./mvnw into bench/target/ycsb/lib); nothing of YCSB enters this repository.
#   YCSB_SRC=DIR  a YCSB checkout (git clone https://github.com/brianfrankcooper/YCSB DIR); when unset the
#                 script clones it into bench/target/ycsb/src (needs network once)
#   YCSB_VERSION=0.17.0  instead take that release's core from Maven Central, as earlier tables did
# Environment: THREADS ("1 2"), OPS (20000000), REPS (3), WORKLOAD (workloads/workloada), JAVA (java),
# MVN_FLAGS (extra flags for ./mvnw, e.g. -o).
# Keep the machine otherwise idle: both tools are measured by wall-clock throughput.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

threads_list="${THREADS:-1 2}"
ops="${OPS:-20000000}"
reps="${REPS:-3}"
workload="${WORKLOAD:-workloads/workloada}"
java="${JAVA:-java}"
ycsb_version="${YCSB_VERSION:-master}"
work="bench/target/ycsb"

die() { echo "ycsb-vs-loadgen: $*" >&2; exit 1; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, got '$reps'"
[[ "$ops" =~ ^[1-9][0-9]*$ ]] || die "OPS must be a positive integer, got '$ops'"
[ -f "$workload" ] || die "no workload file $workload (set WORKLOAD)"

# --- loadgen's jar, built when missing or older than the sources ---
cli_jar="loadgen-cli/target/loadgen.jar"
if [ ! -f "$cli_jar" ] || [ -n "$(find pom.xml ./*/pom.xml ./*/src/main -newer "$cli_jar" -print -quit 2>/dev/null)" ]; then
  echo "building loadgen (./mvnw -B -q -DskipTests package)..." >&2
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_FLAGS:-} -DskipTests package >&2 || die "the build failed; run ./mvnw -DskipTests package"
fi

# --- YCSB's core and its dependencies ---
mkdir -p "$work"
fetch_deps() { # $1 = the <dependencies> body; copies them into $work/lib
  cat >"$work/pom.xml" <<EOF
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>io.loadgen.bench</groupId>
  <artifactId>ycsb-core-fetch</artifactId>
  <version>1</version>
  <packaging>pom</packaging>
  <dependencies>$1</dependencies>
</project>
EOF
  rm -rf "$work/lib"
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_FLAGS:-} -f "$work/pom.xml" dependency:copy-dependencies -DoutputDirectory=lib >&2 \
    || die "could not fetch YCSB's dependencies (network? set MVN_FLAGS=-o only once they are cached)"
}
dep() { echo "<dependency><groupId>$1</groupId><artifactId>$2</artifactId><version>$3</version></dependency>"; }
if [ "$ycsb_version" = master ]; then
  src="${YCSB_SRC:-$work/src}"
  if [ ! -d "$src/core/src/main/java" ]; then
    [ -z "${YCSB_SRC:-}" ] || die "YCSB_SRC=$src has no core/src/main/java; point it at a YCSB checkout"
    echo "cloning YCSB into $src..." >&2
    git clone -q --depth 1 https://github.com/brianfrankcooper/YCSB "$src" \
      || die "could not clone YCSB; clone it yourself and set YCSB_SRC=DIR"
  fi
  commit="$(git -C "$src" rev-parse --short HEAD 2>/dev/null || echo unknown)"
  ycsb_version="master@$commit"
  jar="$work/lib/core-$ycsb_version.jar"
  if [ ! -f "$jar" ]; then
    echo "building YCSB core $ycsb_version from $src..." >&2
    fetch_deps "$(dep org.apache.htrace htrace-core4 4.1.0-incubating)$(dep org.codehaus.jackson jackson-mapper-asl 1.9.4)$(dep org.codehaus.jackson jackson-core-asl 1.9.4)$(dep org.hdrhistogram HdrHistogram 2.1.12)"
    rm -rf "$work/classes" && mkdir -p "$work/classes"
    find "$src/core/src/main/java" -name '*.java' >"$work/sources.txt"
    javac -nowarn -encoding UTF-8 --release 8 -cp "$work/lib/*" -d "$work/classes" @"$work/sources.txt" 2>"$work/javac.log" \
      || die "YCSB's core did not compile; see $work/javac.log"
    echo "version=0.18.0-SNAPSHOT" >"$work/classes/project.properties"
    jar cf "$jar" -C "$work/classes" .
  fi
elif [ ! -f "$work/lib/core-$ycsb_version.jar" ]; then
  echo "fetching site.ycsb:core:$ycsb_version and its dependencies into $work/lib..." >&2
  fetch_deps "$(dep site.ycsb core "$ycsb_version")"
fi

major="$("$java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)"
lg_opts=()
# As ./loadgen does: JDK 24+ would warn about sun.misc.Unsafe (JCTools, Netty) without this.
if [ -n "$major" ] && [ "$major" -ge 24 ] 2>/dev/null; then
  lg_opts+=(--sun-misc-unsafe-memory-access=allow)
fi

# Polls a process's threads until it exits and prints the CPU seconds (user + system) of its T busiest
# threads: the worker threads of either tool, whatever else the JVM runs. One awk reads every thread's
# stat each 0.05 s, so the polling itself stays light; a thread's last 0.05 s may be missed.
busiest_threads_cpu() { # $1 = pid, $2 = T
  local pid="$1" top="$2" tick snapshot="$work/threads.$1"
  tick="$(getconf CLK_TCK)"
  : >"$snapshot"
  while kill -0 "$pid" 2>/dev/null; do
    # Fields after the ")" that closes the thread name: utime is the 12th, stime the 13th.
    awk '{ sub(/^.*\) /, ""); split($0, f, " "); split(FILENAME, p, "/"); print p[5], f[12] + f[13] }' \
      /proc/"$pid"/task/*/stat 2>/dev/null >>"$snapshot" || true
    sleep 0.05
  done
  awk '{ last[$1] = $2 } END { for (t in last) print last[t] }' "$snapshot" | sort -rn | head -n "$top" \
    | awk -v t="$tick" '{ s += $1 } END { printf "%.2f\n", s / t }'
  rm -f "$snapshot"
}

# Runs one tool; prints "THROUGHPUT PROCESS_CPU_SECONDS WORKER_CPU_SECONDS". Its output is kept in
# $work/last-<tool>.txt.
run_one() { # $1 = ycsb|loadgen, $2 = threads
  local out="$work/last-$1.txt" cpu tput pid workers
  local TIMEFORMAT='%U %S'
  local cmd
  if [ "$1" = ycsb ]; then
    cmd=("$java" -cp "$work/lib/*" site.ycsb.Client -t -db site.ycsb.BasicDB -P "$workload"
      -p basicdb.verbose=false -p operationcount="$ops" -threads "$2")
  else
    cmd=("$java" ${lg_opts[@]+"${lg_opts[@]}"} -cp "$cli_jar" io.loadgen.cli.Main run -P "$workload"
      --driver noop --operations "$ops" --threads "$2" --duration 3600s -q)
  fi
  cpu="$( { time { "${cmd[@]}" >"$out" 2>&1 & pid=$!; busiest_threads_cpu "$pid" "$2" >"$out.workers"; wait "$pid"; }; } 2>&1 )"
  workers="$(cat "$out.workers")"
  tput="$(sed -n 's/^\[OVERALL\], Throughput(ops\/sec), *\([0-9.Ee+]*\).*/\1/p' "$out" | head -1)"
  [ -n "$tput" ] || die "$1 printed no [OVERALL] throughput; see $out"
  awk -v t="$tput" -v c="$cpu" -v w="$workers" 'BEGIN { split(c, a, " "); printf "%.0f %.2f %.2f\n", t, a[1] + a[2], w }'
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }

echo "$("$java" -version 2>&1 | head -1); $workload; $ops operations; $reps repetitions; YCSB $ycsb_version" >&2
printf '| threads | YCSB ops/s | loadgen ops/s | ratio | YCSB worker CPU ns/op | loadgen worker CPU ns/op | CPU ratio | YCSB process CPU ns/op | loadgen process CPU ns/op |\n'
printf '|---|---|---|---|---|---|---|---|---|\n'
for t in $threads_list; do
  ratios=(); y_tput=(); l_tput=(); y_w=(); l_w=(); w_ratios=(); y_cpu=(); l_cpu=()
  for ((r = 1; r <= reps; r++)); do
    read -r yt yc yw < <(run_one ycsb "$t")
    read -r lt lc lw < <(run_one loadgen "$t")
    echo "threads $t rep $r: YCSB $yt ops/s (process $yc s CPU, workers $yw s), loadgen $lt ops/s (process $lc s, workers $lw s)" >&2
    y_tput+=("$yt"); l_tput+=("$lt"); y_w+=("$yw"); l_w+=("$lw"); y_cpu+=("$yc"); l_cpu+=("$lc")
    ratios+=("$(awk -v y="$yt" -v l="$lt" 'BEGIN { print l / y }')")
    w_ratios+=("$(awk -v y="$yw" -v l="$lw" 'BEGIN { print (l > 0) ? y / l : 0 }')")
  done
  # Medians; the ratios are the medians of each repetition's pair (the two ran back to back).
  awk -v t="$t" -v n="$ops" -v y="$(printf '%s\n' "${y_tput[@]}" | median)" -v l="$(printf '%s\n' "${l_tput[@]}" | median)" \
    -v r="$(printf '%s\n' "${ratios[@]}" | median)" -v yw="$(printf '%s\n' "${y_w[@]}" | median)" \
    -v lw="$(printf '%s\n' "${l_w[@]}" | median)" -v wr="$(printf '%s\n' "${w_ratios[@]}" | median)" \
    -v yc="$(printf '%s\n' "${y_cpu[@]}" | median)" -v lc="$(printf '%s\n' "${l_cpu[@]}" | median)" 'BEGIN {
    printf "| %s | %.0f | %.0f | %.2f | %.0f | %.0f | %.2f | %.0f | %.0f |\n", t, y, l, r, yw * 1e9 / n, lw * 1e9 / n, wr, yc * 1e9 / n, lc * 1e9 / n }'
done
