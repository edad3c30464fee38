#!/bin/sh
# SPDX-License-Identifier: MIT
# Launch latency of sbx-run against bubblewrap with the same isolation, and against
# no sandbox at all, each running /bin/true, alternating round-robin in one run.
#
# usage: bench/run.sh [SBX_RUN]        (default build/sbx-run)
# env:   BENCH_N       runs per variant (default 200)
#        BENCH_WARMUP  uncounted warm-up rounds (default 3)
#        BWRAP         bubblewrap binary (default: bwrap on PATH)
#        LAUNCH        the timing driver (default build/bench-launch, built if missing)
#
# Exits non-zero only when a variant fails to run; never on a slow figure.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
sbx_run=$(realpath "${1:-$root/build/sbx-run}")
n=${BENCH_N:-200}
warmup=${BENCH_WARMUP:-3}
launch=${LAUNCH:-$root/build/bench-launch}

die() { echo "bench: $*" >&2; exit 1; }

[ -x "$sbx_run" ] || die "'$sbx_run' is not executable; run 'make' first"
bwrap=$(command -v "${BWRAP:-bwrap}") || die "bwrap not found; install bubblewrap ('make deps')"
case $bwrap in /*) ;; *) die "'$bwrap' is not a program on PATH" ;; esac
if [ ! -x "$launch" ]; then
        mkdir -p "$(dirname "$launch")"
        ${CC:-cc} -O2 -std=gnu17 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$launch" "$root/bench/launch.c"
fi

ws=$(mktemp -d "${TMPDIR:-/tmp}/sbx-bench.XXXXXX")
trap 'rm -rf "$ws"' EXIT INT TERM

path=/usr/local/bin:/usr/bin:/bin

# bwrap given what sbx-run gives a jail by default: the same namespaces, system
# binds, a few /etc files, /proc, /dev, a private /tmp, the workspace read-write and
# as cwd, a cleared environment, a new session, no capabilities (bwrap keeps them
# for root unless told), and death with the parent.  bwrap gets no seccomp filter,
# Landlock or cgroup here, so it does less than sbx-run.
set -- "$bwrap" \
        --unshare-pid --unshare-uts --unshare-ipc --unshare-net --unshare-cgroup-try \
        --hostname sbx \
        --ro-bind /usr /usr \
        --symlink usr/bin /bin --symlink usr/lib /lib \
        --symlink usr/lib64 /lib64 --symlink usr/sbin /sbin
for f in passwd group hosts nsswitch.conf ld.so.cache localtime alternatives; do
        set -- "$@" --ro-bind-try "/etc/$f" "/etc/$f"
done
set -- "$@" \
        --proc /proc --dev /dev --size 67108864 --tmpfs /tmp \
        --bind "$ws" "$ws" --chdir "$ws" \
        --clearenv --setenv PATH "$path" --setenv HOME /tmp \
        --new-session --die-with-parent --cap-drop ALL \
        /bin/true

echo "sbx-run: $sbx_run"
echo "bwrap:   $bwrap ($("$bwrap" --version))"
echo "kernel:  $(uname -r), $(nproc) CPUs, uid $(id -u)"
"$launch" -n "$n" -w "$warmup" -C "$ws" \
        sbx-run "$sbx_run" --net none -- /bin/true \; \
        bwrap "$@" \; \
        true /bin/true \;
