#!/usr/bin/env bash
# loadgen's redis driver vs redis-benchmark (the C client that ships with Redis), side by side in one run,
# against a redis-server this script starts on a free loopback port (never the shared 6379).
#
#   bench/redis-vs-benchmark.sh             # 3 alternating repetitions per case, median
#   REPS=5 SECONDS_PER_RUN=8 bench/redis-vs-benchmark.sh
#
# The same command on the same loaded key: YCSB's workloadc record (HGETALL of 10 fields x 100 bytes), 10,000
# records loaded with 'loadgen load'. redis-benchmark runs 'hgetall KEY' on record 0; loadgen runs workloadc
# with -p recordcount=1, so every READ is HGETALL of that same record, and the server does the same work for
# both (RUN_RECORDS=10000 spreads loadgen's reads over every record, zipfian, as workloadc does: then Redis
# itself is slower per command, its hash table and the values no longer in cache, and with 8 x 16 in flight
# Redis, not the client, sets the pace). Equal concurrency in every case:
#   c1      redis-benchmark -c 1               vs  loadgen --threads 1 (one op in flight, the default)
#   c8      redis-benchmark -c 8               vs  loadgen --threads 8
#   c8xP16  redis-benchmark -c 8 -P 16         vs  loadgen --threads 8 --max-in-flight 16
# loadgen runs unthrottled (as redis-benchmark does) for WARMUP_SECONDS + SECONDS_PER_RUN, with the first
# WARMUP_SECONDS left out (--warmup; its JIT is cold, the C client's is not); its throughput and service
# p99 come from its JSON summary. redis-benchmark gets a request count that takes about SECONDS_PER_RUN.
# Why 8 s of warm-up: on a 2-core machine the JVM's one C2 compiler thread is still compiling Netty's and
# loadgen's hot path 4-6 s after the JVM starts (-XX:+PrintCompilation), and between 4.5 and 11.5 s it took
# 0.7-1.7 s of CPU from the cores redis-server and the event loop share; between 8 and 15 s, 0.06-0.19 s.
# With 3 s the measured window was partly loadgen's JIT, not its steady state.
# Equal threads too: redis-benchmark runs one event-loop thread (its default), so loadgen's connections
# share one event loop (-p redis.iothreads=1; LOADGEN_IO_THREADS=0 gives the driver's default, one per
# core).
# Ratio = loadgen / redis-benchmark throughput: 1.0 or more means loadgen is at least as fast. p99 columns
# are each tool's own p99 (redis-benchmark: its latency histogram; loadgen: the service view, which like
# redis-benchmark's is measured from the actual send).
# A blocking client runs too, where one can (c1, c8): io.loadgen.bench.BlockingRedisClient, one thread and one
# Jedis connection per client, each sending HGETALL of the same key and waiting for the reply, every call
# timed into an HdrHistogram, as YCSB's redis binding (Jedis) does. Its p99 is the one loadgen's service p99
# is held against ("no worse than a blocking client's"); it runs the same warm-up and measured seconds.
#
# Environment: REPS (3), SECONDS_PER_RUN (8), WARMUP_SECONDS (8), RECORDS (10000), RUN_RECORDS (1),
# LOADGEN_IO_THREADS (1), MVN_FLAGS (extra flags for ./mvnw when the bench jar is built, e.g. -o),
# CASES ("c1 c8 c8xP16": which rows to run),
# REDIS_SERVER (redis-server), REDIS_BENCHMARK (redis-benchmark), JAVA (java).
# Needs redis-server and redis-benchmark (Debian: redis-server, redis-tools). Keep the machine otherwise idle.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
reps="${REPS:-3}"
secs="${SECONDS_PER_RUN:-8}"
warm="${WARMUP_SECONDS:-8}"
records="${RECORDS:-10000}"
rb="${REDIS_BENCHMARK:-redis-benchmark}"
work="bench/target/redis-vs-benchmark"
mkdir -p "$work"

die() { echo "redis-vs-benchmark: $*" >&2; exit 1; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, got '$reps'"
command -v "$rb" >/dev/null || die "no $rb: apt-get install redis-tools"

bench_jar="bench/target/benchmarks.jar"
if [ ! -f "$bench_jar" ] || [ -n "$(find pom.xml bench/pom.xml bench/src loadgen-core/src/main -newer "$bench_jar" -print -quit 2>/dev/null)" ]; then
  echo "building the bench jar (./mvnw -B -q -pl bench -am -DskipTests package)..." >&2
  # shellcheck disable=SC2086
  ./mvnw -B -q ${MVN_FLAGS:-} -pl bench -am -DskipTests package >&2 || die "the bench build failed"
fi

# shellcheck source=lib/redis-server.sh
. bench/lib/redis-server.sh
start_redis "$work"
./loadgen load -P workloads/workloadc --driver redis -p "recordcount=$records" -p "redis.uri=$uri" \
  --threads 4 --max-in-flight 16 -q >/dev/null
# The one key both tools read: record 0 of the loaded records. loadgen reads it with -p recordcount=1 (its
# chooser then always draws key number 0, hashed as the load hashed it); its name comes from loading that one
# record into an empty database (db 1) and asking Redis for the only record there (the other key is the index).
./loadgen load -P workloads/workloadc --driver redis -p recordcount=1 -p "redis.uri=$uri/1" -q >/dev/null
key="$(redis-cli -p "$port" -n 1 --scan --pattern "user*" | head -1)"
redis-cli -p "$port" -n 1 flushdb >/dev/null
[[ "$key" == user* ]] || die "no record was loaded"
[ "$(redis-cli -p "$port" exists "$key")" = "1" ] || die "record 0 ($key) is not among the loaded records"
run_records="${RUN_RECORDS:-1}"

io_prop=(-p "redis.iothreads=${LOADGEN_IO_THREADS:-1}")

# $1 clients, $2 pipeline depth, $3 requests: prints "ops_per_sec p99_us"
run_rb() {
  "$rb" -p "$port" -c "$1" -P "$2" -n "$3" --csv hgetall "$key" 2>/dev/null | tail -1 \
    | awk -F'","' '{gsub(/"/,"",$2); gsub(/"/,"",$7); printf "%.0f %.0f\n", $2, $7*1000}'
}
# $1 clients: prints "ops_per_sec p99_us" of the blocking client
run_bc() {
  "${JAVA:-java}" -cp "$bench_jar" io.loadgen.bench.BlockingRedisClient 127.0.0.1 "$port" "$key" "$1" "$secs" "$warm" \
    | awk '{print $1, $3}'
}
# $1 threads, $2 in flight per thread: prints "ops_per_sec p99_us"
run_lg() {
  local json="$work/loadgen-$1x$2.json"
  ./loadgen run -P workloads/workloadc --driver redis -p "recordcount=$run_records" -p operationcount=0 -p "redis.uri=$uri" \
    "${io_prop[@]}" \
    --threads "$1" --max-in-flight "$2" --duration "$((secs + warm))s" --warmup "${warm}s" -q --json "$json" \
    >"$work/loadgen-$1x$2.out" 2>&1 || die "loadgen failed: see $work/loadgen-$1x$2.out"
  python3 - "$json" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
print("%.0f %.0f" % (j["throughput_ops_per_sec"], j["operations"]["READ"]["service"]["p99_us"]))
EOF
}

printf '| case | redis-benchmark ops/s | loadgen ops/s | ratio | blocking client ops/s | redis-benchmark p99 (us) | blocking client p99 (us) | loadgen service p99 (us) |\n'
printf '|---|---|---|---|---|---|---|---|\n'
for spec in "c1 1 1" "c8 8 1" "c8xP16 8 16"; do
  read -r name clients depth <<<"$spec"
  [[ " ${CASES:-c1 c8 c8xP16} " == *" $name "* ]] || continue
  : >"$work/$name.rb"; : >"$work/$name.lg"; : >"$work/$name.bc"
  for rep in $(seq "$reps"); do
    # about SECONDS_PER_RUN of requests at the rate the last repetition saw (or a first guess)
    guess=$(( clients * depth * 4000 ))
    last="$(tail -1 "$work/$name.rb" 2>/dev/null | cut -d' ' -f1)"
    n=$(( ${last:-$guess} * secs ))
    # The order alternates (odd repetitions redis-benchmark first, even ones loadgen first), so that neither
    # tool always runs on a machine the other has just warmed or disturbed.
    if (( rep % 2 == 1 )); then order="rb bc lg"; else order="lg bc rb"; fi
    for tool in $order; do
      case "$tool" in
        rb) run_rb "$clients" "$depth" "$n" >>"$work/$name.rb" ;;
        bc) if [ "$depth" = 1 ]; then run_bc "$clients" >>"$work/$name.bc"; fi ;;
        lg) run_lg "$clients" "$depth" >>"$work/$name.lg" ;;
      esac
    done
  done
  rb_ops="$(cut -d' ' -f1 "$work/$name.rb" | median)"
  lg_ops="$(cut -d' ' -f1 "$work/$name.lg" | median)"
  rb_p99="$(cut -d' ' -f2 "$work/$name.rb" | median)"
  lg_p99="$(cut -d' ' -f2 "$work/$name.lg" | median)"
  if [ -s "$work/$name.bc" ]; then
    bc_ops="$(cut -d' ' -f1 "$work/$name.bc" | median | xargs printf '%.0f')"
    bc_p99="$(cut -d' ' -f2 "$work/$name.bc" | median | xargs printf '%.0f')"
  else
    bc_ops="-"; bc_p99="- (cannot pipeline)"
  fi
  printf '| %s | %.0f | %.0f | %.2f | %s | %.0f | %s | %.0f |\n' "$name" "$rb_ops" "$lg_ops" \
    "$(python3 -c "print($lg_ops / $rb_ops)")" "$bc_ops" "$rb_p99" "$bc_p99" "$lg_p99"
done
