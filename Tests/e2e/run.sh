#!/usr/bin/env bash
# End-to-end tests of the terminal app: the real onthemap-server on loopback and the real
# onthemap binary inside tmux, driven with send-keys and read with capture-pane.
# Usage: Tests/e2e/run.sh <bin-dir>   (the output of `swift build --show-bin-path`)
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
command -v tmux >/dev/null || { echo "tmux is missing (make deps installs it)"; echo "0 passed, 1 failed"; exit 1; }
exec python3 "$here/e2e.py" "${1:?usage: run.sh <bin-dir>}"
