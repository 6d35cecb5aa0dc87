#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests and trials of `arena serve --db` (Linux, Debian's packages).
#
#   deploy/postgres/throwaway.sh start DIR [PORT]   # prints the server's URL (last line of stdout)
#   deploy/postgres/throwaway.sh stop DIR
#
# The cluster lives in DIR (created; delete it after `stop`), listens on 127.0.0.1:PORT (default 55432)
# and on a socket in DIR only, and trusts local connections as the user `postgres`: never use it for a
# real contest. Installs Debian's `postgresql` package when no server binaries are found (as root, or
# with sudo). Run as root, the server runs as the system user `postgres` (PostgreSQL refuses root).
set -euo pipefail

usage() { echo "usage: $0 start DIR [PORT] | stop DIR" >&2; exit 2; }
[ $# -ge 2 ] || usage
cmd=$1
dir=$2
port=${3:-55432}

find_bin() { ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -1; }
bin=$(find_bin)
if [ -z "$bin" ]; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq postgresql >/dev/null
  bin=$(find_bin)
fi
[ -n "$bin" ] || { echo "no PostgreSQL server binaries under /usr/lib/postgresql" >&2; exit 1; }

# As root the cluster belongs to `postgres`; otherwise to the caller.
as_owner() {
  if [ "$(id -u)" -eq 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

case "$cmd" in
  start)
    mkdir -p "$dir"
    dir=$(cd "$dir" && pwd)
    [ "$(id -u)" -ne 0 ] || chown postgres "$dir"
    if [ ! -f "$dir/data/PG_VERSION" ]; then
      as_owner "$bin/initdb" -D "$dir/data" -U postgres --auth=trust -E UTF8 --no-instructions >"$dir/initdb.log"
    fi
    as_owner "$bin/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c max_connections=200" start >/dev/null
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  stop)
    dir=$(cd "$dir" && pwd)
    as_owner "$bin/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null
    ;;
  *)
    usage
    ;;
esac
