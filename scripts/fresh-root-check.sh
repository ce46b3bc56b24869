#!/usr/bin/env bash
# Proves README's two commands on a fresh Debian: bootstraps a minimal bookworm root that has
# nothing but Swift's documented dependencies, shows it this machine's Swift toolchain and Swift
# package mirror, clones the repository into it and, as root under chroot, times `make test`
# (split into its phases, with the test counts) and a scripted `make run` (log in with the demo
# account, wait for "100 locations", quit). Run by hand or in a long job, as root; `make test`
# does not run it.
#
#   scripts/fresh-root-check.sh [OPTION…]
#
#   --root DIR               the root (default /var/tmp/onthemap-fresh-root); deleted and unpacked
#                            again from the pristine base (DIR.base.tar) before every run
#   --reuse-base             start from the base an earlier call left in DIR.base.tar instead of
#                            bootstrapping again (when it holds this script's package list)
#   --runs N                 `make test` N times in a row, each in a fresh clone in a pristine root
#                            (default 1; 0: none)
#   --no-make-run            no scripted `make run`
#   --commit REV             the commit to clone (default HEAD of the repository this script is in)
#   --setup-only             stop after the clone (the root stays in DIR, unmounted)
#   --shell                  with --setup-only: a login shell in the mounted root before it stops
#   --logs DIR               where the logs go (default /var/tmp/onthemap-fresh-root-logs/DATE-TIME)
#   --make-run-timeout SECS  how long `make run` may take to show "100 locations" (default 3600)
#
# Prints the figures at the end, and the tail of a failing run's log. Exits 0 when all passed.
set -euo pipefail

SWIFT_DIR=/opt/swift
PACKAGES_DIR=/opt/swift-packages
MIRROR=http://deb.debian.org/debian
SECURITY_MIRROR=http://deb.debian.org/debian-security
# Swift's dependencies on Debian 12: the `apt-get install` of the official Swift image for this
# machine's toolchain (swiftlang/swift-docker, 6.3/debian/12/Dockerfile), installed as it installs
# them, with apt's recommends. swift.org's tarball instructions for Debian 12 list the same with
# binutils-gold (a name binutils provides on bookworm) and without libstdc++-12-dev, which
# --static-swift-stdlib links (-lstdc++ in usr/lib/swift_static/linux/static-stdlib-args.lnk).
SWIFT_DEPENDENCIES=(binutils libicu-dev libcurl4-openssl-dev libedit-dev libsqlite3-dev libncurses-dev
    libpython3-dev libxml2-dev pkg-config uuid-dev tzdata git gcc libstdc++-12-dev)
# What README's "with Swift 6.x installed" leaves out and Swift's dependencies do not bring: make.
# Installed beside them, as README's reader would have to.
README_ALSO_NEEDS=(make)
DEMO_EMAIL=demo@onthemap.example
DEMO_PASSWORD=onthemap
# Every command in the root runs as root's login would, with Swift on PATH as on this machine,
# CI=true, and a UTF-8 locale (the installer sets one; C.UTF-8 needs no locales package).
ROOT_ENV=(HOME=/root USER=root LOGNAME=root SHELL=/bin/bash LANG=C.UTF-8 CI=true
    "PATH=$SWIFT_DIR/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin")
# In the top folder of every root this script makes: it deletes no folder without it.
MARKER=.onthemap-fresh-root

root=/var/tmp/onthemap-fresh-root
reuse_base=false runs=1 make_run=true rev=HEAD setup_only=false shell=false
logs=/var/tmp/onthemap-fresh-root-logs/$(date +%Y%m%d-%H%M%S)
run_timeout=3600

usage() { sed -n '2,/^set -euo/{/^#/s/^# \{0,1\}//p}' "$0"; }
die() { echo "fresh-root-check: $*" >&2; exit 1; }

while [ $# -gt 0 ]; do
    case $1 in
        --root) root=${2:?--root needs a folder}; shift 2 ;;
        --reuse-base) reuse_base=true; shift ;;
        --runs) runs=${2:?--runs needs a number}; shift 2 ;;
        --no-make-run) make_run=false; shift ;;
        --commit) rev=${2:?--commit needs a revision}; shift 2 ;;
        --setup-only) setup_only=true; shift ;;
        --shell) shell=true; shift ;;
        --logs) logs=${2:?--logs needs a folder}; shift 2 ;;
        --make-run-timeout) run_timeout=${2:?--make-run-timeout needs seconds}; shift 2 ;;
        -h | --help) usage; exit 0 ;;
        *) usage >&2; die "unknown option $1" ;;
    esac
done
[[ $runs =~ ^[0-9]+$ ]] || die "--runs takes a number, not $runs"
[[ $run_timeout =~ ^[0-9]+$ ]] || die "--make-run-timeout takes seconds, not $run_timeout"
$shell && ! $setup_only && die "--shell goes with --setup-only"
[ "$(id -u)" = 0 ] || die "needs root (debootstrap, mount, chroot)"
[ -x "$SWIFT_DIR/usr/bin/swift" ] || die "no Swift toolchain in $SWIFT_DIR"
[ -d "$PACKAGES_DIR" ] || die "no package mirror in $PACKAGES_DIR"
git_urls=$(git config --system --get-regexp '^url\.') || die "no url.*.insteadOf in /etc/gitconfig"

repo=$(git -C "$(dirname "${BASH_SOURCE[0]}")" rev-parse --show-toplevel)
commit=$(git -C "$repo" rev-parse --verify --quiet "$rev^{commit}") || die "no commit $rev in $repo"
root=$(realpath -m "$root")
[ "$root" != / ] || die "--root / would delete the machine"
base=$root.base.tar
base_packages=$root.base.packages
mkdir -p "$logs"
logs=$(realpath "$logs")
# One call at a time per root: a second would delete the first one's root under it.
exec 9>"$root.lock"
flock -n 9 || die "another fresh-root-check is using $root"

now() { date +%s.%N; }
seconds() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.1f", b - a }'; }  # seconds FROM TO
minutes() { printf '%d:%02d' $(($1 / 60)) $(($1 % 60)); }                  # minutes SECONDS

install_on_host() {  # install_on_host PROGRAM…: apt-installs the missing ones on this machine
    local missing=() program
    for program in "$@"; do
        command -v "$program" >/dev/null || missing+=("$program")
    done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "Installing on this machine: ${missing[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

in_root() { chroot "$root" /usr/bin/env -i "${ROOT_ENV[@]}" "$@"; }  # in_root [NAME=VALUE…] COMMAND…

## Mounts. mount_root records each mount point as it mounts it; unmount_root undoes them in reverse.
mounted=()
mount_at() {  # mount_at TARGET MOUNT-ARGUMENT…
    local target=$1
    shift
    mkdir -p "$target"
    mount "$@" "$target"
    mounted+=("$target")
}
mount_root() {
    mount_at "$root/proc" -t proc proc
    mount_at "$root/sys" -t sysfs sysfs
    mount_at "$root/dev" --bind /dev
    mount --make-private "$root/dev"  # so that the mounts below stay out of this machine's /dev
    mount_at "$root/dev/pts" --bind /dev/pts
    # PostgreSQL's shared memory: /dev/shm is a tmpfs of its own on an installed system.
    mount_at "$root/dev/shm" -t tmpfs -o mode=1777,nosuid,nodev tmpfs
    local dir
    for dir in "$SWIFT_DIR" "$PACKAGES_DIR"; do
        mount_at "$root$dir" --bind "$dir"
        mount -o remount,bind,ro "$root$dir"
    done
}
unmount_root() {
    local i
    for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do
        umount "${mounted[i]}" 2>/dev/null || umount --lazy "${mounted[i]}" || true
    done
    mounted=()
}
mounts_under_root() { findmnt -rn -o TARGET | awk -v root="$root" '$0 == root || index($0, root "/") == 1'; }

# Processes whose root is the chroot (a server a test left behind, the app) are stopped before
# the unmount, and named: something left running is worth knowing. Only this script starts them.
stop_root_processes() {
    local signal proc pids
    for signal in TERM KILL; do
        pids=()
        for proc in /proc/[0-9]*; do
            if [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ]; then pids+=("${proc#/proc/}"); fi
        done
        [ ${#pids[@]} -eq 0 ] && return 0
        echo "Stopping what was left running in the root (SIG$signal):" \
            "$(ps -o comm= -p "$(IFS=,; echo "${pids[*]}")" | sort | uniq -c | xargs)"
        kill "-$signal" "${pids[@]}" 2>/dev/null || true
        sleep 2
    done
}

tmux_socket=""
leave_root() {  # stops what runs in the root, unmounts it, and fails when anything stays mounted
    if [ -n "$tmux_socket" ]; then
        tmux -L "$tmux_socket" kill-server 2>/dev/null || true
        tmux_socket=""
    fi
    stop_root_processes
    unmount_root
    local left
    left=$(mounts_under_root)
    [ -z "$left" ] || { echo "fresh-root-check: still mounted under $root:"$'\n'"$left" >&2; return 1; }
}

current_log=""
on_exit() {
    local status=$?
    set +e
    leave_root || status=1
    if [ "$status" -ne 0 ] && [ -f "$current_log" ]; then
        echo "fresh-root-check: failed; the end of $current_log:" >&2
        tail -n 40 "$current_log" | sed 's/^/    /' >&2
    fi
    exit "$status"
}
trap on_exit EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

## The root.

clear_root() {  # an empty $root, after checking that it is one of ours and that nothing is mounted in it
    [ -z "$(mounts_under_root)" ] || die "something is mounted under $root; not deleting it"
    if [ -d "$root" ] && [ -n "$(ls -A "$root")" ] && [ ! -e "$root/$MARKER" ]; then
        die "$root is not a root this script made; not deleting it"
    fi
    rm -rf --one-file-system "$root"
    mkdir -p "$root"
}

base_description() {  # what the base holds: compared with $base_packages for --reuse-base
    echo "debootstrap --variant=minbase bookworm $MIRROR (+ bookworm-updates, bookworm-security)"
    printf '%s\n' "${SWIFT_DEPENDENCIES[@]}" + "${README_ALSO_NEEDS[@]}"
}

# The pristine base: debootstrap's minbase, the suites an installed system has, no service
# starts, Swift's dependencies (and make). Kept as a tar file that every run unpacks afresh.
build_base() {
    local log=$logs/base.log started bootstrapped installed
    current_log=$log
    install_on_host debootstrap
    clear_root
    touch "$root/$MARKER"
    started=$(now)
    echo "Bootstrapping bookworm (minbase) into $root (log: $log)…"
    debootstrap --variant=minbase bookworm "$root" "$MIRROR" >"$log" 2>&1
    bootstrapped=$(now)
    cat >"$root/etc/apt/sources.list" <<EOF
deb $MIRROR bookworm main
deb $MIRROR bookworm-updates main
deb $SECURITY_MIRROR bookworm-security main
EOF
    # Package scripts ask invoke-rc.d before starting a service (postgresql starts its cluster),
    # and invoke-rc.d asks policy-rc.d: 101 is "not allowed". Nothing runs in the root unasked.
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    echo "Installing Swift's dependencies in the root: ${SWIFT_DEPENDENCIES[*]}; and ${README_ALSO_NEEDS[*]}"
    mount_root
    {
        in_root apt-get -q update
        in_root DEBIAN_FRONTEND=noninteractive apt-get -q install -y "${SWIFT_DEPENDENCIES[@]}"
        in_root DEBIAN_FRONTEND=noninteractive apt-get -q install -y "${README_ALSO_NEEDS[@]}"
        in_root apt-get clean
    } >>"$log" 2>&1
    installed=$(now)
    leave_root
    # As the image does: no package lists, so the first apt-get update in a run is a real one.
    rm -rf "$root"/var/lib/apt/lists/*
    tar -C "$root" --numeric-owner -cpf "$base.partial" .
    mv "$base.partial" "$base"
    base_description >"$base_packages"
    base_figures="built in $(seconds "$started" "$(now)") s (debootstrap $(seconds "$started" "$bootstrapped") s, the packages $(seconds "$bootstrapped" "$installed") s)"
    echo "Base $base $base_figures"
    current_log=""
}

# A run's set-up: the root unpacked from the base, this machine's Swift and package mirror
# visible in it as here (same paths, read-only; the url.insteadOf lines of /etc/gitconfig; Swift
# on PATH in login shells too), mounted, a fresh clone of $commit in /root/onthemap (a real clone:
# no .build), and a check that Swift runs and the mirror answers inside.
setup_run() {
    local started
    started=$(now)
    clear_root
    tar -C "$root" --numeric-owner -xpf "$base"
    echo "== root deleted and unpacked from $base in $(seconds "$started" "$(now)") s"
    cp -L /etc/resolv.conf "$root/etc/resolv.conf"
    local key value
    while read -r key value; do
        git config --file "$root/etc/gitconfig" --add "$key" "$value"
    done <<<"$git_urls"
    echo "export PATH=$SWIFT_DIR/usr/bin:\$PATH" >"$root/etc/profile.d/swift.sh"
    mount_root
    git clone --quiet --no-hardlinks "$repo" "$root/root/onthemap"
    git -C "$root/root/onthemap" checkout --quiet --detach "$commit"
    in_root swift --version
    in_root git ls-remote https://github.com/apple/swift-log.git HEAD
    echo "== set up in $(seconds "$started" "$(now)") s"
}

## make test

results=()  # one line of figures per run
failed=0

phase_seconds() {  # phase_seconds LOG START END: deps build swift-tests e2e server-process-tests packages ("-": not reached)
    awk -v start="$2" -v end="$3" '
        BEGIN { n = split("deps build swift-tests e2e server-process-tests packages", name, " "); at["deps"] = start }
        /^== phase [a-z0-9-]+ started at [0-9]+$/ { at[$3] = $6 }
        END {
            for (i = 1; i <= n; i++) {
                if (!(name[i] in at)) { printf "- "; continue }
                stop = end
                for (j = i + 1; j <= n; j++) if (name[j] in at) { stop = at[name[j]]; break }
                printf "%d ", stop - at[name[i]]
            }
        }' "$1"
}

# The Swift tests' count: Swift Testing's "Test run with N tests … passed|failed" line of each
# `swift test` pass, and XCTest's "Executed N tests" under its top suite ("All tests" or
# "Selected tests": the per-suite lines above it would count twice).
swift_test_count() {
    awk '
        /Test run with [0-9]+ tests? / {
            n = $0; sub(/.*Test run with /, "", n); sub(/ .*/, "", n)
            tests += n; passes++; if ($0 ~ / failed /) failing++
        }
        /^Test Suite .(All tests|Selected tests). (passed|failed)/ { top = 1; next }
        top && /Executed [0-9]+ tests?/ {
            n = $0; sub(/.*Executed /, "", n); sub(/ .*/, "", n); xctests += n; top = 0
        }
        END {
            if (!passes) { printf "-"; exit }
            printf "%d tests in %d passes, %s", tests, passes, failing ? failing " failed" : "all passed"
            if (xctests) printf "; XCTest %d", xctests
        }' "$1"
}

run_make_test() {  # run_make_test N
    local log=$logs/run-$1.log started ended result phases
    current_log=$log
    echo "Run $1: set-up, then make test (log: $log)…"
    setup_run >"$log" 2>&1
    started=$(date +%s)
    echo "== make test started at $started" >>"$log"
    if in_root sh -c 'cd /root/onthemap && exec make test' </dev/null >>"$log" 2>&1; then
        result=pass
    else
        result=FAIL
        failed=$((failed + 1))
    fi
    ended=$(date +%s)
    echo "== make test ended at $ended: $result" >>"$log"
    leave_root >>"$log" 2>&1
    grep '^Stopping what was left' "$log" || true
    current_log=""
    read -ra phases <<<"$(phase_seconds "$log" "$started" "$ended")"
    local e2e packages terminals
    e2e=$(grep -E '^[0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
    packages=$(grep -E '^packages: [0-9]+ passed, [0-9]+ failed$' "$log" | tail -n 1 || true)
    packages=${packages#packages: }
    terminals=$(grep -E '^terminals: [0-9]+ passed, [0-9]+ failed, [0-9]+ skipped$' "$log" | tail -n 1 || true)
    terminals=${terminals#terminals: }
    results+=("$(printf '%-4s %-6s %9s  %6s %7s %11s %6s %9s %8s   %-38s %-20s %-20s %s' "$1" "$result" \
        "$(minutes $((ended - started)))" "${phases[@]}" "$(swift_test_count "$log")" \
        "${e2e:--}" "${packages:--}" "${terminals:--}")")
    echo "Run $1: $result in $(minutes $((ended - started)))"
    if [ "$result" = FAIL ]; then
        echo "The end of $log:"
        tail -n 40 "$log" | sed 's/^/    /'
    fi
}

## make run, scripted: in tmux, as a person would type it.

make_run_result=""
pane_text() { tmux -L "$tmux_socket" capture-pane -p -t run "$@" | sed -e :a -e '/^\n*$/{$d;N;ba' -e '}'; }
wait_for_screen() {  # wait_for_screen TEXT DEADLINE: 0 once the pane shows TEXT; 1 at DEADLINE or when make run ended
    local shown
    while :; do
        shown=$(pane_text)
        [[ $shown == *"$1"* ]] && return 0
        [[ $shown == *"[make run exit "* ]] && return 1
        [ "$(date +%s)" -lt "$2" ] || return 1
        sleep 0.5
    done
}

scripted_make_run() {
    local log=$logs/make-run.log started deadline login_at listed_at pane outcome=""
    current_log=$log
    echo "make run: set-up, then make run in tmux (log: $log)…"
    setup_run >"$log" 2>&1
    tmux_socket=onthemap-fresh-root-$$
    # tmux runs on this machine and its pane enters the root: tmux is no dependency of `make run`,
    # and installing it in the root would let `make run` lean on what it does not install.
    pane=$(printf '%q ' chroot "$root" /usr/bin/env -i "${ROOT_ENV[@]}" TERM=tmux-256color \
        sh -c 'cd /root/onthemap && exec make run')
    pane+='; echo "[make run exit $?]"; sleep 86400'
    started=$(now)
    deadline=$(($(date +%s) + run_timeout))
    tmux -L "$tmux_socket" -f /dev/null start-server \; set-option -g history-limit 100000 \; \
        new-session -d -s run -x 160 -y 45 "$pane" 9>&-  # the server keeps no copy of the lock
    if ! wait_for_screen "log in with $DEMO_EMAIL" "$deadline"; then
        outcome="no login screen within $run_timeout s"
    else
        login_at=$(now)
        tmux -L "$tmux_socket" send-keys -t run -l "$DEMO_EMAIL"
        tmux -L "$tmux_socket" send-keys -t run Tab
        tmux -L "$tmux_socket" send-keys -t run -l "$DEMO_PASSWORD"
        tmux -L "$tmux_socket" send-keys -t run Enter
        if ! wait_for_screen "100 locations" "$deadline"; then
            outcome="no \"100 locations\" within $run_timeout s"
        else
            listed_at=$(now)
            tmux -L "$tmux_socket" send-keys -t run q
            wait_for_screen "[make run exit 0]" $(($(date +%s) + 60)) || outcome="no clean exit after q"
        fi
    fi
    {
        echo "== the pane's history"
        pane_text -J -S - -E -
        echo "== the pane at the end"
        pane_text
    } >>"$log"
    leave_root >>"$log" 2>&1
    grep '^Stopping what was left' "$log" || true
    current_log=""
    if [ -z "$outcome" ]; then
        make_run_result="pass — login screen after $(seconds "$started" "$login_at") s, \"100 locations\" after $(seconds "$started" "$listed_at") s ($(seconds "$login_at" "$listed_at") s after the login screen)"
    else
        make_run_result="FAIL — $outcome"
        failed=$((failed + 1))
        echo "make run failed: $outcome. The end of $log:"
        tail -n 40 "$log" | sed 's/^/    /'
    fi
    echo "make run: $make_run_result"
}

## Main.

echo "Fresh-root check of $(git -C "$repo" log -1 --format='%h %s' "$commit" | cut -c1-100)"
echo "Root: $root   Logs: $logs"
[ -z "$(git -C "$repo" status --porcelain)" ] || echo "(uncommitted changes in $repo are not in the clone)"

base_figures=""
if $reuse_base && [ -f "$base" ] && [ "$(cat "$base_packages" 2>/dev/null)" = "$(base_description)" ]; then
    base_figures="reused (made $(date -r "$base" '+%Y-%m-%d %H:%M'))"
    echo "Base $base $base_figures"
else
    $reuse_base && echo "No base with this package list in $base: bootstrapping one."
    build_base
fi

if $setup_only; then
    current_log=$logs/setup.log
    echo "Set-up only (log: $current_log)…"
    setup_run >"$current_log" 2>&1
    grep -E '^Swift version|^== set up' "$current_log"
    if $shell; then
        echo "A login shell in the root; exit it to unmount."
        in_root "TERM=${TERM:-dumb}" bash --login
    fi
    leave_root
    current_log=""
    echo "The root stays in $root, unmounted, with the clone in /root/onthemap; nothing is mounted under it."
    exit 0
fi

$make_run && install_on_host tmux
for ((run = 1; run <= runs; run++)); do
    run_make_test "$run"
done
$make_run && scripted_make_run

echo
echo "== Fresh-root figures ($(git -C "$repo" log -1 --format=%h "$commit"); base $base_figures; logs in $logs)"
if [ "$runs" -gt 0 ]; then
    printf '%-4s %-6s %9s  %6s %7s %11s %6s %9s %8s   %-38s %-20s %-20s %s\n' run result "make test" deps build \
        swift-tests e2e "sp-tests" packages "Swift tests" e2e packages terminals
    printf '%s\n' "${results[@]}"
    echo "(make test's wall time in m:ss; its phases in seconds, from scripts/test-all.sh's \"== phase\" lines;"
    echo " swift-tests: the parallel and command-line passes; sp-tests: the server-process pass, after the release build;"
    echo " packages: the packaging test and, beside it, the real terminals)"
fi
$make_run && echo "make run: $make_run_result"
echo "Nothing is left mounted under $root."
[ "$failed" -eq 0 ]
