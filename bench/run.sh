#!/bin/sh
# SPDX-License-Identifier: MIT
# Launch benchmark, all in one run, each running /bin/true with the workspace profile:
#  1. latency of sbx-run through sandboxd, sbx-run direct, bubblewrap with the same
#     isolation, and no sandbox at all, alternating round-robin;
#  2. launches per second through sandboxd and direct, with 1, 2 and 8 concurrent
#     clients each looping back to back;
#  3. sandboxd's memory and fds: idle after start, after (1), after (2), and sampled
#     under the heaviest load;
# then a summary of the ratios and sizes that matter.  The bench starts its own
# sandboxd on a private socket and policy (bench/daemon.sh) and stops it at the end.
#
# usage: bench/run.sh [SBX_RUN [SANDBOXD]]   (default build/sbx-run, build/sandboxd)
# env:   BENCH_N         latency runs per variant (default 200)
#        BENCH_WARMUP    uncounted warm-up rounds (default 3)
#        BENCH_CLIENTS   concurrent client counts for (2) (default 1,2,8)
#        BENCH_SECONDS   how long each variant runs at each count (default 5)
#        BENCH_RUN_TIMEOUT  seconds after which one run is killed and fails (default 10)
#        BWRAP           bubblewrap binary (default: bwrap on PATH)
#        LAUNCH          the timing driver (default build/bench-launch, built if missing)
#
# Exits non-zero when a variant fails to run (or hangs) or sandboxd misbehaves (will
# not start, will not stop, leaves cgroups), after printing every figure it has;
# never on a slow figure.
set -eu

root=$(cd "$(dirname "$0")/.." && pwd)
sbx_run=$(realpath "${1:-$root/build/sbx-run}")
sandboxd=$(realpath "${2:-$(dirname "$sbx_run")/sandboxd}")
n=${BENCH_N:-200}
warmup=${BENCH_WARMUP:-3}
clients=${BENCH_CLIENTS:-1,2,8}
secs=${BENCH_SECONDS:-5}
run_timeout=${BENCH_RUN_TIMEOUT:-10}
launch=${LAUNCH:-$root/build/bench-launch}

die() { echo "bench: $*" >&2; exit 1; }

[ -x "$sbx_run" ] || die "'$sbx_run' is not executable; run 'make' first"
[ -x "$sandboxd" ] || die "'$sandboxd' is not executable; run 'make' first"
bwrap=$(command -v "${BWRAP:-bwrap}") || die "bwrap not found; install bubblewrap ('make deps')"
case $bwrap in /*) ;; *) die "'$bwrap' is not a program on PATH" ;; esac
if [ ! -x "$launch" ]; then
        mkdir -p "$(dirname "$launch")"
        ${CC:-cc} -O2 -std=gnu17 -D_GNU_SOURCE -Wall -Wextra -Werror -o "$launch" "$root/bench/launch.c"
fi

# shellcheck source=bench/daemon.sh
. "$root/bench/daemon.sh"

tmp=$(mktemp -d "${TMPDIR:-/tmp}/sbx-bench.XXXXXX")
ws=$tmp/ws
mkdir "$ws" "$tmp/bin"
cleanup() {
        sbxd_stop
        rm -rf "$tmp"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM
cgroups_before=$(sbx_stale_cgroups)

# Run copies, so that a rebuild in the tree during the run changes nothing here.
cp "$sbx_run" "$tmp/bin/sbx-run"
cp "$sandboxd" "$tmp/bin/sandboxd"

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

sbxd_start "$tmp/bin/sandboxd" "$tmp/d"
direct="$tmp/bin/sbx-run --direct --net none -- /bin/true"
daemon="$tmp/bin/sbx-run --daemon --socket $sbxd_sock --net none -- /bin/true"
rss0=$(sbxd_kib VmRSS) fds0=$(sbxd_fds)
failed=

echo "sbx-run:  $sbx_run (run from a copy in $tmp/bin)"
echo "sandboxd: $sandboxd (likewise; pid $sbxd_pid, socket $sbxd_sock)"
echo "bwrap:    $bwrap ($("$bwrap" --version))"
echo "kernel:   $(uname -r), $(nproc) CPUs, uid $(id -u)"

echo
echo "== latency: sbx-run direct, through sandboxd (daemon), bwrap, nothing =="
# $direct and $daemon split at spaces on purpose: none of their words has one.
# shellcheck disable=SC2086
"$launch" -n "$n" -w "$warmup" -C "$ws" -T "$run_timeout" \
        -r daemon/sbx-run -r daemon/bwrap -r sbx-run/bwrap \
        sbx-run $direct \; \
        daemon $daemon \; \
        bwrap "$@" \; \
        true /bin/true \; >"$tmp/latency.out" 2>&1 || failed="$failed latency"
cat "$tmp/latency.out"
rss1=$(sbxd_kib VmRSS) fds1=$(sbxd_fds) jail_ms=$(sbxd_jail_ms)
echo "sandboxd's jail time (launcher's clone to reap, audit duration_ms): $jail_ms"

echo
echo "== throughput: launches per second, $clients concurrent clients =="
# shellcheck disable=SC2086
"$launch" -c "$clients" -d "$secs" -p "$sbxd_pid" -C "$ws" -T "$run_timeout" -r daemon/sbx-run \
        daemon $daemon \; \
        sbx-run $direct \; >"$tmp/load.out" 2>&1 || failed="$failed throughput"
cat "$tmp/load.out"
sleep 0.5 # the last sandboxes reaped
rss2=$(sbxd_kib VmRSS) fds2=$(sbxd_fds) hwm=$(sbxd_kib VmHWM)
launches=$(grep -c '^sbx event=exit ' "$tmp/d/sandboxd.log" || true)

echo
echo "== sandboxd memory and fds =="
row() { printf '%-32s %10s %5s\n' "$@"; }
row "" VmRSS_KiB fds
row "idle after start" "$rss0" "$fds0"
row "idle after the latency runs" "$rss1" "$fds1"
row "idle after the throughput runs" "$rss2" "$fds2"
row "peak (VmHWM)" "$hwm" ""
sbxd_log_report
sbxd_stop
stopped="stopped on SIGTERM in ${sbxd_stop_ms:-?} ms"
[ "$sbxd_exit" = 0 ] || { stopped="not stopped cleanly: $sbxd_exit"; failed="$failed stop"; }
# New since the start, their maker gone: ours, or on a shared machine another run's.
# Reported, then removed as the next launcher would (rmdir spares a populated one).
cgroups_left=$(sbx_stale_cgroups | grep -vxF "$cgroups_before" | tr '\n' ' ' || true)
if [ -n "$cgroups_left" ]; then
        failed="$failed cgroups"
        # shellcheck disable=SC2086  # paths from find under /sys/fs/cgroup, no spaces
        rmdir $cgroups_left 2>/dev/null || true
fi

# The summary, from the tables above.
mib() { awk -v k="$1" 'BEGIN { if (k ~ /^[0-9]+$/) printf "%.1f MiB", k / 1024; else print "n/a" }'; }
lat() { awk -v r="ratio $1:" 'index($0, r) == 1 { sub(",", "", $4); print $4, "median,", $6, "mean"; f = 1 }
        END { if (!f) print "n/a" }' "$tmp/latency.out"; }
col() { awk -v v="$1" -v c="$2" -v f="$3" '$1 == v && $2 == c { print $f; x = 1 } END { if (!x) print "n/a" }' "$tmp/load.out"; }
top=${clients##*,}
echo
echo "== summary =="
echo "daemon/direct latency ratio: $(lat daemon/sbx-run) (target <= 1.3)"
echo "daemon/bwrap latency ratio:  $(lat daemon/bwrap)"
echo "direct/bwrap latency ratio:  $(lat sbx-run/bwrap)"
echo "daemon: jail time inside sandboxd $jail_ms"
for c in $(echo "$clients" | tr , ' '); do
        printf 'launches/s with %s client(s): daemon %s, direct %s\n' "$c" \
                "$(col daemon "$c" 4)" "$(col sbx-run "$c" 4)"
done
echo "sandboxd idle RSS: $(mib "$rss0") after start, $(mib "$rss2") after $launches launches (target < 8 MiB)"
echo "sandboxd RSS under $top clients: $(mib "$(col daemon "$top" 6)") max, $(mib "$(col daemon "$top" 7)") mean; VmHWM $(mib "$hwm")"
echo "sandboxd fds: $fds0 after start, $(col daemon "$top" 8) max under $top clients, $fds2 after"
echo "sandboxd $stopped; sbx cgroups left behind: ${cgroups_left:+(now removed) }${cgroups_left:-none}"
[ -z "$failed" ] || die "failed:$failed (see above)"
