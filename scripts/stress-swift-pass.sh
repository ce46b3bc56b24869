#!/usr/bin/env bash
# The stress check of #35: the Swift passes that run suites in parallel (as
# scripts/swift-test-passes.sh runs them: every suite but the command-line and server-process
# ones, then the command-line suites) N times in a row on a loaded machine — HOGS processes
# that keep a core busy each beside it — on a throwaway PostgreSQL cluster. It runs a copy of the
# built test runner and the two programs it starts, so a build meanwhile changes nothing under
# it. Prints each run's result and time, and "N passed, N failed" at the end. Not run by
# `make test` (it takes the better part of an hour); run it after `swift build --build-tests`.
#
#   scripts/stress-swift-pass.sh [RUNS] [HOGS]      (default 10 runs, 2 hogs)
set -euo pipefail
runs=${1:-10}
hogs=${2:-2}
root=$(cd "$(dirname "$0")/.." && pwd)
built=$(cd "$root" && swift build --show-bin-path)
copy=$(mktemp -d /tmp/onthemap-stress.XXXXXX)
logs=$copy/logs
mkdir -p "$logs"
hog_pids=()
cleanup() {
    for pid in "${hog_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    rm -rf "${copy:?}/bin"
}
trap cleanup EXIT

# The runner finds onthemap and onthemap-server beside itself (ProductBinary), and GRDB its
# resources.
mkdir -p "$copy/bin"
cp -a "$built/onthemapPackageTests.xctest" "$built/onthemap" "$built/onthemap-server" "$copy/bin/"
for resources in "$built"/*.resources; do [ -e "$resources" ] && cp -a "$resources" "$copy/bin/"; done

for _ in $(seq "$hogs"); do
    # A busy loop with no output: a core's worth of load each.
    (while :; do :; done) &
    hog_pids+=($!)
done

passed=0
failed=0
for run in $(seq "$runs"); do
    started=$(date +%s)
    runner=("$copy/bin/onthemapPackageTests.xctest" --testing-library swift-testing)
    # Both passes on one PostgreSQL cluster, as `make test` runs them.
    # shellcheck disable=SC2016  # $@ is the inner shell's
    if ONTHEMAP_TEST_REQUIRE_POSTGRES=1 bash "$root/scripts/with-postgres.sh" bash -c \
        '"$@" --skip ServerProcessTests --skip OnTheMapCLITests && "$@" --filter OnTheMapCLITests' _ "${runner[@]}" \
        >"$logs/run-$run.log" 2>&1; then
        status=passed
        passed=$((passed + 1))
    else
        status=failed
        failed=$((failed + 1))
    fi
    summary=$(grep -E "Test run with [0-9]+ tests" "$logs/run-$run.log" | sed 's/^[^T]*//' | paste -sd ';' -)
    echo "run $run: $status in $(($(date +%s) - started)) s, load $(cut -d' ' -f1 /proc/loadavg): $summary"
    if [ "$status" = failed ]; then
        grep -E "recorded an issue|Fatal error|Crash|signal [0-9]+" "$logs/run-$run.log" | head -20 || true
    fi
done
echo "logs: $logs"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
