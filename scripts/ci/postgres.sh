#!/usr/bin/env bash
# A throwaway PostgreSQL 15 cluster on 127.0.0.1 for the site tests (test/site), started and
# stopped by .ci/run. `start DIR PORT` creates the cluster in DIR and the database smartcage_test,
# and prints its URL; `stop DIR` stops it; `resume DIR PORT` starts it again. As root the server runs as the user postgres
# (PostgreSQL refuses root).
set -euo pipefail
cmd=${1:?start DIR PORT | stop DIR | resume DIR PORT}
dir=${2:?folder}
bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -1)
# From /: the user postgres may not enter the folder CI runs in.
as_owner() { if [ "$(id -u)" = 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi; }
case "$cmd" in
  start)
    port=${3:?port}
    mkdir -p "$dir"
    [ "$(id -u)" = 0 ] && chown postgres "$dir"
    as_owner "$bin/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 >/dev/null
    # fsync off: a test database, thrown away after the run.
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    as_owner "$bin/createdb" -h 127.0.0.1 -p "$port" -U postgres smartcage_test
    echo "postgres://postgres@127.0.0.1:$port/smartcage_test"
    ;;
  resume)
    # Starts again a cluster that `start` made and `stop` stopped (test/cli/serve-readyz.test.ts).
    port=${3:?port}
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200" start >/dev/null
    ;;
  stop)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast stop >/dev/null 2>&1 || true
    ;;
esac
