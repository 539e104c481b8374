#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for tests.
#   scripts/pg-cluster.sh start DIR   -> prints a postgres:// URL on stdout
#   scripts/pg-cluster.sh stop DIR     (stops and deletes it)
#   scripts/pg-cluster.sh halt DIR     (stops it, keeping the data: an outage)
#   scripts/pg-cluster.sh resume DIR   (starts it again on the same port)
# Uses initdb/pg_ctl from PG_BIN (default /usr/lib/postgresql/15/bin). PostgreSQL
# refuses to run as root, so as root the cluster runs as the postgres user.
set -euo pipefail
cmd=${1:?start|stop}
dir=${2:?data directory}
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}

# The server's settings, on start and on resume. Autovacuum is off: the tests create a database for almost
# every server they start and never vacuum-worthy amounts of rows, yet the launcher visits every database
# each minute, and new ones first. With 200 fresh databases on the cluster and nothing else running it took
# 12.7 core-seconds a minute, against 0.4 without it (December 2026).
server_options() {
  echo "-p $1 -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200 -c autovacuum=off"
}

as_pg() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    if [ "$(id -u)" = 0 ]; then chown postgres "$dir"; fi
    as_pg "$PG_BIN/initdb" -D "$dir/data" -A trust -U postgres -E UTF8 >"$dir/initdb.log" 2>&1
    port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
    echo "$port" >"$dir/port"
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "$(server_options "$port")" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  halt)
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate -w stop >/dev/null
    ;;
  resume)
    port=$(cat "$dir/port")
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "$(server_options "$port")" start >/dev/null
    ;;
  stop)
    as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$dir"
    ;;
  *)
    echo "usage: $0 start|stop|halt|resume DIR" >&2
    exit 2
    ;;
esac
