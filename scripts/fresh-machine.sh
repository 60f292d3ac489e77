#!/bin/bash
# Times `make report` and `make test` as a new user has them (issue 42 item 7, docs/performance.md "A fresh
# machine"): a fresh Debian machine of this host's release (a debootstrap chroot) holding only what a Swift user
# has (the Swift toolchain's own dependencies from swift.org's Debian list, plus make), the toolchain at /opt/swift
# and the Swift package mirrors at /opt/swift-packages bind-mounted read-only, git pointed at the mirrors as this
# host's /etc/gitconfig does, and a fresh `git clone`. None of the project's system packages is installed.
#
# Usage (as root; needs debootstrap and Debian's mirror):
#   scripts/fresh-machine.sh [COMMIT] [report|test|both]
#   scripts/fresh-machine.sh COMMIT exec NAME COMMAND     (times COMMAND in the fresh clone; logs/NAME.log)
# COMMIT (default HEAD) is cloned from this repository. `both` (the default) times `make report` and then `make
# test`, each on its own fresh copy of the machine and its own fresh clone: each figure is a first run, packages
# included. The base machine is made once (FRESH_BASE, default /var/tmp/invoices-fresh/base, about 600 MB) and
# copied for each run; FRESH_KEEP=1 keeps the run's copy (else removed). Logs and figures go to FRESH_LOGS
# (default /var/tmp/invoices-fresh/logs): each run's wall, user and sys seconds and the machine's load average
# before, during (sampled every 15 s) and after: on a shared machine a loaded figure is an upper bound.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
commit=$(git -C "$repo" rev-parse "${1:-HEAD}")
what=${2:-both}
top=${FRESH_TOP:-/var/tmp/invoices-fresh}
base=${FRESH_BASE:-$top/base}
logs=${FRESH_LOGS:-$top/logs}
mirror=${FRESH_MIRROR:-http://deb.debian.org/debian}
release=$(. /etc/os-release && echo "$VERSION_CODENAME")
# swift.org's dependencies for Debian 12 (binutils for binutils-gold, which bookworm folds into binutils), the
# packages of the toolchain tarball's own list (libc6-dev, libgcc-12-dev, libstdc++-12-dev, libz3-dev, unzip,
# zlib1g-dev), make to run the Makefile, and ca-certificates for https.
swift_deps=binutils,gcc,git,libcurl4-openssl-dev,libedit-dev,libicu-dev,libncurses-dev,libpython3-dev,libsqlite3-dev
swift_deps+=,libxml2-dev,pkg-config,tzdata,uuid-dev,libc6-dev,libgcc-12-dev,libstdc++-12-dev,libz3-dev,unzip
swift_deps+=,zlib1g-dev,make,ca-certificates
[ "$(id -u)" = 0 ] || { echo "fresh-machine.sh: run as root (debootstrap, chroot and mounts)" >&2; exit 1; }
mkdir -p "$top" "$logs"

if [ ! -e "$base/.complete" ]; then
    if [ ! -e "$base/.debootstrapped" ]; then
        command -v debootstrap >/dev/null || apt-get install -y -qq debootstrap >/dev/null
        rm -rf --one-file-system "$base"
        echo "== fresh: debootstrap $release into $base"
        debootstrap --variant=minbase --include="$swift_deps" "$release" "$base" "$mirror" >"$logs/debootstrap.log" 2>&1 ||
            { tail -20 "$logs/debootstrap.log" >&2; exit 1; }
        touch "$base/.debootstrapped"
    fi
    # As an installed Debian has it (and this host): the release, its updates and its security updates. Without
    # them the machine got rsync 3.2.7 where this host has bookworm's 3.5.0 (docs/performance.md).
    printf 'deb %s %s main\ndeb %s %s-updates main\ndeb %s %s-security main\n' "$mirror" "$release" "$mirror" "$release" \
        "${FRESH_SECURITY_MIRROR:-http://deb.debian.org/debian-security}" "$release" >"$base/etc/apt/sources.list"
    # Daemons a package installs (nginx, sshd, PostgreSQL) are not started: the chroot shares the host's network.
    # Debian's container images do the same.
    printf '#!/bin/sh\nexit 101\n' >"$base/usr/sbin/policy-rc.d" && chmod +x "$base/usr/sbin/policy-rc.d"
    # The Swift packages resolve from the mirrors, as on this host: git's url.<mirror>.insteadOf rules.
    git config --system --get-regexp '^url\..*\.insteadof$' | while read -r key value; do
        git config --file "$base/etc/gitconfig" --add "$key" "$value"
    done
    # This host reaches PyPI through an egress proxy with a CA of its own (a new user's machine reaches it directly):
    # the machine trusts the host's local CAs, or pip's https fails.
    cp /usr/local/share/ca-certificates/*.crt "$base/usr/local/share/ca-certificates/" 2>/dev/null &&
        chroot "$base" update-ca-certificates >/dev/null
    mkdir -p "$base/opt/swift" "$base/opt/swift-packages"
    touch "$base/.complete"
fi

run() {   # run NAME COMMAND: COMMAND runs in the fresh clone
    local name=$1 command=$2 root=$top/run-$1 log=$logs/$1.log
    if grep -q " $root/" /proc/mounts; then echo "fresh-machine.sh: $root still has mounts" >&2; exit 1; fi
    rm -rf --one-file-system "$root"
    cp -a "$base" "$root" || return 1
    cp /etc/resolv.conf "$root/etc/resolv.conf"
    mounts=()
    trap 'for m in $(printf "%s\n" "${mounts[@]}" | tac); do umount -l "$m" 2>/dev/null || true; done' EXIT
    mount -t proc proc "$root/proc" && mounts+=("$root/proc")
    mount --rbind /sys "$root/sys" && mount --make-rslave "$root/sys" && mounts+=("$root/sys")
    mount --rbind /dev "$root/dev" && mount --make-rslave "$root/dev" && mounts+=("$root/dev")
    for folder in /opt/swift /opt/swift-packages; do
        mount --bind "$folder" "$root$folder" && mount -o remount,bind,ro "$root$folder" && mounts+=("$root$folder")
    done
    git clone -q --bare --no-local "$repo" "$root/srv/invoices.git" || return 1
    git -C "$root/srv/invoices.git" update-ref refs/heads/fresh "$commit"
    git -C "$root/srv/invoices.git" symbolic-ref HEAD refs/heads/fresh
    echo "== fresh: $name: $command at ${commit:0:7}, load $(cut -d' ' -f1-3 /proc/loadavg)" | tee "$log"
    ( while sleep 15; do cut -d' ' -f1 /proc/loadavg; done >"$logs/$name.load" ) &
    local sampler=$!
    local status=0
    chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 TERM=dumb \
        PATH=/opt/swift/usr/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
        bash -c "cd /root && TIMEFORMAT='== fresh: took %R s wall, %U s user, %S s sys' && \
            time { git clone -q /srv/invoices.git invoices && cd invoices && $command; }" >>"$log" 2>&1 || status=$?
    kill "$sampler"
    # What the tests started inside the machine (servers) ends with it.
    for proc in /proc/[0-9]*; do
        [ "$(readlink "$proc/root" 2>/dev/null)" = "$root" ] && kill "${proc#/proc/}" 2>/dev/null || true
    done
    local load
    load=$(awk '{ s += $1; if ($1 > m) m = $1 } END { if (NR) printf "mean %.1f, max %.1f", s / NR, m }' "$logs/$name.load")
    echo "== fresh: $name: exit $status, load during the run $load, after $(cut -d' ' -f1-3 /proc/loadavg)" | tee -a "$log"
    grep '^== fresh: took' "$log"
    sleep 2
    for m in $(printf "%s\n" "${mounts[@]}" | tac); do umount -l "$m" 2>/dev/null || true; done
    trap - EXIT
    # Removed only when nothing is mounted under it any more (never the host's /dev or /opt through a bind).
    if [ "${FRESH_KEEP:-0}" != 1 ] && ! grep -q " $root/" /proc/mounts; then rm -rf --one-file-system "$root"; fi
    return "$status"
}

case $what in
    report) run report "make report" ;;
    test) run test "make test" ;;
    both) run report "make report" && run test "make test" ;;
    # Any command in the fresh clone, e.g. the test tools' install alone: exec deps scripts/test-deps.sh
    exec) run "$3" "$4" ;;
    *) echo "usage: scripts/fresh-machine.sh [COMMIT] [report|test|both|exec NAME COMMAND]" >&2; exit 64 ;;
esac
