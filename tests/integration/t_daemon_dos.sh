#!/bin/bash
# Denial of service by local users, with real numbers.  An attacker the policy admits
# to nothing (nobody) and one it admits (a test user) try, each in turn: fds sent with
# a message that never completes, messages announced huge and sent in part, floods of
# connections, and 2000 property reads of a 0.9 MiB argv whose replies it never
# reads.  Meanwhile another user's Run must succeed, and sandboxd's fds and RSS must
# stay within the budget sandboxd(8) gives; stalled connections are closed; after the
# attack the daemon holds what it held before.  sandboxd starts with the soft
# RLIMIT_NOFILE of 1024 a systemd service gets (where ~1000 fds in one connection
# made every other Run fail), and raises it itself.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

FLOOD=$SBX_ROOT/tests/tools/bus-flood.py
# ASan keeps freed memory in quarantine: RSS says nothing there (the fds still do).
ASAN=0
grep -q __asan_init "$SANDBOXD" && ASAN=1
V=sbxv$SBX_RUN_ID
A=sbxa$SBX_RUN_ID
for u in "$V" "$A"; do
	if ! dm_user "$u"; then
		t_fail "setup" "cannot create the test user $u"
		exit 0
	fi
done
WSV=$T/ws-victim
WSA=$T/ws-attacker
mkdir -p "$WSV" "$WSA"
chown "$V:$V" "$WSV"
chown "$A:$A" "$WSA"
chmod 0755 "$T"
# Each admitted user: 4 sandboxes at once, so 8 connections (4 + 4 to look).
dm_policy <<EOF
allow:
  - users: [$V, $A]
    profiles: [workspace]
limits:
  max_sandboxes_per_user: 4
EOF
if ! dm_start --prefix prlimit --nofile=1024:"$(ulimit -Hn)" --; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi
soft=$(awk '/^Max open files/ { print $4 }' "/proc/$DM_PID/limits")
((soft > 1024)) && t_ok "sandboxd raised its own open-files limit (1024 -> $soft)" ||
	t_fail "sandboxd raised its open-files limit" "soft limit $soft"

# victim WHEN: the other user's Run, which must go through.
victim() {
	local t0 rc
	t0=$(_now_us)
	timeout -k 5 30 setpriv --reuid="$V" --regid="$V" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" \
		--workspace "$WSV" -- /bin/sh -c 'ulimit -n' </dev/null >"$T/victim.out" 2>"$T/victim.err"
	rc=$?
	VICTIM_MS=$((($(_now_us) - t0) / 1000))
	((rc == 0)) && t_ok "$1: another user's Run succeeds ($VICTIM_MS ms)" ||
		t_fail "$1: another user's Run succeeds" "rc $rc: $(head -c 300 "$T/victim.err")"
}
# flood USER OUT ARGS...: bus-flood.py as USER, in the background (FLOOD_PID).
flood() {
	local user=$1 out=$2
	shift 2
	setpriv --reuid="$user" --regid="$user" --clear-groups "$PYTHON" "$FLOOD" "$@" >"$out" 2>&1 &
	FLOOD_PID=$!
	t_defer_kill "$FLOOD_PID"
}
flood_report() { # OUT: waits for bus-flood's line of what it did
	wait_until 40 test -s "$1"
	head -n 1 "$1"
}
flood_stop() {
	kill "$FLOOD_PID" 2>/dev/null
	wait "$FLOOD_PID" 2>/dev/null
}
field() { # KEY LINE
	sed -n "s/.*\b$1=\([^ ]*\).*/\1/p" <<<"$2"
}
settled() { (($(dm_fds) <= fds0)); }

# Warm up, then the baseline.
victim "before any attack"
((VICTIM_MS < 30000)) && [[ $(cat "$T/victim.out") == 1024 ]] && t_ok "a jail gets the open-files limit sandboxd was started with (1024)" ||
	t_fail "a jail gets the open-files limit sandboxd was started with" "ulimit -n in the jail: $(cat "$T/victim.out")"
fds0=$(dm_fds)
rss0=$(dm_rss_kb)
echo "#   baseline: sandboxd holds $fds0 fds, RSS $rss0 KiB"

# attack NAME USER OUT MAX_FDS MAX_RSS_KB ARGS...: runs it, reports, checks the
# daemon during (fds, RSS, another user's Run) and after (fds back).
attack() {
	local name=$1 user=$2 out=$3 max_fds=$4 max_rss=$5 line fds1 rss1
	shift 5
	flood "$user" "$out" "$@"
	line=$(flood_report "$out")
	fds1=$(dm_fds)
	rss1=$(dm_rss_kb)
	echo "#   $name: attacker: $line; sandboxd: fds $fds0 -> $fds1, RSS $rss0 -> $rss1 KiB"
	[[ -n $line ]] || t_fail "$name: the attack ran" "$(tail -c 300 "$out")"
	((fds1 - fds0 <= max_fds)) && t_ok "$name: sandboxd holds at most $max_fds more fds ($fds0 -> $fds1)" ||
		t_fail "$name: sandboxd's fds stay bounded" "$fds0 -> $fds1 (at most +$max_fds)"
	((ASAN || rss1 - rss0 <= max_rss)) && t_ok "$name: sandboxd's RSS grows by at most $((max_rss / 1024)) MiB ($rss0 -> $rss1 KiB)" ||
		t_fail "$name: sandboxd's RSS stays bounded" "$rss0 -> $rss1 KiB (at most +$max_rss)"
	victim "$name"
	ATTACK_LINE=$line
}
after() { # NAME: the attacker gone, the daemon holds what it did
	flood_stop
	wait_until 5 settled
	echo "#   $1, after: sandboxd: fds $(dm_fds), RSS $(dm_rss_kb) KiB"
	settled && t_ok "$1: once the attacker is gone, sandboxd holds its $fds0 fds again" ||
		t_fail "$1: sandboxd's fds back to the baseline" "$fds0 -> $(dm_fds)"
}

# ------------------------------------------------------------------ a user the policy admits to nothing

# The form that made every other Run fail: one connection, 1000 fds, never finished.
attack "unadmitted, 1000 fds with a message never finished" "$NOBODY" "$T/fds1.out" 40 4096 fds "$DM_SOCK" 1 1000
((  $(field open "$ATTACK_LINE") == 0 )) && t_ok "unadmitted: a connection sending more fds than a call takes is closed" ||
	t_fail "unadmitted: fds beyond a call's are refused" "$ATTACK_LINE"
after "unadmitted, 1000 fds"

attack "unadmitted, 64 connections with 1000 fds each" "$NOBODY" "$T/fds.out" 40 4096 fds "$DM_SOCK" 64 1000
conns=$(field conns "$ATTACK_LINE")
((conns <= 2)) && t_ok "unadmitted: at most 2 connections ($conns of 64)" || t_fail "unadmitted: at most 2 connections" "$conns"
after "unadmitted, fds"

attack "unadmitted, 120 MiB announced" "$NOBODY" "$T/part.out" 40 4096 partial "$DM_SOCK" 64 100
((  $(field open "$ATTACK_LINE") == 0 )) && t_ok "unadmitted: a message announced beyond its budget closes the connection at its header" ||
	t_fail "unadmitted: an oversized message is refused at its header" "$ATTACK_LINE"
after "unadmitted, 120 MiB announced"

# Within its 256 KiB budget, sent in part and left there: closed after 10 s.
flood "$NOBODY" "$T/stall.out" partial "$DM_SOCK" 2 0.1 $((200 << 10))
line=$(flood_report "$T/stall.out")
fds1=$(dm_fds)
echo "#   unadmitted, 200 KiB announced, 64 KiB sent: attacker: $line; sandboxd fds $fds0 -> $fds1"
t0=$(_now_us)
wait_until 15 settled
ms=$((($(_now_us) - t0) / 1000))
settled && grep -q "did not finish within 10 s" "$DM_LOG" &&
	t_ok "unadmitted: a message left unfinished is dropped with its connection ($ms ms after the attack)" ||
	t_fail "unadmitted: an unfinished message is dropped" "fds $(dm_fds), baseline $fds0"
flood_stop

attack "unadmitted, 64 idle connections" "$NOBODY" "$T/conns.out" 40 4096 conns "$DM_SOCK" 64
conns=$(field open "$ATTACK_LINE")
((conns <= 2)) && t_ok "unadmitted: 64 connections asked, $conns kept" || t_fail "unadmitted: connections bounded" "$ATTACK_LINE"
after "unadmitted, idle connections"

# ------------------------------------------------------------------ a user the policy admits

attack "admitted, fds with a message never finished" "$A" "$T/afds.out" 100 8192 fds "$DM_SOCK" 64 1000
conns=$(field conns "$ATTACK_LINE")
((conns <= 8)) && t_ok "admitted: at most its 8 connections ($conns of 64)" || t_fail "admitted: at most 8 connections" "$conns"
after "admitted, fds"

# 1.2 MiB announced (its budget is 1.25 MiB), 1 MiB of it sent, on 8 connections:
# the uid's messages in progress stay within 2.5 MiB together.
attack "admitted, 8 x 1.2 MiB announced" "$A" "$T/apart.out" 100 $((8 << 10)) partial "$DM_SOCK" 8 1 $((1200 << 10))
after "admitted, partial messages"

attack "admitted, 120 MiB announced" "$A" "$T/apart2.out" 100 8192 partial "$DM_SOCK" 8 100
((  $(field open "$ATTACK_LINE") == 0 )) && t_ok "admitted: beyond 1.25 MiB a message is refused at its header" ||
	t_fail "admitted: an oversized message is refused" "$ATTACK_LINE"
after "admitted, 120 MiB announced"

# A sandbox with a 0.9 MiB argv, then 2000 reads of its Argv, never read back.
attack "admitted, 2000 Argv reads never read" "$A" "$T/replies.out" 40 $((16 << 10)) replies "$DM_SOCK" "$WSA" 2000 0.9
[[ $(field run "$ATTACK_LINE") == /io/* ]] || t_fail "admitted: the attacker's sandbox runs" "$ATTACK_LINE"
echo "#   admitted: $(field gets_sent "$ATTACK_LINE") of 2000 reads went out before sandboxd stopped reading them"
after "admitted, replies never read"

pid_alive "$DM_PID" && t_ok "sandboxd runs on after every attack" || t_fail "sandboxd runs on" "$(tail -c 300 "$DM_LOG")"
dm_stop
((DM_RC == 0)) && t_ok "sandboxd stops cleanly" || t_fail "sandboxd stops cleanly" "rc $DM_RC"
exit 0
