#!/usr/bin/env bash
# Instructions per request of onthemap-server's list request, counted by callgrind (Docs/Benchmarks.md,
# "Server load"): independent of the machine's load, unlike requests/s.
#
#   scripts/bench-server-callgrind.sh ONTHEMAP_SERVER [serve flags…]
#       e.g. .build-install/usr/bin/onthemap-server --list-cache-seconds 3600   (a cached answer)
#            .build-install/usr/bin/onthemap-server --list-cache-seconds 0      (every request reads)
#
#   BENCH_ROWS      rows (default 1000000, as `make bench-server`)
#   BENCH_REQUESTS  requests counted (default 2000), after 200 uncounted ones
#
# The server runs under `valgrind --tool=callgrind` on a seeded database; one keep-alive
# connection sends `GET /v1/StudentLocation?limit=100&order=-updatedAt`; the counters are zeroed
# after the warm-up and dumped after the counted requests. Printed: all the process's instructions
# divided by the requests, and the same less the change-log follower's polls (background work
# that runs on a timer, so under valgrind's slowdown it adds more per request than it does at
# full speed). valgrind 3.19 cannot read the DWARF of Swift 6.3's binaries, so the binary is
# measured from a copy without debug sections (symbols kept).
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=$(realpath "${1:?usage: scripts/bench-server-callgrind.sh ONTHEMAP_SERVER [serve flags…]}")
shift
ROWS=${BENCH_ROWS:-1000000}
REQUESTS=${BENCH_REQUESTS:-2000}
for tool in valgrind callgrind_annotate callgrind_control objcopy curl python3; do
    command -v "$tool" >/dev/null || { echo "bench: $tool is missing (apt-get install valgrind binutils curl python3)" >&2; exit 1; }
done

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    [ -z "$SERVER_PID" ] || { kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; }
    rm -rf "$WORK"
}
trap cleanup EXIT

objcopy --strip-debug "$BIN" "$WORK/onthemap-server"
"$BIN" seed --synthetic "$ROWS" --database "$WORK/bench.sqlite" >&2
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
URL="http://127.0.0.1:$PORT/v1/StudentLocation?limit=100&order=-updatedAt"
valgrind --tool=callgrind --callgrind-out-file="$WORK/callgrind.out.%p" \
    "$WORK/onthemap-server" serve --port "$PORT" --database "$WORK/bench.sqlite" --no-log-requests --log-level warning "$@" \
    >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 600); do
    curl -fsS -o /dev/null "$URL" 2>/dev/null && break
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log" >&2; exit 1; }
    sleep 0.5
done
get() {  # requests
    python3 - "$PORT" "$1" <<'PY'
import http.client, sys
connection = http.client.HTTPConnection("127.0.0.1", int(sys.argv[1]))
for _ in range(int(sys.argv[2])):
    connection.request("GET", "/v1/StudentLocation?limit=100&order=-updatedAt")
    response = connection.getresponse()
    response.read()
    assert response.status == 200, response.status
PY
}
get 200
callgrind_control -z "$SERVER_PID" >/dev/null
get "$REQUESTS"
callgrind_control -d "$SERVER_PID" >/dev/null
sleep 1
PROFILE=$(ls "$WORK"/callgrind.out.*.1)
total=$(callgrind_annotate "$PROFILE" 2>/dev/null | awk '/PROGRAM TOTALS/ { gsub(",", "", $1); print $1; exit }')
follower=$(callgrind_annotate --inclusive=yes --threshold=100 --auto=no "$PROFILE" 2>/dev/null |
    awk '/SQLite[A-Za-z0-9]*C9changeLog5after/ { gsub(",", "", $1); if ($1 > max) max = $1 } END { print max + 0 }')
echo "requests: $REQUESTS, flags: ${*:-(none)}"
echo "instructions per request: $((total / REQUESTS)) (all of the process)"
echo "less the change-log follower's polls: $(((total - follower) / REQUESTS))"
