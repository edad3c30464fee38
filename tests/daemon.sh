# shellcheck shell=bash
# tests/daemon.sh — a sandboxd of the test's own, on a socket under $T, with a policy
# the test writes.  Source it after tests/lib.sh and t_init.
#
#   dm_policy < YAML        the policy sandboxd reads (at start, on SIGHUP and Reload)
#   dm_start [--as-unit] [--prefix CMD... --] [SANDBOXD ARGS...]
#                           starts it (DM_PID), waits for its socket, kills it at exit.
#                           --as-unit: under the capability bounding set and
#                           NoNewPrivileges of systemd/sandboxd.service
#   dm_stop                 SIGTERM, waits for the exit (DM_RC)
#   dsbx ARGS...            lib.sh's sbx with --daemon --socket $DM_SOCK
#   dm_fds / dm_children / dm_zombies / dm_rss_kb   what the daemon holds
#   dm_user NAME [GROUP]    a user (and group) of the test's own, removed at exit
#   bus ARGS...             busctl on the daemon's socket

SANDBOXD=$(realpath -m "${SANDBOXD:-$SBX_ROOT/build/sandboxd}")
BUS_CALL=$(realpath -m "${BUS_CALL:-$SBX_ROOT/build/bus-call}")
SBX_UNIT=$SBX_ROOT/systemd/sandboxd.service
DM_PID=""
DM_RC=""

dm_init() {
	DM_DIR=$T/daemon
	mkdir -p "$DM_DIR"
	chmod 0755 "$DM_DIR"
	DM_SOCK=$DM_DIR/s.sock
	DM_POLICY=$DM_DIR/policy.yaml
	DM_LOG=$DM_DIR/log
}

dm_policy() {
	cat >"$DM_POLICY"
}

# The unit's CapabilityBoundingSet as setpriv's --bounding-set argument.
dm_unit_caps() {
	local caps c out="-all"
	caps=$(sed -n 's/^CapabilityBoundingSet=//p' "$SBX_UNIT" | tail -n 1)
	[[ -n $caps ]] || return 1
	for c in $caps; do
		c=${c#CAP_}
		out+=",+${c,,}"
	done
	echo "$out"
}

_dm_serving() {
	kill -0 "$DM_PID" 2>/dev/null || return 2
	[[ -S $DM_SOCK && $(cat "/proc/$DM_PID/comm" 2>/dev/null) == sandboxd ]]
}

dm_start() {
	local prefix=() unit=() caps
	if [[ ${1:-} == --as-unit ]]; then
		shift
		caps=$(dm_unit_caps) || {
			echo "daemon.sh: no CapabilityBoundingSet in $SBX_UNIT" >&2
			return 1
		}
		unit=(setpriv "--bounding-set=$caps" --no-new-privs)
	fi
	if [[ ${1:-} == --prefix ]]; then
		shift
		while (($#)) && [[ $1 != -- ]]; do
			prefix+=("$1")
			shift
		done
		shift
	fi
	rm -f "$DM_SOCK"
	# The prefix (nsenter) first: it needs the capabilities the unit's set drops.
	"${prefix[@]}" "${unit[@]}" "$SANDBOXD" --listen "$DM_SOCK" --policy "$DM_POLICY" --no-system-bus "$@" \
		</dev/null >>"$DM_LOG" 2>&1 &
	DM_PID=$!
	t_defer "dm_kill $DM_PID"
	if ! wait_until 10 _dm_serving; then
		echo "daemon.sh: sandboxd did not start: $(tail -c 500 "$DM_LOG" | tr '\n' '|')" >&2
		return 1
	fi
}

# At exit: whatever is left of a daemon the test started, and its jails.
dm_kill() {
	kill -9 "$1" 2>/dev/null
	wait "$1" 2>/dev/null
}

_dm_gone() {
	! kill -0 "$DM_PID" 2>/dev/null
}

dm_stop() {
	kill -TERM "$DM_PID" 2>/dev/null
	wait_until 20 _dm_gone
	wait "$DM_PID" 2>/dev/null
	DM_RC=$?
}

dsbx() {
	sbx --daemon --socket "$DM_SOCK" "$@"
}

dm_fds() {
	find "/proc/$DM_PID/fd" -mindepth 1 -maxdepth 1 2>/dev/null | wc -l
}

dm_children() {
	pgrep -P "$DM_PID" | wc -l
}

dm_zombies() {
	local p n=0
	for p in $(pgrep -P "$DM_PID"); do
		[[ $(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null) == Z ]] && n=$((n + 1))
	done
	echo "$n"
}

dm_rss_kb() {
	awk '/^VmRSS:/ { print $2 }' "/proc/$DM_PID/status"
}

# dm_user NAME [GROUP]: a system user with its own group (and GROUP as a
# supplementary one), for the policy to name; deleted at exit.
dm_user() {
	local name=$1 group=${2:-}
	userdel "$name" >/dev/null 2>&1
	groupdel "$name" >/dev/null 2>&1
	if [[ -n $group ]]; then
		groupdel "$group" >/dev/null 2>&1
		groupadd --system "$group" || return 1
		t_defer "groupdel $group"
	fi
	useradd --system --no-create-home --user-group --shell /usr/sbin/nologin \
		${group:+--groups "$group"} "$name" || return 1
	t_defer "userdel $name; groupdel $name"
}

bus() {
	busctl --address="unix:path=$DM_SOCK" "$@"
}
