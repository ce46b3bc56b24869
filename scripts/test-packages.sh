#!/usr/bin/env bash
# The packaging test of `make test`: the two .deb files `make deb` built pass lintian without
# errors, and unpacked into a temporary root their programs, man pages and completions work.
#
#   scripts/test-packages.sh DEB_DIR
set -uo pipefail

debs=$1
passed=0 failed=0
check() {  # check "what" command…
    local what=$1
    shift
    if output=$("$@" 2>&1); then
        passed=$((passed + 1))
        echo "ok    $what"
    else
        failed=$((failed + 1))
        echo "FAIL  $what"
        printf '%s\n' "$output" | sed 's/^/      /' | head -40
    fi
}

client=$(ls "$debs"/onthemap_*.deb)
server=$(ls "$debs"/onthemap-server_*.deb)
root=$(mktemp -d)
trap 'rm -rf "$root" "$root.client.lintian" "$root.server.lintian"' EXIT

# lintian on both packages at once (each keeps one core busy for about 20 s), read below.
lintian --tag-display-limit 0 "$client" > "$root.client.lintian" 2>&1 &
client_lintian=$!
lintian --tag-display-limit 0 "$server" > "$root.server.lintian" 2>&1 &
server_lintian=$!
wait "$client_lintian" "$server_lintian"

no_lintian_errors() {
    local report
    # Errors fail the check; warnings are shown (each kept one has an override or a
    # reason in the report). lintian's own "running as root" remark is dropped.
    report=$(grep -v 'root privileges' "$1")
    [ -n "$report" ] && printf '%s\n' "$report" >&2
    ! printf '%s\n' "$report" | grep -q '^E: '
}
for deb in "$client" "$server"; do
    report="$root.client.lintian"
    [ "$deb" = "$server" ] && report="$root.server.lintian"
    check "lintian: no errors in $(basename "$deb")" no_lintian_errors "$report"
    [ -n "$output" ] && printf '%s\n' "$output" | grep -v '^E: ' | sed 's/^/      /'
done

check "dpkg-deb -x both packages" bash -c "dpkg-deb -x '$client' '$root' && dpkg-deb -x '$server' '$root'"
check "onthemap --help" bash -c "'$root/usr/bin/onthemap' --help | grep -q '^USAGE: onthemap'"
check "onthemap-server --help" bash -c "'$root/usr/bin/onthemap-server' --help | grep -q '^USAGE: onthemap-server'"
check "onthemap config (unpacked, empty XDG_CONFIG_HOME)" bash -c \
    "XDG_CONFIG_HOME='$root/cfg' '$root/usr/bin/onthemap' config | grep -q '^theme  *auto  *(default)'"
for page in "$root"/usr/share/man/man1/*.1.gz; do
    check "man -l $(basename "$page")" bash -c \
        "out=\$(MANWIDTH=80 man -l '$page' 2>&1 >/dev/null); [ -z \"\$out\" ] || { echo \"\$out\"; exit 1; }; MANWIDTH=80 man -l '$page' | grep -q SYNOPSIS"
done
for script in "$root"/usr/share/bash-completion/completions/*; do
    check "bash -n $(basename "$script") completion" bash -n "$script"
done
check "zsh and fish completions present" bash -c \
    "test -s '$root/usr/share/zsh/vendor-completions/_onthemap' && test -s '$root/usr/share/fish/vendor_completions.d/onthemap-server.fish'"
check "the unit starts /usr/bin/onthemap-server as onthemap-server" bash -c \
    "grep -q '^ExecStart=/usr/bin/onthemap-server serve' '$root/lib/systemd/system/onthemap-server.service' && grep -q '^User=onthemap-server' '$root/lib/systemd/system/onthemap-server.service'"
check "/etc/default/onthemap-server is 0600 and a conffile" bash -c \
    "dpkg-deb -c '$server' | grep -q '^-rw------- root/root .* ./etc/default/onthemap-server\$' && dpkg-deb -I '$server' conffiles | grep -qx /etc/default/onthemap-server"
check "postinst creates the system user and /var/lib/onthemap-server" bash -c \
    "dpkg-deb -I '$server' postinst | grep -q 'adduser --quiet --system' && dpkg-deb -c '$server' | grep -q ' ./var/lib/onthemap-server/\$'"
check "copyright names Apache-2.0 for the code" bash -c \
    "grep -q '^License: Apache-2.0' '$root/usr/share/doc/onthemap/copyright' && grep -q 'common-licenses/Apache-2.0' '$root/usr/share/doc/onthemap-server/copyright'"
check "copyright names GeoNames CC BY 4.0 and Natural Earth" bash -c \
    "grep -q 'License: CC-BY-4.0' '$root/usr/share/doc/onthemap/copyright' && grep -q 'Natural Earth.*public' '$root/usr/share/doc/onthemap-server/copyright'"

echo "packages: $passed passed, $failed failed"
[ "$failed" = 0 ]
