#!/usr/bin/env bash
# loadgen's memcached driver vs memtier_benchmark (RedisLabs' C client, --protocol=memcache_text), side by side in
# one run, against a memcached this script starts on a free loopback port (never the shared 11211).
#
#   bench/memcached-vs-memtier.sh              # 9 alternating pairs of runs per case (about 20 minutes)
#   REPS=15 CASES="get-c1 set-c1" bench/memcached-vs-memtier.sh
#
# The same request on the same item, at equal concurrency, one I/O thread each:
#   get-c1   memtier -t 1 -c 1 --ratio=0:1    vs  loadgen --threads 1          (workloadc: READ = get)
#   get-c8   memtier -t 1 -c 8 --ratio=0:1    vs  loadgen --threads 1 -c 8     (8 connections, one in flight each)
#   set-c1   memtier -t 1 -c 1 --ratio=1:0    vs  loadgen --threads 1          (UPDATE = set of the whole record)
#   set-c8   memtier -t 1 -c 8 --ratio=1:0    vs  loadgen --threads 1 -c 8
# The item: YCSB's workloadc record (10 fields x 100 bytes: a 1000-byte value), loaded by 'loadgen load' with
# recordcount=1, so loadgen's every READ and UPDATE is of that one key (key number 0, hashed as YCSB hashes it);
# memtier gets the same key (--key-prefix=user --key-minimum=N --key-maximum=N) and sets 1000-byte values
# (--data-size=1000). loadgen runs unthrottled, as memtier does, for WARMUP_SECONDS + SECONDS_PER_RUN with the
# first WARMUP_SECONDS left out (--warmup: its JIT is cold, the C client's is not; 8 s, for the reason
# bench/redis-vs-benchmark.sh gives); memtier runs SECONDS_PER_RUN
# (--test-time). Throughput and p99 come from each tool's JSON: memtier's ALL STATS (its latency is from send to
# reply), loadgen's service view (also from the actual send). Ratio = loadgen / memtier throughput.
#
# memtier_benchmark is not a Debian package. The script uses MEMTIER (a binary) if given, else memtier_benchmark
# on the PATH, else builds it once, outside the repository, in ${MEMTIER_HOME:-$HOME/.cache/loadgen/memtier}:
#   git clone https://github.com/RedisLabs/memtier_benchmark   (or MEMTIER_SRC=a checkout you already have)
#   autoreconf -ivf && ./configure --disable-tls && make
# which needs (Debian) build-essential autoconf automake libtool pkg-config libevent-dev zlib1g-dev. When it can
# neither find nor fetch the sources, it says so and exits 2.
#
# Environment: REPS (9), SECONDS_PER_RUN (8), WARMUP_SECONDS (8), CASES ("get-c1 get-c8 set-c1 set-c8"),
# MEMTIER, MEMTIER_SRC, MEMTIER_HOME, MEMCACHED (memcached). Needs memcached (Debian: memcached) and python3.
# Keep the machine otherwise idle.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
reps="${REPS:-9}"
secs="${SECONDS_PER_RUN:-8}"
warm="${WARMUP_SECONDS:-8}"
work="bench/target/memcached-vs-memtier"
mkdir -p "$work"

die() { echo "memcached-vs-memtier: $*" >&2; exit 1; }
[[ "$reps" =~ ^[1-9][0-9]*$ ]] || die "REPS must be a positive integer, got '$reps'"
mc="${MEMCACHED:-memcached}"
command -v "$mc" >/dev/null || die "no $mc: apt-get install memcached"

# shellcheck source=lib/common.sh
. bench/lib/common.sh

# --- memtier_benchmark: given, on the PATH, or built once outside the repository ---
memtier="${MEMTIER:-}"
if [ -z "$memtier" ] && command -v memtier_benchmark >/dev/null; then
  memtier="$(command -v memtier_benchmark)"
fi
if [ -z "$memtier" ]; then
  home="${MEMTIER_HOME:-$HOME/.cache/loadgen/memtier}"
  memtier="$home/memtier_benchmark/memtier_benchmark"
  if [ ! -x "$memtier" ]; then
    mkdir -p "$home"
    if [ ! -f "$home/memtier_benchmark/configure.ac" ]; then
      src="${MEMTIER_SRC:-https://github.com/RedisLabs/memtier_benchmark}"
      echo "fetching memtier_benchmark from $src into $home ..." >&2
      if ! git clone -q "$src" "$home/memtier_benchmark" >&2; then
        echo "memcached-vs-memtier: cannot fetch memtier_benchmark from $src (no network?); give MEMTIER=/path/to/memtier_benchmark or MEMTIER_SRC=/path/to/a/checkout" >&2
        exit 2
      fi
    fi
    for tool in autoreconf make pkg-config g++; do
      command -v "$tool" >/dev/null || die "building memtier_benchmark needs $tool: apt-get install build-essential autoconf automake libtool pkg-config libevent-dev zlib1g-dev"
    done
    echo "building memtier_benchmark in $home/memtier_benchmark (autoreconf, configure --disable-tls, make) ..." >&2
    (cd "$home/memtier_benchmark" && autoreconf -ivf && ./configure --disable-tls && make -j2) >"$home/build.log" 2>&1 \
      || die "the memtier_benchmark build failed: see $home/build.log (build-essential, libevent-dev, zlib1g-dev installed?)"
  fi
fi
[ -x "$memtier" ] || die "$memtier is not an executable"

# --- a private memcached ---
port="$(free_port)"
user_args=()
[ "$(id -u)" = 0 ] && user_args=(-u root) # memcached refuses to run as root without -u
"$mc" -l 127.0.0.1 -p "$port" -U 0 -m 64 "${user_args[@]}" >"$work/memcached.log" 2>&1 &
mc_pid=$!
trap 'kill "$mc_pid" 2>/dev/null; wait "$mc_pid" 2>/dev/null || true' EXIT
uri="memcached://127.0.0.1:$port"

# $1: a text command; prints the answer up to its END (or first line) -- memcached's own stats, a metadump
mc_cmd() {
  python3 - "$port" "$1" <<'EOF'
import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])), timeout=5)
s.sendall((sys.argv[2] + "\r\n").encode())
data = b""
while not (data.endswith(b"END\r\n") or data.endswith(b"OK\r\n") or data.startswith(b"VERSION")):
    chunk = s.recv(65536)
    if not chunk:
        break
    data += chunk
print(data.decode(errors="replace"), end="")
EOF
}
for _ in $(seq 100); do # at most 10 s
  if mc_cmd version 2>/dev/null | grep -q '^VERSION'; then break; fi
  kill -0 "$mc_pid" 2>/dev/null || die "memcached exited: see $work/memcached.log"
  sleep 0.1
done
mc_cmd version | grep -q '^VERSION' || die "memcached on port $port did not answer version within 10 s"

# --- the one item both tools use ---
./loadgen load -P workloads/workloadc --driver memcached -p recordcount=1 -p "memcached.uri=$uri" -q >/dev/null \
  || die "loadgen load failed"
key="$(mc_cmd 'lru_crawler metadump all' | sed -n 's/^key=\(user[0-9]*\) .*/\1/p' | head -1)"
[[ "$key" =~ ^user[1-9][0-9]*$ ]] || die "no record was loaded (metadump found '$key')"
size="$(mc_cmd "get $key" | sed -n 's/^VALUE [^ ]* [0-9]* \([0-9]*\).*/\1/p')"
[ "$size" = 1000 ] || die "the loaded item $key is $size bytes, not 1000"
keynum="${key#user}"

# $1 connections, $2 get|set: prints "ops_per_sec p99_us"
run_memtier() {
  local json="$work/memtier-$2-c$1.json" ratio="0:1"
  [ "$2" = set ] && ratio="1:0"
  "$memtier" -s 127.0.0.1 -p "$port" --protocol=memcache_text -t 1 -c "$1" --pipeline=1 --ratio="$ratio" \
    --key-prefix=user --key-minimum="$keynum" --key-maximum="$keynum" --data-size=1000 --test-time="$secs" \
    --hide-histogram --json-out-file="$json" >"$work/memtier-$2-c$1.out" 2>&1 \
    || die "memtier_benchmark failed: see $work/memtier-$2-c$1.out"
  python3 - "$json" "$2" <<'EOF'
import json, sys
stats = json.load(open(sys.argv[1]))["ALL STATS"]["Gets" if sys.argv[2] == "get" else "Sets"]
if sys.argv[2] == "get" and float(stats["Misses/sec"]) > 0:
    sys.exit("memtier's gets missed: not the loaded item")
p99 = [v for k, v in stats["Percentile Latencies"].items() if k[1:2].isdigit() and float(k[1:]) == 99.0][0]
print("%.0f %.0f" % (stats["Ops/sec"], p99 * 1000))
EOF
}
# $1 connections, $2 get|set: prints "ops_per_sec p99_us hiccup_p99_us" (the last: loadgen's hiccup meter, a
# thread that sleeps 5 ms again and again and records how late it wakes: the machine's own stalls during the run)
run_lg() {
  local json="$work/loadgen-$2-c$1.json" op="READ" mix=()
  [ "$2" = set ] && op="UPDATE" && mix=(-p readproportion=0 -p updateproportion=1)
  ./loadgen run -P workloads/workloadc "${mix[@]}" --driver memcached -p recordcount=1 -p operationcount=0 \
    -p "memcached.uri=$uri" --threads 1 -c "$1" --duration "$((secs + warm))s" --warmup "${warm}s" -q \
    --json "$json" >"$work/loadgen-$2-c$1.out" 2>&1 || die "loadgen failed: see $work/loadgen-$2-c$1.out"
  python3 - "$json" "$op" <<'EOF'
import json, sys
j = json.load(open(sys.argv[1]))
print("%.0f %.0f %.0f" % (j["throughput_ops_per_sec"], j["operations"][sys.argv[2]]["service"]["p99_us"],
                        j["harness"]["hiccup"]["p99_us"]))
EOF
}

# memtier's p99 is not exact: it records microseconds in an HdrHistogram (C) whose lowest trackable value is 10,
# so its unit is 8 us (2^3), and it reports a bin's highest value: 95 means 88-95 us. loadgen's p99 is exact to
# 0.1 %. To compare like with like, 'in memtier's bins' puts loadgen's p99 (whole microseconds) into the bin memtier
# would have put it in, and reports that bin's highest value, as memtier does.
#
# Whether loadgen's p99 is no worse is judged on the pairs, not on the two medians alone: each repetition runs both
# tools back to back on the same machine, and on these VMs the machine's own state moves a one-connection p99 by
# 20-40 us from one pair to the next, more than the tools differ (both move together). So, per case:
#   'paired difference' is the median over the pairs of (loadgen's p99 in memtier's bins - memtier's p99);
#   'pairs <, =, >' counts the pairs in which loadgen's was lower, the same bin, higher;
#   'sign test' is the paired sign test on those (ties left out), one-sided at 5 % each way: 'higher' when
#     loadgen's p99 was higher in so many pairs that chance (a fair coin per pair) would do it less than 5 % of
#     the time, 'lower' the other way round, else 'level'; p is that chance;
#   'p99 no worse' is yes when the sign test does not find loadgen higher AND the paired difference is at most
#     one of memtier's bins (8 us: memtier cannot tell two p99s closer than that apart).
# The test needs pairs: 'higher' takes 8 of 9 untied pairs higher, 7 of 8, or all of 5, 6 or 7, and fewer than 5
# untied pairs can never be significant. Judge with REPS=9 or more.
# The last column is the machine's, not either tool's: at one connection a p99 is mostly the machine's wake-ups,
# and a run whose hiccup p99 is high had a stalling machine whichever tool ran. Each repetition's figures are in
# bench/target/memcached-vs-memtier/CASE.mt and CASE.lg.
# $1: the pairs' file ("memtier_p99 loadgen_p99" a line); prints the bin, difference, counts, sign test and verdict
paired_p99() {
  python3 - "$1" <<'PY'
import math, statistics, sys

def memtier_bin(v):  # the highest value of memtier's histogram bin holding v us (hdr_histogram_c, 10..6e9, 3 digits)
    v = int(v)
    unit, half = 3, 10                     # unit magnitude floor(log2(10)); 2048 sub-buckets: half count magnitude 10
    mask = ((1 << (half + 1)) - 1) << unit
    shift = unit + max(0, (v | mask).bit_length() - unit - (half + 1))
    return (v >> shift << shift) + (1 << shift) - 1

def at_least(k, n):  # P(Binomial(n, 1/2) >= k)
    return sum(math.comb(n, i) for i in range(k, n + 1)) / 2 ** n

pairs = [tuple(float(x) for x in line.split()) for line in open(sys.argv[1]) if line.strip()]
mt = [p[0] for p in pairs]
diffs = [memtier_bin(lg) - m for m, lg in pairs]
lower, same, higher = sum(d < 0 for d in diffs), sum(d == 0 for d in diffs), sum(d > 0 for d in diffs)
untied = lower + higher
p_higher, p_lower = at_least(higher, untied), at_least(lower, untied)
if p_higher < 0.05:
    test = "higher (p %.3f)" % p_higher
elif p_lower < 0.05:
    test = "lower (p %.3f)" % p_lower
else:
    test = "level (p %.2f toward %s)" % ((p_higher, "higher") if p_higher <= p_lower else (p_lower, "lower"))
median_diff = statistics.median(diffs)
lg_bin = memtier_bin(statistics.median(float(p[1]) for p in pairs))
no_worse = "yes" if p_higher >= 0.05 and median_diff <= 8 else "no"
print("%d|%+.0f|%d, %d, %d|%s|%s" % (lg_bin, median_diff, lower, same, higher, test, no_worse))
PY
}
printf '| case | memtier ops/s | loadgen ops/s | ratio | memtier p99 (us) | loadgen service p99 (us) | loadgen p99 in memtier'"'"'s bins (us) | paired difference (us) | pairs loadgen <, =, > memtier | sign test | p99 no worse | machine hiccup p99 during loadgen (us) |\n'
printf '|---|---|---|---|---|---|---|---|---|---|---|---|\n'
for name in ${CASES:-get-c1 get-c8 set-c1 set-c8}; do
  op="${name%-c*}"
  conns="${name#*-c}"
  [[ "$op" =~ ^(get|set)$ && "$conns" =~ ^[1-9][0-9]*$ ]] || die "unknown case '$name' (get-cN or set-cN)"
  : >"$work/$name.mt"; : >"$work/$name.lg"
  for rep in $(seq "$reps"); do
    # Alternate the order, so that neither tool always runs on a machine the other has just warmed or disturbed.
    if (( rep % 2 == 1 )); then order="mt lg"; else order="lg mt"; fi
    for tool in $order; do
      case "$tool" in
        mt) run_memtier "$conns" "$op" >>"$work/$name.mt" ;;
        lg) run_lg "$conns" "$op" >>"$work/$name.lg" ;;
      esac
    done
  done
  mt_ops="$(cut -d' ' -f1 "$work/$name.mt" | median)"
  lg_ops="$(cut -d' ' -f1 "$work/$name.lg" | median)"
  mt_p99="$(cut -d' ' -f2 "$work/$name.mt" | median)"
  lg_p99="$(cut -d' ' -f2 "$work/$name.lg" | median)"
  lg_hiccup="$(cut -d' ' -f3 "$work/$name.lg" | median)"
  paste -d' ' <(cut -d' ' -f2 "$work/$name.mt") <(cut -d' ' -f2 "$work/$name.lg") >"$work/$name.pairs"
  IFS='|' read -r lg_bin diff counts test verdict < <(paired_p99 "$work/$name.pairs")
  printf '| %s | %.0f | %.0f | %.2f | %.0f | %.0f | %s | %s | %s | %s | %s | %.0f |\n' "$name" "$mt_ops" "$lg_ops" \
    "$(python3 -c "print($lg_ops / $mt_ops)")" "$mt_p99" "$lg_p99" "$lg_bin" "$diff" "$counts" "$test" "$verdict" \
    "$lg_hiccup"
done
