#!/bin/bash
# No host unix socket is reachable from the jail, whatever the bind: under a --ro bind,
# in the workspace, under a --rw bind, made before the jail started or after; stream,
# seqpacket and datagram; a real tmux server driven by keystrokes.  Checked from the
# host: the listener counted no connection, the datagram server got nothing, tmux ran
# no command.  The jail's own unix sockets still work (in /tmp, in the workspace).
# Each host listener is first reached from the host itself (the control).
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init

mkdir -p "$T/ro" "$T/rw"
chmod 0777 "$T/ro" "$T/rw"

# A host datagram server counting what it receives.
start_dgram() {
	local path=$1 dir
	dir=$(mktemp -d "$T/dgram.XXXXXX")
	"$PYTHON" -c '
import os, socket, sys
path, d = sys.argv[1:3]
s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
s.bind(path)
os.chmod(path, 0o777)
open(d + "/count", "w").write("0")
open(d + "/ready", "w").write("1")
n = 0
while True:
    s.recv(4096)
    n += 1
    open(d + "/count", "w").write(str(n))
' "$path" "$dir" </dev/null >/dev/null 2>&1 &
	t_defer_kill "$!"
	D_COUNT=$dir/count
	wait_until 5 test -e "$dir/ready"
}

connect_py='import socket, sys
kind = {"stream": socket.SOCK_STREAM, "seqpacket": socket.SOCK_SEQPACKET, "dgram": socket.SOCK_DGRAM}[sys.argv[1]]
ok = 0
for p in sys.argv[2:]:
    try:
        s = socket.socket(socket.AF_UNIX, kind)
        if kind == socket.SOCK_DGRAM:
            s.sendto(b"x", p)
        else:
            s.connect(p)
        ok += 1
    except OSError as e:
        print("refused", p, e.errno)
print("reached", ok)'
echo "$connect_py" >"$WS/connect.py"

# held NAME COUNTFILE ARGS...: the jail tries; the host-side count stays 0.
held() {
	local name=$1 count=$2
	shift 2
	sbx "$@"
	if ((HUNG)) || ! grep -q '^reached' "$OUT"; then t_fail "$name" "not tested: $(run_info)"
	elif [[ $(cat "$count") != 0 ]]; then t_fail "$name" "the host's listener got $(cat "$count")"
	else t_ok "$name"; fi
}

# ---- listeners that exist before the jail: under --ro, --rw and the workspace
start_listener unix "$T/ro/s.sock"; RO_COUNT=$L_COUNT
start_listener unix "$T/rw/s.sock"; RW_COUNT=$L_COUNT
start_listener unix "$WS/s.sock"; WS_COUNT=$L_COUNT
chmod 0777 "$T/ro/s.sock" "$T/rw/s.sock" "$WS/s.sock"
"$PYTHON" "$WS/connect.py" stream "$T/ro/s.sock" >/dev/null
if wait_until 5 test "$(cat "$RO_COUNT")" = 1; then t_ok "control: the host listener counts a connection"
else t_fail "control: the host listener counts a connection" "count $(cat "$RO_COUNT")"; fi
echo 0 >"$RO_COUNT"

held "stream socket under a --ro bind" "$RO_COUNT" --workspace "$WS" --ro "$T/ro:/r" -- python3 connect.py stream /r/s.sock
held "stream socket under a --rw bind" "$RW_COUNT" --workspace "$WS" --rw "$T/rw:/w" -- python3 connect.py stream /w/s.sock
held "stream socket in the workspace, by absolute and relative path" "$WS_COUNT" --workspace "$WS" -- python3 connect.py stream "$WS/s.sock" s.sock
held "seqpacket to a stream socket under a --ro bind" "$RO_COUNT" --workspace "$WS" --ro "$T/ro:/r" -- python3 connect.py seqpacket /r/s.sock
ln -s "$T/ro/s.sock" "$WS/link.sock"
held "through a symlink in the workspace" "$RO_COUNT" --workspace "$WS" --ro "$T/ro:$T/ro" -- python3 connect.py stream link.sock
rm -f "$WS/link.sock"

start_dgram "$T/ro/d.sock"
"$PYTHON" "$WS/connect.py" dgram "$T/ro/d.sock" >/dev/null
if wait_until 5 test "$(cat "$D_COUNT")" = 1; then t_ok "control: the host datagram server counts a datagram"
else t_fail "control: the host datagram server counts a datagram" "count $(cat "$D_COUNT")"; fi
echo 0 >"$D_COUNT"
held "datagram socket under a --ro bind" "$D_COUNT" --workspace "$WS" --ro "$T/ro:/r" -- python3 connect.py dgram /r/d.sock

# ---- a listener made after the jail started: the jail waits for it, then connects
late_py='import os, socket, sys, time
open(sys.argv[2], "w").write("up")
for _ in range(400):
    if os.path.exists(sys.argv[1]):
        break
    time.sleep(0.02)
time.sleep(0.2)
s = socket.socket(socket.AF_UNIX)
try:
    s.connect(sys.argv[1]); print("reached 1")
except OSError as e:
    print("refused", e.errno); print("reached 0")'
echo "$late_py" >"$WS/late.py"
rm -f "$WS/up"
timeout -k 5 "$SBX_HANG" "$SBX_RUN" --workspace "$WS" --ro "$T/rw:/w" -- python3 late.py /w/late.sock "$WS/up" >"$OUT" 2>"$ERR" </dev/null &
jpid=$!
if wait_until 10 test -e "$WS/up"; then
	start_listener unix "$T/rw/late.sock"
	chmod 0777 "$T/rw/late.sock"
	wait "$jpid"
	if ! grep -q '^reached' "$OUT"; then t_fail "a socket made after the jail started" "not tested: $(head -c 200 "$ERR")"
	elif [[ $(cat "$L_COUNT") != 0 ]]; then t_fail "a socket made after the jail started" "the listener got $(cat "$L_COUNT")"
	else t_ok "a socket made after the jail started"; fi
else
	kill "$jpid" 2>/dev/null
	t_fail "a socket made after the jail started" "the jail did not start: $(head -c 200 "$ERR")"
fi

# ---- tmux: the host's server runs no command the jail types
if command -v tmux >/dev/null; then
	mkdir -p "$T/tmux"
	chmod 0777 "$T/tmux"
	tmux -S "$T/tmux/s" new-session -d -s sbx "sleep 600" && t_defer "tmux -S '$T/tmux/s' kill-server"
	chmod 0777 "$T/tmux/s"
	tmux -S "$T/tmux/s" send-keys -t sbx "" 2>/dev/null
	sbx --workspace "$WS" --ro "$T/tmux:/t" -- tmux -S /t/s new-window -d "touch '$T/tmux-pwned'"
	sleep 0.3
	if [[ -e $T/tmux-pwned ]]; then t_fail "tmux under a --ro bind runs nothing on the host" "the host's tmux ran it"
	elif [[ $RC == 0 ]]; then t_fail "tmux under a --ro bind runs nothing on the host" "tmux in the jail says it succeeded"
	else t_ok "tmux under a --ro bind runs nothing on the host"; fi
	tmux -S "$T/tmux/s" new-window -d "touch '$T/tmux-control'"
	if wait_until 5 test -e "$T/tmux-control"; then t_ok "control: the host's tmux does run a new window's command"
	else t_fail "control: the host's tmux does run a new window's command" "it did not: the tmux check proves nothing"; fi
else
	t_skip "tmux under a --ro bind" "tmux is not installed"
fi

# ---- the jail's own unix sockets work: /tmp and the workspace, stream and seqpacket
own_py='import os, socket, sys
for kind in (socket.SOCK_STREAM, socket.SOCK_SEQPACKET):
    for path in sys.argv[1:]:
        if os.path.exists(path): os.unlink(path)
        s = socket.socket(socket.AF_UNIX, kind); s.bind(path); s.listen()
        c = socket.socket(socket.AF_UNIX, kind); c.connect(path)
        a, _ = s.accept(); c.send(b"ok"); assert a.recv(2) == b"ok"
        for x in (a, c, s): x.close()
        os.unlink(path)
a, b = socket.socketpair(); a.send(b"p"); assert b.recv(1) == b"p"
print("own ok")'
echo "$own_py" >"$WS/own.py"
sbx --workspace "$WS" -- python3 own.py /tmp/own.sock own.sock
if [[ $RC == 0 ]] && grep -qx "own ok" "$OUT"; then t_ok "the jail's own unix sockets work, in /tmp and the workspace"
else t_fail "the jail's own unix sockets work, in /tmp and the workspace" "$(run_info)"; fi
# With the host's network, a socket the jail makes in the workspace is not told apart
# from a host's (both are in the host's namespace): only its own tmpfs count.
sbx --profile network-host --workspace "$WS" -- python3 own.py /tmp/own.sock
if [[ $RC == 0 ]] && grep -qx "own ok" "$OUT"; then t_ok "--net host: the jail's own unix sockets work in /tmp"
else t_fail "--net host: the jail's own unix sockets work in /tmp" "$(run_info)"; fi
sbx --profile network-host --workspace "$WS" -- python3 own.py own.sock
if [[ $RC != 0 ]] && grep -q "PermissionError" "$ERR"; then t_ok "--net host: one in the workspace is refused (EACCES), as a host's would be"
else t_fail "--net host: one in the workspace is refused (EACCES), as a host's would be" "$(run_info)"; fi
# Abstract ones are scoped by Landlock.
start_listener abstract "sbx-abs-$$"
sbx --profile network-host --workspace "$WS" -- python3 -c "import socket
s = socket.socket(socket.AF_UNIX)
try: s.connect('\0sbx-abs-$$'); print('reached 1')
except OSError as e: print('reached 0', e.errno)"
if [[ $(cat "$L_COUNT") == 0 ]] && grep -q '^reached 0' "$OUT"; then t_ok "--net host: a host abstract socket is out of reach"
else t_fail "--net host: a host abstract socket is out of reach" "listener got $(cat "$L_COUNT"); $(run_info)"; fi

# ---- a bind at a tmpfs's destination: the broker trusts the jail's own tmpfs only, never
# the host file system a bind puts at the same place (attack review 5, f08)
start_listener unix "$T/ro/t.sock"; chmod 0777 "$T/ro/t.sock"; TMP_COUNT=$L_COUNT
"$PYTHON" "$WS/connect.py" stream "$T/ro/t.sock" >/dev/null
if wait_until 5 test "$(cat "$TMP_COUNT")" = 1; then t_ok "control: the host listener on the binds' file system counts a connection"
else t_fail "control: the host listener on the binds' file system counts a connection" "count $(cat "$TMP_COUNT")"; fi
echo 0 >"$TMP_COUNT"
mkdir -p "$T/agent-tmp"
chmod 0777 "$T/agent-tmp"
# held_or_refused NAME COUNTFILE ARGS...: as held, or sbx-run refuses the binds (125).
held_or_refused() {
	local name=$1 count=$2
	shift 2
	sbx "$@"
	if ((!HUNG)) && [[ $RC == 125 ]] && [[ $(cat "$count") == 0 ]]; then t_ok "$name (refused: $(head -c 120 "$ERR"))"
	elif ((HUNG)) || ! grep -q '^reached' "$OUT"; then t_fail "$name" "not tested: $(run_info)"
	elif [[ $(cat "$count") != 0 ]]; then t_fail "$name" "the host's listener got $(cat "$count")"
	else t_ok "$name"; fi
}
held_or_refused "a --rw bind at /tmp, over the profile's tmpfs" "$TMP_COUNT" --profile workspace --workspace "$WS" \
	--rw "$T/agent-tmp:/tmp" --ro "$T/ro:/r" -- python3 connect.py stream /r/t.sock
held_or_refused "--tmpfs /x, then a --rw bind at /x" "$TMP_COUNT" --workspace "$WS" --tmpfs /x --rw "$T/agent-tmp:/x" \
	--ro "$T/ro:/r" -- python3 connect.py stream /r/t.sock
held_or_refused "a --rw bind at /x, then --tmpfs /x" "$TMP_COUNT" --workspace "$WS" --rw "$T/agent-tmp:/x" --tmpfs /x \
	--ro "$T/ro:/r" -- python3 connect.py stream /r/t.sock
held_or_refused "a --ro bind at /tmp, over the profile's tmpfs" "$TMP_COUNT" --profile workspace --workspace "$WS" \
	--ro "$T/agent-tmp:/tmp" --ro "$T/ro:/r" -- python3 connect.py stream /r/t.sock
# The host's own /tmp shared: a socket of the host's there.
HTMP=$(mktemp -d /tmp/sbxt.XXXXXX)
t_defer "rm -rf '$HTMP'"
chmod 0777 "$HTMP"
start_listener unix "$HTMP/s.sock"; chmod 0777 "$HTMP/s.sock"
held_or_refused "--rw /tmp, the host's /tmp: a host socket there" "$L_COUNT" --profile workspace --workspace "$WS" \
	--rw /tmp -- python3 connect.py stream "$HTMP/s.sock"

# ---- the broker runs in the jail's PID 1: an address longer than sun_path (addrlen up to
# and past sizeof(struct sockaddr_storage)) is refused, and PID 1 lives on (f09)
long_py='import ctypes, os, socket
libc = ctypes.CDLL(None, use_errno=True)
buf = ctypes.create_string_buffer(socket.AF_UNIX.to_bytes(2, "little") + b"/tmp/" + b"A" * 250, 300)
for n in (108, 109, 110, 111, 112, 120, 127, 128, 129, 200, 255):
    s = socket.socket(socket.AF_UNIX)
    r = libc.connect(s.fileno(), buf, n)
    print("len", n, r, ctypes.get_errno())
    s.close()
path = "/tmp/own.sock"
l = socket.socket(socket.AF_UNIX); l.bind(path); l.listen()
c = socket.socket(socket.AF_UNIX); c.connect(path)
print("broker alive")'
echo "$long_py" >"$WS/long.py"
sbx --workspace "$WS" --json -- python3 long.py
if [[ $RC == 0 ]] && grep -qx "broker alive" "$OUT" && ! grep -q "overflow" "$ERR"; then
	t_ok "connect() with addrlen up to 255: refused, the broker (PID 1) lives on"
else t_fail "connect() with addrlen up to 255: refused, the broker (PID 1) lives on" "$(run_info); out: $(tr '\n' '|' <"$OUT" | head -c 300)"; fi

# ---- the unprivileged path and sandboxd
start_listener unix "$T/ro/u.sock"; chmod 0777 "$T/ro/u.sock"
chown -R "$NOBODY:$NOBODY" "$WS"
SBX_AS=$NOBODY held "as an unprivileged caller (user namespace)" "$L_COUNT" --workspace "$WS" --ro "$T/ro:/r" -- python3 connect.py stream /r/u.sock
dm_init
U=sbxu$SBX_RUN_ID
if dm_user "$U"; then
	chown -R "$U:$U" "$WS"
	dm_policy <<EOF
allow:
  - users: [$U]
    profiles: [workspace]
EOF
	if dm_start; then
		timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" \
			--workspace "$WS" --ro "$T/ro:/r" -- python3 connect.py stream /r/u.sock >"$OUT" 2>"$ERR" </dev/null
		if ! grep -q '^reached' "$OUT"; then t_fail "through sandboxd" "not tested: $(head -c 200 "$ERR")"
		elif [[ $(cat "$L_COUNT") != 0 ]]; then t_fail "through sandboxd" "the listener got $(cat "$L_COUNT")"
		else t_ok "through sandboxd"; fi
	else
		t_fail "through sandboxd" "sandboxd did not start"
	fi
else
	t_fail "through sandboxd" "cannot create a test user"
fi
