#!/usr/bin/env bash
# Contract fuzzing (`make fuzz`): schemathesis, pinned, from a venv in .build-venv/, against a real
# onthemap-server on a free loopback port with a temporary database seeded with `seed --demo`.
# Checks every answer against Docs/openapi.json; exits non-zero on any 5xx, any answer that breaks
# the schema (status, content type, headers, body), or a session answer without its prefix.
#
#   FUZZ_MAX_EXAMPLES  examples per operation and phase (default 100)
#   FUZZ_SEED          schemathesis's random seed (default 1, so a run is repeatable)
#   FUZZ_TIMEOUT       seconds the whole schemathesis run may take (default 900)
#   FUZZ_DATABASE      the server's database (default: a temporary SQLite file); a postgres:// URL
#                      of an empty database fuzzes PostgreSQL, e.g.
#                      scripts/with-postgres.sh sh -c 'FUZZ_DATABASE=$ONTHEMAP_TEST_POSTGRES_URL scripts/fuzz.sh'
#   FUZZ_RELEASE=1     fuzz the release build (the Makefile's RELEASE_FLAGS, which `make fuzz`
#                      exports: the one release configuration, so nothing else is rebuilt);
#                      else the debug build
set -euo pipefail
cd "$(dirname "$0")/.."

SCHEMATHESIS_VERSION=4.32.5
MAX_EXAMPLES=${FUZZ_MAX_EXAMPLES:-100}
SEED=${FUZZ_SEED:-1}
TIMEOUT=${FUZZ_TIMEOUT:-900}
VENV=.build-venv

if ! "$VENV/bin/python" -c "import importlib.metadata as m; assert m.version('schemathesis') == '$SCHEMATHESIS_VERSION'" 2>/dev/null; then
    python3 -m venv "$VENV"
    "$VENV/bin/pip" install --quiet "schemathesis==$SCHEMATHESIS_VERSION"
fi

BUILD_FLAGS=""
if [ "${FUZZ_RELEASE:-}" = 1 ]; then BUILD_FLAGS=${RELEASE_FLAGS:?FUZZ_RELEASE=1 needs make fuzz (RELEASE_FLAGS)}; fi
# shellcheck disable=SC2086
swift build $BUILD_FLAGS --product onthemap-server
BIN="$(swift build $BUILD_FLAGS --show-bin-path)/onthemap-server"

WORK=$(mktemp -d)
SERVER_PID=""
cleanup() {
    if [ -n "$SERVER_PID" ]; then kill "$SERVER_PID" 2>/dev/null || true; wait "$SERVER_PID" 2>/dev/null || true; fi
    rm -rf "$WORK"
}
trap cleanup EXIT

DB="${FUZZ_DATABASE:-$WORK/fuzz.sqlite}"
"$BIN" seed --demo --database "$DB" >/dev/null
PORT=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
BASE="http://127.0.0.1:$PORT"
"$BIN" serve --host 127.0.0.1 --port "$PORT" --database "$DB" --log-format json >"$WORK/server.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 1 100); do
    if curl -fsS "$BASE/healthz" >/dev/null 2>&1; then break; fi
    kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server.log"; echo "fuzz: the server did not start" >&2; exit 1; }
    sleep 0.1
done

# A session of the demo account for the StudentLocation writes (see scripts/fuzz/onthemap_hooks.py).
LOGIN=$(curl -fsS -X POST "$BASE/v1/session" -H 'Content-Type: application/json' \
    -d '{"udacity":{"username":"demo@onthemap.example","password":"onthemap"}}' | tail -c +6)
FUZZ_SESSION=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["session"]["id"])' "$LOGIN")
FUZZ_KEY=$(python3 -c 'import json, sys; print(json.loads(sys.argv[1])["account"]["key"])' "$LOGIN")
export FUZZ_SESSION FUZZ_KEY

REPORT_DIR=.build-venv/fuzz-report
rm -rf "$REPORT_DIR"
status=0
PYTHONPATH=scripts/fuzz SCHEMATHESIS_HOOKS=onthemap_hooks timeout "$TIMEOUT" "$VENV/bin/st" run Docs/openapi.json \
    --url "$BASE" \
    --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance,xssi_prefix \
    --max-examples "$MAX_EXAMPLES" --seed "$SEED" --workers 2 --request-timeout 10 \
    --suppress-health-check all --no-color \
    --report junit --report-dir "$REPORT_DIR" || status=$?

server_errors=$(grep -c '"http.status":"5' "$WORK/server.log" || true)
requests=$(grep -c '"message":"request"' "$WORK/server.log" || true)
echo "fuzz: $requests requests answered by the server, $server_errors with a 5xx status (server log)."
if [ "$server_errors" != "0" ]; then
    grep '"http.status":"5\|request failed' "$WORK/server.log" | head -20
    status=1
fi
exit "$status"
