#!/usr/bin/env bash
# How much memory 'loadgen http-server' holds under one client that pipelines GETs without pause: the server's
# peak RSS (VmHWM) and its RSS at the end, against a server on a free loopback port that this script starts
# and stops. The client is a small python3 loop, bounded by FLOOD_SECONDS; it sends pipelined
# "GET / HTTP/1.1" requests as fast as the socket takes them, and either never reads a response
# (MODE=noread, the default) or reads and drops them (MODE=read).
#
#   bench/http-server-flood.sh                            # --delay 5s, a client that never reads, 12 s
#   DELAY=10ms MODE=read FLOOD_SECONDS=10 bench/http-server-flood.sh
#
# Environment: DELAY (5s), MODE (noread | read), FLOOD_SECONDS (12), SERVER (http-server; ping-server floods
# the echo server with the same bytes, for comparison).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
delay="${DELAY:-5s}"
mode="${MODE:-noread}"
secs="${FLOOD_SECONDS:-12}"
server="${SERVER:-http-server}"
work="bench/target/http-server-flood"
mkdir -p "$work"

die() { echo "http-server-flood: $*" >&2; exit 1; }
[[ "$secs" =~ ^[1-9][0-9]*$ ]] && [ "$secs" -le 600 ] || die "FLOOD_SECONDS must be 1 to 600, got '$secs'"
case "$mode" in noread|read) ;; *) die "MODE must be noread or read, got '$mode'" ;; esac
case "$server" in http-server|ping-server) ;; *) die "SERVER must be http-server or ping-server, got '$server'" ;; esac

# shellcheck source=lib/common.sh
. bench/lib/common.sh
port="$(free_port)"
./loadgen "$server" --port "$port" --delay "$delay" >"$work/server.log" 2>&1 &
pid=$!
trap 'kill "$pid" 2>/dev/null; wait 2>/dev/null || true' EXIT
for _ in $(seq 300); do # at most 30 s (the first start may build the jar)
  python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 1).close()" 2>/dev/null && break
  kill -0 "$pid" 2>/dev/null || die "the server did not start: $(tail -1 "$work/server.log")"
  sleep 0.1
done
rss_mb() { awk -v k="$1:" '$1 == k {printf "%d", $2 / 1024}' "/proc/$pid/status"; }
echo "$server --delay $delay on 127.0.0.1:$port, pid $pid: RSS $(rss_mb VmRSS) MB before the flood"

python3 - "$port" "$secs" "$mode" <<'EOF'
import select, socket, sys, time
port, secs, mode = int(sys.argv[1]), float(sys.argv[2]), sys.argv[3]
s = socket.create_connection(("127.0.0.1", port))
s.setblocking(False)
one = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
chunk = one * 2048
sent = received = 0
end = time.monotonic() + secs
while (left := end - time.monotonic()) > 0:
    r, w, _ = select.select([s] if mode == "read" else [], [s], [], min(left, 0.5))
    if w:
        try:
            sent += s.send(chunk)
        except BlockingIOError:
            pass
        except OSError as e:
            print(f"client: the server closed the connection ({e})"); break
    if r:
        data = s.recv(1 << 20)
        if not data:
            print("client: the server closed the connection"); break
        received += len(data)
print(f"client: sent {sent / 2**20:.1f} MiB of requests ({sent // len(one)} GETs) in {secs:.0f} s,"
      f" read {received / 2**20:.1f} MiB of responses")
s.close()
EOF
echo "$server: RSS $(rss_mb VmRSS) MB at the end, peak $(rss_mb VmHWM) MB"
