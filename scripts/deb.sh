#!/usr/bin/env bash
# Builds the onthemap and onthemap-server Debian packages with dpkg-deb from the release
# executables (`make release`): the files `make install` installs (scripts/install-files.sh),
# split between the two packages, plus the copyright, changelog, the server's systemd unit
# (made from Docs/onthemap-server.service), its system user (postinst), /etc/default/onthemap-server
# (0600, a conffile) and /var/lib/onthemap-server. Depends come from dpkg-shlibdeps.
#
#   scripts/deb.sh RELEASE_BIN_DIR OUTPUT_DIR      → OUTPUT_DIR/onthemap_<v>_<arch>.deb, …
set -euo pipefail

bin=$1 out=$2
here=$(cd "$(dirname "$0")/.." && pwd)
packaging="$here/packaging"
version=$(dpkg-parsechangelog -l "$packaging/changelog" -S Version)
arch=$(dpkg --print-architecture)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"
rm -f "$out"/onthemap_*.deb "$out"/onthemap-server_*.deb

# Everything `make install` installs, under /usr.
"$here/scripts/install-files.sh" "$bin" "$work/all" /usr
strip --strip-unneeded --remove-section=.comment --remove-section=.note "$work/all/usr/bin/"*

# Moves the files of one program from the full tree into a package's tree.
take() {
    local package=$1 program=$2 root="$work/$1"
    for path in usr/bin/$program usr/share/man/man1/$program.1.gz \
        usr/share/bash-completion/completions/$program usr/share/zsh/vendor-completions/_$program \
        usr/share/fish/vendor_completions.d/$program.fish; do
        install -D -m "$(stat -c %a "$work/all/$path")" "$work/all/$path" "$root/$path"
    done
    install -d "$root/usr/share/doc/$package"
    install -m 0644 "$packaging/copyright" "$here/ATTRIBUTION.md" "$root/usr/share/doc/$package/"
    gzip -9n < "$packaging/changelog" > "$root/usr/share/doc/$package/changelog.gz"
    chmod 0644 "$root/usr/share/doc/$package/changelog.gz"
}

take onthemap onthemap
install -m 0644 "$here/README.md" "$work/onthemap/usr/share/doc/onthemap/"
# The detailed map belongs to the app (the server draws no maps).
install -D -m 0644 "$work/all/usr/share/onthemap/detail.otmd" "$work/onthemap/usr/share/onthemap/detail.otmd"
take onthemap-server onthemap-server
server="$work/onthemap-server"

# The unit of Docs/onthemap-server.service with the package's paths and user; each change is
# checked, so that an edit of the unit cannot silently leave /usr/local in the package.
unit="$server/lib/systemd/system/onthemap-server.service"
install -d "$(dirname "$unit")"
{
    echo "# Installed by the onthemap-server package. Change it with: systemctl edit onthemap-server"
    echo "# Secrets and the database URL: /etc/default/onthemap-server (see Docs/Operations.md)."
    sed -e '1,/^\[Unit\]/{/^\[Unit\]/!d}' \
        -e 's#/usr/local/bin/onthemap-server#/usr/bin/onthemap-server#' \
        -e 's#/etc/onthemap/server.env#/etc/default/onthemap-server#' \
        -e 's#/var/lib/onthemap/#/var/lib/onthemap-server/#' \
        -e 's#^StateDirectory=onthemap$#StateDirectory=onthemap-server#' \
        -e 's#^User=onthemap$#User=onthemap-server#' -e 's#^Group=onthemap$#Group=onthemap-server#' \
        "$here/Docs/onthemap-server.service"
} > "$unit"
chmod 0644 "$unit"
for expected in '^ExecStart=/usr/bin/onthemap-server serve ' '^EnvironmentFile=-/etc/default/onthemap-server$' \
    '^Environment=DATABASE_URL=/var/lib/onthemap-server/server.sqlite$' '^User=onthemap-server$' \
    '^StateDirectory=onthemap-server$'; do
    grep -q "$expected" "$unit" || { echo "deb.sh: the packaged unit lacks $expected" >&2; exit 1; }
done
if grep -q '/usr/local\|/var/lib/onthemap/\|/etc/onthemap/' "$unit"; then
    echo "deb.sh: the packaged unit still names a hand-install path" >&2
    exit 1
fi

install -D -m 0600 "$packaging/onthemap-server/default" "$server/etc/default/onthemap-server"
install -d "$server/var/lib/onthemap-server"
install -D -m 0644 "$packaging/onthemap-server.lintian-overrides" "$server/usr/share/lintian/overrides/onthemap-server"
install -D -m 0644 "$packaging/onthemap.lintian-overrides" "$work/onthemap/usr/share/lintian/overrides/onthemap"
install -d "$server/DEBIAN"
for script in postinst prerm postrm; do
    install -m 0755 "$packaging/onthemap-server/$script" "$server/DEBIAN/$script"
done
echo /etc/default/onthemap-server > "$server/DEBIAN/conffiles"

# The shared libraries each executable needs, as Depends (dpkg-shlibdeps wants a debian/control).
depends() {
    local scratch="$work/shlibs"
    mkdir -p "$scratch/debian"
    printf 'Source: onthemap\n\nPackage: onthemap\nArchitecture: any\n' > "$scratch/debian/control"
    (cd "$scratch" && dpkg-shlibdeps -O "$1" 2>/dev/null) | sed -n 's/^shlibs:Depends=//p'
}

for package in onthemap onthemap-server; do
    root="$work/$package"
    install -d "$root/DEBIAN"
    (cd "$root" && find . -type f ! -path './DEBIAN/*' ! -path './etc/*' -printf '%P\0' | sort -z | xargs -0 md5sum) \
        > "$root/DEBIAN/md5sums"
    size=$(du -k -s --exclude=DEBIAN "$root" | cut -f1)
    sed -e "s/@VERSION@/$version/" -e "s/@ARCH@/$arch/" -e "s/@SIZE@/$size/" \
        -e "s/@DEPENDS@/$(depends "$root/usr/bin/$package")/" "$packaging/$package.control" > "$root/DEBIAN/control"
    chmod 0644 "$root/DEBIAN/control" "$root/DEBIAN/md5sums"
    [ -f "$root/DEBIAN/conffiles" ] && chmod 0644 "$root/DEBIAN/conffiles"
    find "$root" -type d -exec chmod 0755 {} +
    dpkg-deb --root-owner-group -Zgzip --build "$root" "$out/${package}_${version}_${arch}.deb" >/dev/null
    echo "$out/${package}_${version}_${arch}.deb"
done
