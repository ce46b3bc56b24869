#!/usr/bin/env bash
# What `make test` runs, in order, each step's start printed as an "== phase NAME started at
# EPOCH" line (scripts/fresh-root-check.sh times the phases from them). Stops at the first step
# that fails.
#
#   scripts/test-all.sh SWIFT MAKE DEBUG_BIN_DIR RELEASE_LOG RELEASE_SCRATCH
#
# The release build that the packaging test needs runs beside the rest from the start: a release
# module is optimised whole, on one thread, so the debug build, then the parallel and
# command-line Swift passes and the end-to-end suite — each made to bear a loaded machine (the
# Swift passes beside two CPU hogs: scripts/stress-swift-pass.sh; the tmux flows wait for what
# they expect on the screen) — use the core it leaves idle. The server-process pass, whose tests
# load the machine on purpose and measure answer times, waits until it has finished, and so runs
# with nothing else beside it; then the packaging test, which needs the release build, and
# beside it the release app in real terminals under Xvfb (Tests/terminals: the harness waits
# for each frame, and the packaging test only builds and reads files).
set -uo pipefail
swift=$1 make=$2 bin=$3 release_log=$4 release_scratch=$5
here=$(cd "$(dirname "$0")/.." && pwd)
cd "$here"

phase() { echo "== phase $1 started at $(date +%s)"; }
release=
stop_release() { [ -n "$release" ] && kill "$release" 2>/dev/null && wait "$release" 2>/dev/null; release=; }
trap stop_release EXIT
fail() {
    echo "== make test: $1"
    exit 1
}

phase build
python3 scripts/openapi/generate.py --check || fail "the OpenAPI document differs from the routes"
python3 scripts/check-architecture.py || fail "scripts/check-architecture.py"
"$swift" package resolve || fail "swift package resolve"
mkdir -p "$(dirname "$release_log")"
"$make" release > "$release_log" 2>&1 &
release=$!
"$swift" build --build-tests || fail "swift build --build-tests"
bash scripts/install-files.sh --manual-tool || fail "the man page generator did not build"

phase swift-tests
ONTHEMAP_TEST_REQUIRE_POSTGRES=1 bash scripts/with-postgres.sh bash scripts/swift-test-passes.sh "$swift" parallel \
    || fail "the parallel or command-line Swift pass failed"

phase e2e
bash Tests/e2e/run.sh "$bin" || fail "the end-to-end suite failed"

phase server-process-tests
wait "$release"
built=$?
release=
echo "== release build finished at $(date +%s)"
if [ "$built" -ne 0 ]; then
    cat "$release_log"
    fail "make release failed"
fi
ONTHEMAP_TEST_REQUIRE_POSTGRES=1 bash scripts/with-postgres.sh bash scripts/swift-test-passes.sh "$swift" alone \
    || fail "the server-process Swift pass failed"

phase packages
release_bin=$("$swift" build $RELEASE_FLAGS --show-bin-path)
terminals_log=$release_scratch/terminals.log
python3 Tests/terminals/real_terminals.py "$release_bin/onthemap" --jobs 3 --shots "$release_scratch/terminal-shots" \
    >"$terminals_log" 2>&1 &
terminals=$!
"$make" test-packages
packaged=$?
wait "$terminals"
shown=$?
cat "$terminals_log"
summary=$(tail -n 1 "$terminals_log")
echo "terminals: $summary"
[ "$packaged" -eq 0 ] || fail "the packaging test failed"
[ "$shown" -eq 0 ] || fail "the real-terminal test failed (screenshots in $release_scratch/terminal-shots)"
case $summary in
*" 0 skipped") ;;
*) fail "a terminal could not start (make test installs every one: Tests/terminals/README.md)" ;;
esac
