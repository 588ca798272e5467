#!/usr/bin/env bash
# A throwaway Redis on 127.0.0.1 for the BullMQ batch queue tests (test/site/batches), started
# and stopped by .ci/run. `start DIR PORT` runs redis-server with its files in DIR (no
# persistence) and prints its URL; `stop DIR` stops it.
set -euo pipefail
cmd=${1:?start DIR PORT | stop DIR}
dir=${2:?folder}
case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    redis-server --bind 127.0.0.1 --port "$port" --dir "$dir" --save '' --appendonly no \
      --daemonize yes --pidfile "$dir/redis.pid" --logfile "$dir/redis.log"
    for _ in $(seq 50); do
      redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null 2>&1 && break
      sleep 0.1
    done
    redis-cli -h 127.0.0.1 -p "$port" ping >/dev/null
    echo "redis://127.0.0.1:$port"
    ;;
  stop)
    [ -f "$dir/redis.pid" ] && kill "$(cat "$dir/redis.pid")" 2>/dev/null || true
    ;;
esac
