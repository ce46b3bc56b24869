#!/usr/bin/env bash
# The Swift tests in three passes (scripts/swift-test.sh each):
#   1. every suite but the command-line and server-process ones, in parallel;
#   2. the command-line suites (Tests/OnTheMapCLITests), in parallel among themselves: most of
#      them run the real `onthemap` and block their test thread until it exits, and beside the
#      view-model suites two such blocked threads are the whole cooperative pool of a 2-core
#      machine, which starves the async tests' waits (they timed out under load);
#   3. the server-process suites (Tests/ServerProcessTests: login and query floods, hundreds of
#      connections, SIGKILL/SIGTERM durability, two instances) one at a time, alone: each loads
#      the machine on purpose and measures answer times, which must not depend on what else the
#      test runner happens to schedule beside it on a 2-core machine.
#
#   scripts/swift-test-passes.sh SWIFT
set -uo pipefail
swift=$1
here=$(dirname "$0")
bash "$here/swift-test.sh" "$swift" --skip ServerProcessTests --skip OnTheMapCLITests
first=$?
bash "$here/swift-test.sh" "$swift" --filter OnTheMapCLITests
second=$?
bash "$here/swift-test.sh" "$swift" --filter ServerProcessTests --no-parallel
third=$?
if [ "$first" -ne 0 ] || [ "$second" -ne 0 ] || [ "$third" -ne 0 ]; then
    echo "== swift test: parallel pass exit $first, command-line pass exit $second, server-process pass exit $third"
    exit 1
fi
