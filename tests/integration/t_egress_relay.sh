#!/bin/bash
# The egress broker's relay ends what it relays (issue 13): a stream's end on one side
# reaches the other side whatever splice round it arrives in, bytes are counted both
# ways, and nothing is left open.  Many transfers through the lab's raw echo service
# (tests/netlab.sh: raw.example.net:2222 echoes until the client's end, then closes),
# each bounded: a transfer that waits for an end that never comes fails.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../netlab.sh"
t_init
SBX_HANG=240

# A source that sends 8 MiB and closes: its end must reach the jail's reader.
truncate -s 8388608 "$T/blob"
LAB_EXTRA_SERVERS="source:src:192.0.2.20:2230:$T/blob"
if ! lab_start 2>"$T/lab.err"; then
	t_fail "lab: starts" "$(head -c 500 "$T/lab.err")"
	exit 0
fi
cat >"$T/p.yaml" <<'EOF2'
extends: workspace
network:
  mode: filtered
  allow: ["raw.example.net:2222", "raw.example.net:2230"]
EOF2
# Sizes vary so that the end falls in every one of the relay's rounds per wake-up.
cat >"$WS/relay.py" <<'EOF2'
import socket, sys, threading
ok = stalls = wrong = 0
for i in range(80):
    n = (1 << 20) + i * 65536 + (i * 7919) % 65536
    s = socket.create_connection(("raw.example.net", 2222), timeout=10)
    s.settimeout(5)
    got = bytearray()
    def reader():
        try:
            while True:
                b = s.recv(1 << 16)
                if not b:
                    return
                got.extend(b)
        except OSError:
            pass
    t = threading.Thread(target=reader)
    t.start()
    try:
        s.sendall(b"x" * n)
        s.shutdown(socket.SHUT_WR)
    except OSError:
        pass
    t.join(6)
    if t.is_alive() or len(got) < n:
        stalls += 1 if t.is_alive() else 0
        wrong += 0 if t.is_alive() else 1
    else:
        ok += 1
    s.close()
# Downloads that end by the server's close, as bulk transfers do.
dl_ok = dl_stalls = 0
for i in range(150):
    s = socket.create_connection(("raw.example.net", 2230), timeout=10)
    s.settimeout(3)
    n = 0
    try:
        while True:
            b = s.recv(1 << 16)
            if not b:
                break
            n += len(b)
    except OSError:
        dl_stalls += 1
    s.close()
    if n == 8388608:
        dl_ok += 1
print("dl_ok=%d" % dl_ok)
print("dl_stalls=%d" % dl_stalls)
print("ok=%d" % ok)
print("stalls=%d" % stalls)
print("wrong=%d" % wrong)
EOF2
# and the same downloads by a reader as fast as the relay (bench/netpeer.c's sink):
# a slow reader keeps the pipe full, and the end then never lands on the last round.
cc -O2 -o "$WS/netpeer" "$(dirname "$0")/../../bench/netpeer.c" 2>"$T/cc.err" ||
	t_fail "relay: the fast reader builds" "$(head -c 300 "$T/cc.err")"
cat >>"$WS/relay.py" <<'EOF2'
import subprocess
fast_ok = fast_stalls = 0
for i in range(150):
    try:
        r = subprocess.run(["./netpeer", "sink", "raw.example.net", "2230"], capture_output=True, timeout=3)
        fast_ok += r.returncode == 0
    except subprocess.TimeoutExpired:
        fast_stalls += 1
print("fast_ok=%d" % fast_ok)
print("fast_stalls=%d" % fast_stalls)
EOF2
lab_sbx --profile "$T/p.yaml" --workspace "$WS" -- python3 relay.py
t_check "relay: 80 echoed transfers through the broker all end" "$(tr '\n' ' ' <"$OUT") $(head -c 300 "$ERR")" test "$(kv ok)" = 80
t_check "relay: no transfer waited for an end that never came" "stalls=$(kv stalls)" test "$(kv stalls)" = 0
t_check "relay: every byte came back" "wrong=$(kv wrong)" test "$(kv wrong)" = 0
t_check "relay: 150 downloads ended by the server's close all end, whole" "dl_ok=$(kv dl_ok) dl_stalls=$(kv dl_stalls)" \
	test "$(kv dl_ok)" = 150
t_check "relay: 150 downloads by a fast reader all end" "fast_ok=$(kv fast_ok) fast_stalls=$(kv fast_stalls)" \
	test "$(kv fast_ok)" = 150
t_check "relay: the broker is gone with the jail" "$(pgrep -a -x sbx-egress | head -n 2)" test -z "$(pgrep -x sbx-egress)"
exit 0
