#!/usr/bin/env bash
# The Swift tests in two passes (scripts/swift-test.sh each):
#   1. every suite but the server-process ones, in parallel. Every child process starts through
#      ChildProcess (posix_spawn) and is waited for without blocking a thread, so the command-line
#      suites run beside the rest: the pass apart that once kept them from starving the
#      cooperative pool, and Foundation's Process with its crashes, are gone;
#   2. the server-process suites (Tests/ServerProcessTests: login and query floods, hundreds of
#      connections, SIGKILL/SIGTERM durability, two instances) one at a time, alone: each loads
#      the machine on purpose and measures answer times, which must not depend on what else the
#      test runner happens to schedule beside it on a 2-core machine.
#
#   scripts/swift-test-passes.sh SWIFT
set -uo pipefail
swift=$1
here=$(dirname "$0")
bash "$here/swift-test.sh" "$swift" --skip ServerProcessTests
parallel=$?
bash "$here/swift-test.sh" "$swift" --filter ServerProcessTests --no-parallel
serial=$?
if [ "$parallel" -ne 0 ] || [ "$serial" -ne 0 ]; then
    echo "== swift test: parallel pass exit $parallel, server-process pass exit $serial"
    exit 1
fi
