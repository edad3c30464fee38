#!/bin/bash
# Who sandboxd thinks is calling: the calling process's uid, gid and supplementary
# groups, never the user database.  A caller whose gid and groups are 65534 while its
# passwd entry says otherwise runs with 65534 in the jail, and the policy's `groups:`
# rules match only the groups it holds: peer to peer (SO_PEERCRED, SO_PEERGROUPS) and
# on a system bus (a private dbus-daemon: the bus's credentials, checked against the
# process itself, pinned with a pidfd).  A process whose credentials changed since it
# connected is refused, on the socket as on the bus.  Every check is on the host: the
# owner of what the jail wrote, the ids it wrote down, the refusal.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

U=sbxi$SBX_RUN_ID
G=sbxj$SBX_RUN_ID
if ! dm_user "$U" "$G"; then
	t_fail "setup" "cannot create the test user $U"
	exit 0
fi
UID_U=$(id -u "$U")
GID_U=$(id -g "$U")
GID_G=$(getent group "$G" | cut -d: -f3)
chown -R "$U:$U" "$WS"
chmod 0755 "$WS"
# workspace for the user; strict only through its passwd group; readonly only
# through the supplementary group G.
dm_policy <<EOF
allow:
  - users: [root, $U]
    profiles: [workspace]
  - groups: [$U]
    profiles: [strict]
  - groups: [$G]
    profiles: [readonly]
EOF

# What the jail writes down about itself: uid, gid, groups.
IDS='id -u >"$0"; id -g >>"$0"; id -G >>"$0"'
ids_of() { # FILE: "uid gid groups..." on one line
	tr '\n' ' ' <"$1" 2>/dev/null | sed 's/ *$//'
}

# as_caller HOW: the setpriv command line for U, with its passwd gid and groups
# (HOW=own) or with gid and groups 65534 (HOW=nobody), in CALLER.
as_caller() {
	if [[ $1 == own ]]; then
		CALLER=(setpriv --reuid="$U" --regid="$U" --init-groups)
	else
		CALLER=(setpriv --reuid="$U" --regid="$NOBODY" --groups="$NOBODY")
	fi
}

# check_identity WHERE RUN: RUN HOW PROFILE FILE runs the writer as the caller and
# sets RC (0 ran, 126 denied, other: failure).
check_identity() {
	local where=$1 run=$2 f
	f=$WS/ids-$where-own
	"$run" own workspace "$f"
	[[ $RC == 0 && $(ids_of "$f") == "$UID_U $GID_U "*"$GID_G"* ]] &&
		t_ok "$where: a caller with its own groups runs as them ($(ids_of "$f"))" ||
		t_fail "$where: a caller with its own groups" "rc $RC, ids '$(ids_of "$f")', expected $UID_U $GID_U ... $GID_G"

	f=$WS/ids-$where-nobody
	"$run" nobody workspace "$f"
	[[ $RC == 0 && $(ids_of "$f") == "$UID_U $NOBODY $NOBODY" ]] &&
		t_ok "$where: gid and groups are the process's, not passwd's ($(ids_of "$f"))" ||
		t_fail "$where: gid and groups are the process's" "rc $RC, ids '$(ids_of "$f")', expected '$UID_U $NOBODY $NOBODY'"
	[[ $(stat -c %u:%g "$f" 2>/dev/null) == "$UID_U:$NOBODY" ]] &&
		t_ok "$where: what the jail wrote belongs to uid $UID_U, group $NOBODY (host view)" ||
		t_fail "$where: what the jail wrote belongs to the caller's gid" "owner $(stat -c %u:%g "$f" 2>/dev/null)"

	"$run" nobody strict "$WS/ids-$where-strict"
	[[ $RC == 126 && ! -e $WS/ids-$where-strict ]] &&
		t_ok "$where: a groups: rule for its passwd group does not match a caller without it" ||
		t_fail "$where: a groups: rule for a group it does not hold" "rc $RC (expected 126 Denied)"
	"$run" nobody readonly "$WS/ids-$where-ro"
	((RC == 126)) && t_ok "$where: a groups: rule for a supplementary group it dropped does not match" ||
		t_fail "$where: a groups: rule for a dropped supplementary group" "rc $RC (expected 126)"
	"$run" own strict "$WS/ids-$where-strict-own"
	((RC == 0)) && t_ok "$where: the same rule matches the caller that holds the group" ||
		t_fail "$where: the rule matches the caller that holds the group" "rc $RC"
}

# check_changed WHERE ARGS...: a Run (through bus-call ARGS) from a process that
# connected as root, then became the test user.
check_changed() {
	local where=$1 got
	shift
	rm -f "$WS/changed-ran"
	got=$(timeout -k 5 "$SBX_HANG" "$BUS_CALL" --become "$UID_U:$GID_U" --workspace "$WS" "$@" \
		-- /bin/sh -c 'id -u >"$0"' "$WS/changed-ran" 2>&1)
	wait_until 2 test -e "$WS/changed-ran"
	[[ $got == *AccessDenied* && ! -e $WS/changed-ran ]] &&
		t_ok "$where: a caller whose credentials changed since it connected is refused ($(cut -c1-100 <<<"$got"))" ||
		t_fail "$where: a caller whose credentials changed is refused" "$got; ran as: $(cat "$WS/changed-ran" 2>/dev/null)"
}

# ------------------------------------------------------------------ peer to peer

if ! dm_start; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi
p2p_run() { # HOW PROFILE FILE
	# strict cannot write the workspace (read-only there): the ids go to stdout.
	as_caller "$1"
	timeout -k 5 "$SBX_HANG" "${CALLER[@]}" "$SBX_RUN" --daemon --socket "$DM_SOCK" --profile "$2" --workspace "$WS" \
		-- /bin/sh -c "$IDS" "$3" </dev/null >"$OUT" 2>"$ERR"
	RC=$?
}
check_identity p2p p2p_run
check_changed p2p "$DM_SOCK"
dm_stop

# ------------------------------------------------------------------ the system bus

if ! command -v dbus-daemon >/dev/null; then
	t_skip "system bus" "dbus-daemon is not installed (make deps installs dbus)"
	exit 0
fi
BUS=$T/system_bus_socket
cat >"$T/bus.conf" <<EOF
<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>system</type>
  <listen>unix:path=$BUS</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow user="*"/>
    <deny own="*"/>
    <deny send_type="method_call"/>
    <allow send_destination="org.freedesktop.DBus"/>
    <allow send_type="signal"/>
    <allow send_requested_reply="true" send_type="method_return"/>
    <allow send_requested_reply="true" send_type="error"/>
    <allow receive_type="method_call"/>
    <allow receive_type="method_return"/>
    <allow receive_type="error"/>
    <allow receive_type="signal"/>
  </policy>
  <include>$SBX_ROOT/systemd/io.sbx.Sandbox1.conf</include>
</busconfig>
EOF
dbus-daemon --config-file="$T/bus.conf" --nofork --nopidfile </dev/null >"$T/bus.log" 2>&1 &
t_defer_kill $!
if ! wait_until 5 test -S "$BUS"; then
	t_fail "system bus" "dbus-daemon did not start: $(head -c 300 "$T/bus.log")"
	exit 0
fi
DM_SOCK=$T/p2p.sock
export DBUS_SYSTEM_BUS_ADDRESS=unix:path=$BUS
if ! dm_start --system-bus; then
	t_fail "system bus: sandboxd starts" "$(tail -c 300 "$DM_LOG")"
	exit 0
fi
bus_run() { # HOW PROFILE FILE
	local got
	as_caller "$1"
	got=$(timeout -k 5 "$SBX_HANG" "${CALLER[@]}" "$BUS_CALL" --bus --profile "$2" --workspace "$WS" --wait \
		"unix:path=$BUS" -- /bin/sh -c "$IDS" "$3" 2>&1)
	case $got in
	*"exit 0 0"*) RC=0 ;;
	*Error.Denied*) RC=126 ;;
	*) RC=1 ;;
	esac
	echo "$got" >"$ERR"
}
check_identity bus bus_run

# A process that connected as root and then became the test user: the bus (or the
# socket) says root, the process says otherwise.  Refused, and nothing runs (on the
# bus it ran as root before).
check_changed bus --bus "unix:path=$BUS"
dm_stop
((DM_RC == 0)) && t_ok "sandboxd stops cleanly" || t_fail "sandboxd stops cleanly" "rc $DM_RC"
exit 0
