#!/usr/bin/env bash
# Runs a command with a throwaway PostgreSQL cluster on a loopback port.
#
#   scripts/with-postgres.sh COMMAND [ARG…]
#
# The cluster lives in a temporary folder, listens on 127.0.0.1 only, trusts local
# connections (it holds nothing but test data), and is stopped and deleted when the command
# ends, whatever its result. The command sees ONTHEMAP_TEST_POSTGRES_URL, the URL of an empty
# database it may use, create databases beside, and drop.
set -euo pipefail

bindir=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bindir" ] || [ ! -x "$bindir/initdb" ]; then
    echo "with-postgres: PostgreSQL server binaries not found (apt-get install postgresql)" >&2
    exit 1
fi

workdir=$(mktemp -d /tmp/onthemap-pg.XXXXXX)
chmod 755 "$workdir"
# initdb refuses to run as root: run the cluster as the 'postgres' user the package created.
as_owner=()
if [ "$(id -u)" = 0 ]; then
    chown postgres:postgres "$workdir"
    as_owner=(runuser -u postgres --)
fi

port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')

stop() {
    "${as_owner[@]}" "$bindir/pg_ctl" -D "$workdir/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$workdir"
}
trap stop EXIT

"${as_owner[@]}" "$bindir/initdb" -D "$workdir/data" -U postgres --auth=trust --encoding=UTF8 --locale=C.UTF-8 >"$workdir/initdb.log" 2>&1 \
    || { cat "$workdir/initdb.log" >&2; exit 1; }
# max_connections: each test server's pool opens up to 16 connections and the parallel pass runs
# dozens of servers at once; a run on an idle machine once failed to start one with a PSQLError
# (its detail unknown then; TestServer now reports it whole), so the cluster allows twice the 500
# it had.
"${as_owner[@]}" "$bindir/pg_ctl" -D "$workdir/data" -l "$workdir/server.log" -w -t 60 \
    -o "-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$workdir -c fsync=on -c max_connections=1000" \
    start >/dev/null || { cat "$workdir/server.log" >&2; exit 1; }
"$bindir/psql" -h 127.0.0.1 -p "$port" -U postgres -qAt -c "CREATE DATABASE onthemap_test" >/dev/null 2>&1 \
    || psql -h 127.0.0.1 -p "$port" -U postgres -qAt -c "CREATE DATABASE onthemap_test" >/dev/null

export ONTHEMAP_TEST_POSTGRES_URL="postgres://postgres@127.0.0.1:$port/onthemap_test"
echo "with-postgres: PostgreSQL $("$bindir/postgres" --version | awk '{print $3}') on 127.0.0.1:$port"
"$@"
