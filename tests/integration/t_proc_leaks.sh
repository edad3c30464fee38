#!/bin/bash
# What a jail's /proc tells about the host, in every mode (direct as root, direct
# unprivileged in a user namespace, through sandboxd): the launcher's own command line
# is not PID 1's (/proc/1/cmdline showed sandboxd's argv in every daemon jail), and
# the host-identifying and kernel-layout files read empty.  Each file is checked only
# where the host's own copy has something in it, so a kernel without one proves
# nothing either way.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

# Host-identifying, then kernel-layout (lib/mount.c says why each).
FILES=(cmdline config.gz sys/kernel/random/boot_id partitions diskstats swaps mdstat modules consoles devices misc dma
	mtrr bootconfig version_signature kallsyms iomem ioports buddyinfo zoneinfo pagetypeinfo slabinfo vmallocinfo
	allocinfo timer_list sched_debug interrupts softirqs keys key-users)
DIRS=(bus acpi driver irq fs tty/driver scsi asound device-tree)

# What root on the host sees: "name bytes" (files) or "name entries" (directories).
proc_sizes() {
	local f
	for f in "$@"; do
		if [[ -d /proc/$f ]]; then
			echo "$f $(ls -A "/proc/$f" 2>/dev/null | wc -l)"
		elif [[ -e /proc/$f ]]; then
			echo "$f $(cat "/proc/$f" 2>/dev/null | wc -c)"
		fi
	done
}
# The same, run by /bin/sh in a jail.
SIZES='for f; do if [ -d "/proc/$f" ]; then echo "$f $(ls -A "/proc/$f" 2>/dev/null | wc -l)";
	elif [ -e "/proc/$f" ]; then echo "$f $(cat "/proc/$f" 2>/dev/null | wc -c)"; fi; done'

proc_sizes "${FILES[@]}" "${DIRS[@]}" | awk '$2 > 0 { print $1 }' >"$T/present"
echo "#   host /proc entries with content: $(tr '\n' ' ' <"$T/present")"
mapfile -t PRESENT <"$T/present"
for must in cmdline sys/kernel/random/boot_id buddyinfo zoneinfo; do
	grep -qx "$must" "$T/present" || t_skip "host has /proc/$must" "this kernel shows nothing there"
done
BOOT_ID=$(cat /proc/sys/kernel/random/boot_id)

# check_mode MODE RUNNER...: RUNNER is a function taking sbx-run's options and the
# command (as `jail` does).
check_mode() {
	local mode=$1 runner=$2 name n leaked=""
	"$runner" -- /bin/sh -c "$SIZES" sh "${PRESENT[@]}"
	if ((RC != 0)) || [[ ! -s $OUT ]]; then
		t_fail "$mode: the /proc reader runs" "$(run_info)"
		return
	fi
	while read -r name n; do
		((n > 0)) && leaked+="$name ($n) "
	done <"$OUT"
	[[ -z $leaked ]] && t_ok "$mode: host-identifying and kernel-layout /proc entries read empty ($(wc -l <"$OUT") checked)" ||
		t_fail "$mode: /proc entries read empty" "readable: $leaked"
	"$runner" -- /bin/cat /proc/sys/kernel/random/boot_id
	! grep -qF "$BOOT_ID" "$OUT" && t_ok "$mode: the host's boot id is not in the jail" ||
		t_fail "$mode: the host's boot id is not in the jail" "$(head -c 100 "$OUT")"
	"$runner" -- "$PROBE_AT" environ1
	if [[ $(kv result) != ok ]]; then
		t_fail "$mode: probe environ1 runs" "$(run_info)"
		return
	fi
	n=$(kv cmdline_text)
	n=${n%"${n##*[! ]}"}
	[[ $n == sbx-init ]] && t_ok "$mode: /proc/1/cmdline is 'sbx-init', nothing of the launcher's argv" ||
		t_fail "$mode: /proc/1/cmdline is 'sbx-init'" "cmdline: '$(head -c 300 <<<"$n")'"
}

# ------------------------------------------------------------------ direct, as root

PROBE_AT=$WS/probe
as_root() {
	shift
	sbx --direct --workspace "$WS" --env "SBX_ARG=secret-$RANDOM" -- "$@"
}
check_mode "direct (root)" as_root

# ------------------------------------------------------------------ direct, unprivileged

WSN=$T/ws-nobody
mkdir -p "$WSN"
cp "$PROBE" "$WSN/probe"
chown -R "$NOBODY:$NOBODY" "$WSN"
as_nobody() {
	shift
	SBX_AS=$NOBODY sbx --direct --workspace "$WSN" -- "$@"
}
PROBE_AT=$WSN/probe
as_nobody -- /bin/true
if ((RC == 0)); then
	check_mode "direct (unprivileged)" as_nobody
else
	t_skip "direct (unprivileged)" "no user namespace for nobody here: $(run_info)"
fi

# ------------------------------------------------------------------ through sandboxd

U=sbxl$SBX_RUN_ID
dm_user "$U" || {
	t_fail "setup" "cannot create the test user $U"
	exit 0
}
WSU=$T/ws-user
mkdir -p "$WSU"
cp "$PROBE" "$WSU/probe"
chown -R "$U:$U" "$WSU"
dm_policy <<EOF
allow:
  - users: [$U]
    profiles: [workspace]
EOF
if ! dm_start; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi
as_user() {
	shift
	local t0
	t0=$(_now_us)
	timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups \
		"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WSU" -- "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
}
PROBE_AT=$WSU/probe
check_mode "sandboxd" as_user
as_user -- "$PROBE_AT" environ1
! grep -qF -- "$DM_SOCK" "$OUT" && ! grep -q -- "--policy" "$OUT" && t_ok "sandboxd: its socket path and options are nowhere in PID 1" ||
	t_fail "sandboxd: its argv is nowhere in PID 1" "$(grep -F -- "$DM_SOCK" "$OUT" | head -c 300)"
dm_stop
exit 0
