# Sourced by bench scripts: start_redis DIR starts a private redis-server (persistence off) on a free
# loopback port, never the shared 6379, and stops it when the script exits. Sets $port, $uri and
# $redis_pid. Needs redis-server and redis-cli (Debian: redis-server, redis-tools); REDIS_SERVER overrides.

# shellcheck source=common.sh
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

start_redis() {
  local dir="$1" server="${REDIS_SERVER:-redis-server}"
  command -v "$server" >/dev/null || { echo "no $server: apt-get install redis-server" >&2; exit 1; }
  command -v redis-cli >/dev/null || { echo "no redis-cli: apt-get install redis-tools" >&2; exit 1; }
  mkdir -p "$dir"
  dir="$(cd "$dir" && pwd)" # redis-server changes to --dir before it opens its log
  port="$(free_port)"
  "$server" --bind 127.0.0.1 --port "$port" --save '' --appendonly no --dir "$dir" \
    --logfile "$dir/redis-server.log" --daemonize no &
  redis_pid=$!
  trap 'kill "$redis_pid" 2>/dev/null; wait "$redis_pid" 2>/dev/null || true' EXIT
  local i
  for i in $(seq 100); do # at most 10 s
    if [ "$(redis-cli -p "$port" ping 2>/dev/null)" = "PONG" ]; then
      uri="redis://127.0.0.1:$port"
      return 0
    fi
    kill -0 "$redis_pid" 2>/dev/null || { echo "redis-server exited: see $dir/redis-server.log" >&2; exit 1; }
    sleep 0.1
  done
  echo "redis-server on port $port did not answer PING within 10 s" >&2
  exit 1
}
