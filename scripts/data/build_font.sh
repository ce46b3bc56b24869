#!/usr/bin/env bash
# Regenerates Sources/WorldMap/Generated/LabelFontGlyphs.swift (the names on pictures of the map) from
# a pinned input: Debian bookworm's console-setup-linux 1.221, its Uni2-TerminusBold16.psf.gz
# (Terminus, SIL Open Font License 1.1). Needs apt. The normal build and tests never run this.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
deb_version="1.221"
deb_sha256="65fac4777b0d36e48d90c577ba296c9ceeb051210aa1bf405925e2bf6bc6fecd"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
chmod 777 "$work"
(cd "$work" && apt-get download "console-setup-linux=$deb_version" >/dev/null 2>&1) || {
    echo "apt-get download failed; run 'apt-get update' first" >&2
    exit 1
}
deb="$(ls "$work"/console-setup-linux_*.deb)"
echo "$deb_sha256  $deb" | sha256sum -c - >/dev/null
dpkg-deb -x "$deb" "$work/deb"
python3 "$here/build_font.py" --psf "$work/deb/usr/share/consolefonts/Uni2-TerminusBold16.psf.gz" --out-root "$root"
