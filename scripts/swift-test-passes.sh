#!/usr/bin/env bash
# The Swift tests in three passes (scripts/swift-test.sh each). Every child process starts
# through ChildProcess (posix_spawn) and is waited for without blocking a thread: the crashes of
# Foundation's Process, and the blocked threads, are gone. Two passes stay apart, each for a
# reason that remains:
#   1. every suite but the two below, in parallel;
#   2. the command-line suites (Tests/OnTheMapCLITests), in parallel among themselves: they run
#      the real `onthemap` against servers inside this test process, whose handlers need the
#      cooperative pool's two threads. Beside the CPU-bound suites of pass 1 (map rendering,
#      bcrypt, thousands of geocoder lookups) those handlers waited, and the binary's 15-second
#      requests timed out (device logins did, beside two CPU hogs: scripts/stress-swift-pass.sh);
#   3. the server-process suites (Tests/ServerProcessTests: login and query floods, hundreds of
#      connections, SIGKILL/SIGTERM durability, two instances) one at a time, alone: each loads
#      the machine on purpose and measures answer times, which must not depend on what else the
#      test runner happens to schedule beside it on a 2-core machine.
#
# `make test` runs passes 1 and 2 while its release build finishes beside it (a load they are
# made to bear: scripts/stress-swift-pass.sh runs them beside two CPU hogs), then pass 3 once it
# has, on a machine with nothing else to do (scripts/test-all.sh).
#
#   scripts/swift-test-passes.sh SWIFT [all|parallel|alone]   (parallel: passes 1 and 2; alone: 3)
set -uo pipefail
swift=$1
which=${2:-all}
here=$(dirname "$0")
first=0 second=0 third=0
if [ "$which" = all ] || [ "$which" = parallel ]; then
    bash "$here/swift-test.sh" "$swift" --skip ServerProcessTests --skip OnTheMapCLITests
    first=$?
    bash "$here/swift-test.sh" "$swift" --filter OnTheMapCLITests
    second=$?
fi
if [ "$which" = all ] || [ "$which" = alone ]; then
    bash "$here/swift-test.sh" "$swift" --filter ServerProcessTests --no-parallel
    third=$?
fi
if [ "$first" -ne 0 ] || [ "$second" -ne 0 ] || [ "$third" -ne 0 ]; then
    echo "== swift test: parallel pass exit $first, command-line pass exit $second, server-process pass exit $third"
    exit 1
fi
