#!/usr/bin/env bash
# Server load figures (`make bench-server`): onthemap-server vs Datasette vs nginx, on loopback,
# with 1,000,000 rows and the app's main request. Prints a Markdown section for
# Docs/Benchmarks.md ("## Server load").
#
#   scripts/bench-server.sh ONTHEMAP_SERVER [HTTP_FLOOR]
#     ONTHEMAP_SERVER  the executable to measure: `make bench-server` passes the one `make install`
#                      installs
#     HTTP_FLOOR       onthemap-bench-http, also measured when given: Hummingbird alone answering the
#                      same bytes from one route, the framework's floor on this machine (the nginx
#                      ratio moves with the machine; onthemap-server's share of the floor much less)
#
#   BENCH_ROWS         rows (default 1000000)
#   BENCH_SECONDS      seconds of wrk per server (default 20)
#   BENCH_ROUNDS       onthemap-server and Hummingbird alone take turns in this many rounds of
#                      BENCH_SECONDS / BENCH_ROUNDS each (default 10)
#   BENCH_CONNECTIONS  wrk connections (default 64)
#
# Traffic goes only to 127.0.0.1; every process this script starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."

ROWS=${BENCH_ROWS:-1000000}
SECONDS_PER_RUN=${BENCH_SECONDS:-20}
CONNECTIONS=${BENCH_CONNECTIONS:-64}
ROUNDS=${BENCH_ROUNDS:-10}
DATASETTE_VERSION=0.65.5
VENV=.build-venv
QUERY='limit=100&order=-updatedAt'
SQL='select object_id, unique_key, first_name, last_name, map_string, media_url, latitude, longitude, created_at, updated_at from student_location order by updated_at desc, object_id desc limit 100'

SUDO=$([ "$(id -u)" = 0 ] || echo sudo)
missing=""
for package in wrk nginx-light curl sqlite3 python3-venv; do
    [ "$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null)" = "install ok installed" ] || missing="$missing $package"
done
if [ -n "$missing" ]; then
    $SUDO apt-get update -qq
    $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing
fi
if ! "$VENV/bin/python" -c "import importlib.metadata as m; assert m.version('datasette') == '$DATASETTE_VERSION'" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "datasette==$DATASETTE_VERSION"
fi

BIN=$(realpath "${1:?usage: scripts/bench-server.sh ONTHEMAP_SERVER (make bench-server)}")
FLOOR_BIN=${2:+$(realpath "$2")}

WORK=$(mktemp -d)
chmod 755 "$WORK"
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
wait_for() {  # url pid
    for _ in $(seq 1 300); do
        curl -fsS -o /dev/null "$1" 2>/dev/null && return 0
        kill -0 "$2" 2>/dev/null || { echo "bench: a server did not start" >&2; return 1; }
        sleep 0.1
    done
    echo "bench: $1 did not answer" >&2
    return 1
}
# wrk's requests/s and p99 (ms) from its --latency output.
run_wrk() {  # name url [seconds]
    wrk -t2 -c"$CONNECTIONS" -d"${3:-$SECONDS_PER_RUN}s" --latency "$2" >"$WORK/$1.wrk"
    local rps p99 errors
    rps=$(awk '/^Requests\/sec:/ { print $2 }' "$WORK/$1.wrk")
    p99=$(awk '$1 == "99%" { v = $2; if (v ~ /us$/) { sub(/us$/, "", v); v = v / 1000 } else if (v ~ /ms$/) { sub(/ms$/, "", v) } else if (v ~ /s$/) { sub(/s$/, "", v); v = v * 1000 }; print v }' "$WORK/$1.wrk")
    errors=$(awk '/Non-2xx|Socket errors/ { print }' "$WORK/$1.wrk" | tr '\n' ' ')
    echo "$1 $rps $p99 ${errors:-none}" >>"$WORK/results"
    cat "$WORK/$1.wrk" >&2
}

DB="$WORK/bench.sqlite"
"$BIN" seed --synthetic "$ROWS" --database "$DB" >&2

# onthemap-server (production flags: metrics on; request logs off, to a file they cost little),
# started under the name $1 with any further `serve` flags after it; stop_onthemap records its
# peak resident memory in PEAK_RSS_KB[$1].
declare -A PEAK_RSS_KB
PORT=$(free_port)
URL="http://127.0.0.1:$PORT/v1/StudentLocation?$QUERY"
start_onthemap() {  # name [serve flags…]
    local name=$1
    shift
    "$BIN" serve --port "$PORT" --database "$DB" --no-log-requests --log-level warning "$@" >"$WORK/$name.log" 2>&1 &
    SERVER_PID=$!
    PIDS+=("$SERVER_PID")
    wait_for "$URL" "$SERVER_PID"
    curl -fsS -o "$WORK/$name.json" "$URL"
}
stop_onthemap() {  # name
    PEAK_RSS_KB[$1]=$(awk '/^VmHWM:/ { print $2 }' "/proc/$SERVER_PID/status")
    kill "$SERVER_PID"; wait "$SERVER_PID" 2>/dev/null || true
}
# One result line for $1 from its rounds ($1.1 … $1.N): the mean of the rounds' requests/s, the
# median of their p99s, and any round's errors.
summarize_rounds() {  # name
    python3 - "$1" "$WORK/results" >>"$WORK/results" <<'PY'
import statistics, sys
name, path = sys.argv[1], sys.argv[2]
rounds = [line.split(maxsplit=3) for line in open(path) if line.split()[0].rsplit(".", 1)[0] == name]
errors = sorted({r[3].strip() for r in rounds} - {"none"})
print(name, statistics.mean(float(r[1]) for r in rounds), statistics.median(float(r[2]) for r in rounds),
      " ".join(errors) or "none")
PY
}

# 1. onthemap-server as it runs by default, and Hummingbird alone on the same bytes (when given),
#    in alternating rounds: the machine's speed drifts by more than the difference between the two
#    (on 2026-11-30 the floor alone gave 19,500–28,700 requests/s in seven 5-second runs), so each
#    is measured in ROUNDS rounds of SECONDS_PER_RUN / ROUNDS seconds, taking turns.
start_onthemap onthemap
mkdir -p "$WORK/www"
cp "$WORK/onthemap.json" "$WORK/www/page.json"
if [ -n "$FLOOR_BIN" ]; then
    FPORT=$(free_port)
    "$FLOOR_BIN" "$FPORT" "$WORK/www/page.json" >"$WORK/floor.log" 2>&1 &
    FLOOR_PID=$!
    PIDS+=("$FLOOR_PID")
    FURL="http://127.0.0.1:$FPORT/v1/StudentLocation"
    wait_for "$FURL" "$FLOOR_PID"
    curl -fsS "$FURL" | cmp -s - "$WORK/www/page.json" || { echo "bench: onthemap-bench-http answered other bytes" >&2; exit 1; }
fi
ROUND_SECONDS=$(( (SECONDS_PER_RUN + ROUNDS - 1) / ROUNDS ))
for round in $(seq 1 "$ROUNDS"); do
    run_wrk "onthemap.$round" "$URL" "$ROUND_SECONDS"
    [ -z "$FLOOR_BIN" ] || run_wrk "floor.$round" "$FURL" "$ROUND_SECONDS"
done
summarize_rounds onthemap
if [ -n "$FLOOR_BIN" ]; then
    summarize_rounds floor
    kill "$FLOOR_PID"; wait "$FLOOR_PID" 2>/dev/null || true
else
    echo "floor 0 0 not-measured" >>"$WORK/results"
fi
stop_onthemap onthemap
RSS_KB=${PEAK_RSS_KB[onthemap]}
# 1b. The same without the list cache: every request reads and serializes the 100 rows (for
#     reference: what a request costs when a write has just cleared the cache).
start_onthemap uncached --list-cache-seconds 0
run_wrk uncached "$URL"
stop_onthemap uncached
cmp -s "$WORK/onthemap.json" "$WORK/uncached.json" || { echo "bench: the cached and uncached answers differ" >&2; exit 1; }

# 2. Datasette on a copy of the same table (VACUUM INTO: a plain, immutable file), same SQL.
sqlite3 "$DB" "VACUUM INTO '$WORK/datasette.sqlite'"
DPORT=$(free_port)
"$VENV/bin/datasette" serve -i "$WORK/datasette.sqlite" --port "$DPORT" --host 127.0.0.1 \
    >"$WORK/datasette.log" 2>&1 &
PIDS+=("$!")
ENCODED_SQL=$(python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$SQL")
DURL="http://127.0.0.1:$DPORT/datasette.json?sql=$ENCODED_SQL&_shape=objects"
wait_for "$DURL" "$!"
DATASETTE_ROWS=$(curl -fsS "$DURL" | python3 -c 'import json, sys; print(len(json.load(sys.stdin)["rows"]))')
run_wrk datasette "$DURL"

# 3. nginx serving the server's answer as a static file.
NPORT=$(free_port)
mkdir -p "$WORK/nginx/logs"
cat >"$WORK/nginx/nginx.conf" <<NGINX
worker_processes 2;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/logs/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    default_type application/json;
    keepalive_requests 1000000;
    server {
        listen 127.0.0.1:$NPORT;
        root $WORK/www;
        location = /v1/StudentLocation { try_files /page.json =404; }
    }
}
NGINX
nginx -p "$WORK/nginx" -c "$WORK/nginx/nginx.conf" -g 'daemon off; user root;' &
PIDS+=("$!")
NURL="http://127.0.0.1:$NPORT/v1/StudentLocation"
wait_for "$NURL" "$!"
run_wrk nginx "$NURL"

read -r _ ours ours_p99 ours_errors < <(grep '^onthemap ' "$WORK/results")
read -r _ ds ds_p99 ds_errors < <(grep '^datasette ' "$WORK/results")
read -r _ ng ng_p99 ng_errors < <(grep '^nginx ' "$WORK/results")
read -r _ unc unc_p99 unc_errors < <(grep '^uncached ' "$WORK/results")
read -r _ fl fl_p99 fl_errors < <(grep '^floor ' "$WORK/results")
BYTES=$(wc -c <"$WORK/www/page.json")
python3 - "$ours" "$ds" "$ng" "$ours_p99" "$ds_p99" "$ng_p99" "$RSS_KB" "$BYTES" "$DATASETTE_ROWS" \
    "$ours_errors" "$ds_errors" "$ng_errors" "$ROWS" "$SECONDS_PER_RUN" "$CONNECTIONS" "$unc" "$unc_p99" "$unc_errors" \
    "$fl" "$fl_p99" "$fl_errors" <<'PY'
import sys
ours, ds, ng, p_ours, p_ds, p_ng = map(float, sys.argv[1:7])
rss_kb, size, ds_rows = int(sys.argv[7]), int(sys.argv[8]), int(sys.argv[9])
errors = sys.argv[10:13]
rows, seconds, connections = sys.argv[13:16]
unc, p_unc, unc_errors = float(sys.argv[16]), float(sys.argv[17]), sys.argv[18]
floor, p_floor, floor_errors = float(sys.argv[19]), float(sys.argv[20]), sys.argv[21]
print(f"| server | requests/s | p99 (ms) | errors |")
print(f"|---|---:|---:|---|")
for name, rps, p99, err in [("onthemap-server (installed)", ours, p_ours, errors[0]),
                            ("Datasette 0.65.5 (same SQL, JSON)", ds, p_ds, errors[1]),
                            ("nginx (the same bytes, static)", ng, p_ng, errors[2]),
                            ("onthemap-server, list cache off (`--list-cache-seconds 0`)", unc, p_unc, unc_errors)]:
    print(f"| {name} | {rps:,.0f} | {p99:.2f} | {err.strip()} |")
if floor:
    print(f"| Hummingbird alone (onthemap-bench-http: the same bytes, one route) | {floor:,.0f} | {p_floor:.2f} | {floor_errors.strip()} |")
print()
print(f"- {rows} rows; wrk -t2 -c{connections}, {seconds} s a server (onthemap-server and Hummingbird alone taking turns in rounds: the mean requests/s, the median p99); response {size:,} bytes (100 rows); Datasette returned {ds_rows} rows.")
print(f"- onthemap-server / Datasette: {ours / ds:.1f}x (target >= 10x)")
print(f"- onthemap-server / nginx: {ours / ng:.2f}x (target >= 0.3x)")
if floor:
    print(f"- Hummingbird alone / nginx: {floor / ng:.2f}x; onthemap-server / Hummingbird alone: {ours / floor:.2f}x")
print(f"- onthemap-server p99: {p_ours:.2f} ms (target <= 10 ms)")
print(f"- onthemap-server peak resident memory (VmHWM): {rss_kb / 1024:.1f} MB")
PY
