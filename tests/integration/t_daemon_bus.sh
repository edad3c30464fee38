#!/bin/bash
# sandboxd as systemd runs it, with real components started by the test:
# systemd-socket-activate in front of it (sd_listen_fds; started on the first
# connection), a notify socket standing in for systemd's (READY, RELOADING, STOPPING),
# and a private dbus-daemon as the system bus, configured with our own
# io.sbx.Sandbox1.conf, where a test user gets a jail as itself.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

for tool in systemd-socket-activate dbus-daemon busctl; do
	if ! command -v "$tool" >/dev/null; then
		t_skip "$tool" "not installed (make deps installs systemd and dbus)"
		exit 0
	fi
done

U=sbxb$SBX_RUN_ID
dm_user "$U" || {
	t_fail "setup" "cannot create the test user $U"
	exit 0
}
UID_U=$(id -u "$U")
chown -R "$U:$U" "$WS"
dm_policy <<EOF
allow:
  - users: [root, $U]
    profiles: [workspace]
EOF

# ------------------------------------------------------------------ socket activation + notify

# A datagram socket that records what sandboxd tells "systemd", one message a line.
NOTIFY=$T/notify.sock
"$PYTHON" -c '
import socket, sys
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(sys.argv[1])
with open(sys.argv[2], "a", buffering=1) as out:
    while True:
        out.write(s.recv(4096).decode().replace("\n", " ").strip() + "\n")
' "$NOTIFY" "$T/notified" </dev/null >/dev/null 2>&1 &
t_defer_kill $!
wait_until 5 test -S "$NOTIFY" || t_fail "notify" "the notify listener did not start"

SA_SOCK=$T/activated.sock
NOTIFY_SOCKET=$NOTIFY systemd-socket-activate -l "$SA_SOCK" -E NOTIFY_SOCKET \
	"$SANDBOXD" --policy "$DM_POLICY" --no-system-bus </dev/null >"$T/sa.log" 2>&1 &
SA_PID=$!
t_defer_kill "$SA_PID"
wait_until 5 test -S "$SA_SOCK"
[[ $(cat "/proc/$SA_PID/comm") != sandboxd ]] && t_ok "socket activation: nothing runs before the first caller" ||
	t_fail "socket activation: nothing runs before the first caller" "sandboxd already runs"
sbx --daemon --socket "$SA_SOCK" --workspace "$WS" -- "$WS/probe" status
((RC == 0)) && t_ok "socket activation: the first caller's sandbox runs" || t_fail "socket activation: the first caller" "$(run_info); $(tail -c 300 "$T/sa.log")"
[[ $(cat "/proc/$SA_PID/comm" 2>/dev/null) == sandboxd ]] && t_ok "socket activation: sandboxd serves the socket it was passed" ||
	t_fail "socket activation: sandboxd took over" "$(cat "/proc/$SA_PID/comm" 2>/dev/null)"
grep -q "listening on fd 3\|Execing" "$T/sa.log" && ! grep -q "bind" "$T/sa.log" && t_ok "socket activation: sandboxd bound nothing itself" ||
	t_fail "socket activation: sandboxd bound nothing itself" "$(tail -c 300 "$T/sa.log")"
wait_until 5 grep -qx "READY=1" "$T/notified" && t_ok "notify: READY=1" || t_fail "notify: READY=1" "$(cat "$T/notified")"
kill -HUP "$SA_PID"
wait_until 5 grep -q "RELOADING=1" "$T/notified" && t_ok "notify: RELOADING=1 on SIGHUP" || t_fail "notify: RELOADING=1" "$(cat "$T/notified")"
wait_until 5 test "$(grep -c '^READY=1' "$T/notified")" -ge 2
((  $(grep -c 'READY=1' "$T/notified") >= 2 )) && t_ok "notify: READY=1 again after the reload" || t_fail "notify: READY=1 after reload" "$(cat "$T/notified")"
kill -TERM "$SA_PID"
wait_until 5 grep -q "STOPPING=1" "$T/notified" && t_ok "notify: STOPPING=1 on SIGTERM" || t_fail "notify: STOPPING=1" "$(cat "$T/notified")"
wait_until 10 eval '! kill -0 $SA_PID 2>/dev/null'
wait "$SA_PID" 2>/dev/null
rc=$?
((rc == 0)) && t_ok "socket activation: exits 0 on SIGTERM" || t_fail "socket activation: exits 0" "rc $rc"

# ------------------------------------------------------------------ the system bus

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
	t_fail "system bus: sandboxd starts with --system-bus" "$(tail -c 300 "$DM_LOG")"
	exit 0
fi
# dm_start passed --no-system-bus first; the later --system-bus wins.
got=$(busctl --address="unix:path=$BUS" status io.sbx.Sandbox1 2>&1 | grep -m1 '^UID=')
[[ $got == "UID=0" ]] && t_ok "system bus: io.sbx.Sandbox1 is owned by root's sandboxd" || t_fail "system bus: the name is owned" "$got"
got=$(setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$BUS" call io.sbx.Sandbox1 \
	/io/sbx/Sandbox1 io.sbx.Sandbox1.Manager List 2>&1)
[[ $got == "a(sosust) 0" ]] && t_ok "system bus: a user may call List" || t_fail "system bus: a user may call List" "$got"
got=$(setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$BUS" introspect io.sbx.Sandbox1 /io/sbx/Sandbox1 2>&1)
[[ $got == *".Run "* ]] && t_ok "system bus: introspection" || t_fail "system bus: introspection" "$(head -c 200 <<<"$got")"
got=$(setpriv --reuid="$U" --regid="$U" --clear-groups "$BUS_CALL" --bus --workspace "$WS" --wait "unix:path=$BUS" \
	-- "$WS/probe" write "$WS/via-bus" 2>&1)
[[ $got == *"exit 0 0"* ]] && t_ok "system bus: a user's Run with fds" || t_fail "system bus: a user's Run" "$got"
owner=$(stat -c %u "$WS/via-bus" 2>/dev/null)
[[ $owner == "$UID_U" ]] && t_ok "system bus: the jail ran as the caller on the bus" || t_fail "system bus: runs as the caller" "owner ${owner:-none}"
got=$(setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$BUS" call io.sbx.Sandbox1 \
	/io/sbx/Sandbox1 io.sbx.Sandbox1.Manager Reload 2>&1)
[[ $got == *ccess* ]] && t_ok "system bus: Reload is refused to a user" || t_fail "system bus: Reload refused to a user" "$got"
dm_stop
((DM_RC == 0)) && t_ok "system bus: sandboxd stops cleanly" || t_fail "system bus: sandboxd stops cleanly" "rc $DM_RC"
