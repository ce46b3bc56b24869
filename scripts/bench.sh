#!/usr/bin/env bash
# Release-builds and runs the benchmarks (make bench). Exits non-zero when a figure is over budget.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
swift build -c release --product onthemap-bench
"$(swift build -c release --show-bin-path)/onthemap-bench" "$@"
