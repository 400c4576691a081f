# Sourced by bench scripts: small helpers they share.

# A free loopback TCP port.
free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

# The median of the numbers on stdin, one a line.
median() { sort -g | awk '{a[NR]=$1} END {print (NR % 2) ? a[(NR+1)/2] : (a[NR/2] + a[NR/2+1]) / 2}'; }

# CPU seconds (utime + stime) of java process $1's thread loadgen-worker-0 (Linux keeps a thread name's first
# 15 characters), read every $2 seconds (default 0.1) until it ends; the last reading wins, so up to $2 s of it may
# be missed. Builtins only, so polling forks only the sleep.
worker_cpu() {
  local pid="$1" every="${2:-0.1}" task="" name stat last=0 ticks
  ticks="$(getconf CLK_TCK)"
  for _ in $(seq 100); do # the worker starts once the driver is open; look for it, bounded
    for t in /proc/"$pid"/task/*; do
      { read -r name <"$t/comm"; } 2>/dev/null || continue
      if [[ "$name" == loadgen-worker* ]]; then task="$t"; break 2; fi
    done
    sleep 0.1
  done
  [ -n "$task" ] || { echo "nan"; return; }
  while { read -r stat <"$task/stat"; } 2>/dev/null; do
    read -r -a f <<<"${stat##*) }" # after the name: state is f[0], utime f[11], stime f[12] (stat(5) 14, 15)
    last="$(( f[11] + f[12] ))"
    sleep "$every"
  done
  awk -v t="$last" -v hz="$ticks" 'BEGIN { printf "%.2f", t / hz }'
}
