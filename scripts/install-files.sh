#!/usr/bin/env bash
# Installs the two release executables and everything that goes with them — man pages generated
# from the argument parser, bash/zsh/fish completions, the data attribution, the detailed map — under a prefix.
# `make install` and `make deb` both call it, so the package and a hand install hold the same files.
#
#   scripts/install-files.sh RELEASE_BIN_DIR DESTDIR PREFIX
#   scripts/install-files.sh --manual-tool      (only builds the man page generator: make test does
#                                                it beside its release build, off the packaging step)
#
# The man pages come from swift-argument-parser's own generator (Tools/generate-manual, the tool
# its `generate-manual` plugin runs), built once from the checkout into .build/generate-manual and
# run on the release binaries, so that no second release build is needed.
set -euo pipefail

here=$(cd "$(dirname "$0")/.." && pwd)
swift=${SWIFT:-swift}

manual_tool() {
    local package="$here/.build/checkouts/swift-argument-parser"
    local scratch="$here/.build/generate-manual"
    [ -d "$package" ] || "$swift" package --package-path "$here" resolve >&2
    "$swift" build --package-path "$package" --scratch-path "$scratch" --product generate-manual >&2
    echo "$("$swift" build --package-path "$package" --scratch-path "$scratch" --show-bin-path)/generate-manual"
}

if [ "${1:-}" = --manual-tool ]; then
    manual_tool >/dev/null
    exit
fi

bin=$1 destdir=$2 prefix=$3
root="$destdir$prefix"
install -d "$root/bin" "$root/share/man/man1" "$root/share/doc/onthemap" \
    "$root/share/bash-completion/completions" "$root/share/zsh/vendor-completions" \
    "$root/share/fish/vendor_completions.d" "$root/share/onthemap"
install -m 0755 "$bin/onthemap" "$bin/onthemap-server" "$root/bin/"
install -m 0644 "$here/ATTRIBUTION.md" "$here/README.md" "$root/share/doc/onthemap/"
# The detailed map (GSHHG, LGPL): read at run time from <bin>/../share/onthemap (DetailMapLocation).
install -m 0644 "$here/MapData/detail.otmd" "$root/share/onthemap/"

tool=$(manual_tool)
# The date of the last commit, so that two builds of one commit give the same pages.
date=$(git -C "$here" log -1 --format=%cs 2>/dev/null || date -u +%F)
pages=$(mktemp -d)
trap 'rm -rf "$pages"' EXIT
for program in onthemap onthemap-server; do
    "$tool" "$root/bin/$program" --output-directory "$pages" --date "$date" --section 1
    gzip -9n < "$pages/$program.1" > "$root/share/man/man1/$program.1.gz"
    chmod 0644 "$root/share/man/man1/$program.1.gz"
    # bash-completion sources the file: no #! line (lintian: bash-completion-with-hashbang).
    "$root/bin/$program" --generate-completion-script bash | sed '1{/^#!/d}' \
        > "$root/share/bash-completion/completions/$program"
    "$root/bin/$program" --generate-completion-script zsh > "$root/share/zsh/vendor-completions/_$program"
    "$root/bin/$program" --generate-completion-script fish > "$root/share/fish/vendor_completions.d/$program.fish"
done
chmod 0644 "$root/share/bash-completion/completions/"* "$root/share/zsh/vendor-completions/"* \
    "$root/share/fish/vendor_completions.d/"*
