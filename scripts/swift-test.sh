#!/usr/bin/env bash
# Runs `swift test --skip-build` and, when it fails, repeats what failed at the very end of the
# output, so that a CI log's tail names the failing test and its expectation.
#
#   scripts/swift-test.sh SWIFT [ARG…]      (e.g. scripts/swift-test.sh swift --filter QueryTests)
set -uo pipefail
swift=$1
shift
log=$(mktemp /tmp/onthemap-swift-test.XXXXXX)
trap 'rm -f "$log"' EXIT
"$swift" test --skip-build "$@" 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
if [ "$status" -ne 0 ]; then
    echo
    echo "== swift test failed (exit $status); what failed:"
    grep -E "✘ Test .*(recorded an issue|failed)|: error: |Fatal error|Crash|signal [0-9]+" "$log" | grep -v "✘ Test run with" | head -40
fi
exit "$status"
