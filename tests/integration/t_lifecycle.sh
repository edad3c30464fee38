#!/bin/bash
# No process outlives its sandbox: a double-forked, setsid, SIGTERM-ignoring
# daemon is gone after a normal exit, after --timeout, after kill -9 of
# sbx-run (within a second) and after SIGTERM to sbx-run. The daemon's
# command line holds its pid file path (unique, under $T): that is what the
# host looks for.
. "$(dirname "$0")/../lib.sh"
t_init

# gone_within NAME SECONDS TOKEN: nothing on the host matches TOKEN within
# SECONDS (polled every 50 ms).
gone_within() {
	if wait_until "$2" no_procs_matching "$3"; then
		t_ok "$1"
	else
		t_fail "$1" "still running after $2 s: $(describe_procs "$3")"
	fi
}

# ---- normal exit
pidfile=$WS/daemon-exit.pid
t_defer_reap "$pidfile"
jail -- daemonize "$pidfile"
expect_rc "daemonizing command exits 0" 0
if [[ -s $pidfile ]]; then
	t_ok "daemon started (pid file written)"
	gone_within "daemon gone after normal exit" 2 "$pidfile"
else
	t_fail "daemon started (pid file written)" "no $pidfile; $(run_info)"
fi

# ---- --timeout kills the whole tree
pidfile=$WS/daemon-timeout.pid
t_defer_reap "$pidfile"
jail --timeout 1 -- daemonize "$pidfile" 60
expect_rc "timeout with a daemon: exit 124" 124
if [[ $RC == 124 ]] && ((!HUNG)); then
	t_check "timeout with a daemon is prompt" "took $WALL_MS ms" test "$WALL_MS" -lt 5000
fi
if [[ -s $pidfile ]]; then
	t_ok "daemon had started before the timeout"
	gone_within "daemon gone after timeout" 2 "$pidfile"
else
	t_fail "daemon had started before the timeout" "no $pidfile; $(run_info)"
fi

# ---- kill -9 of sbx-run
# bg_jail PIDFILE: sbx-run in the background (no timeout(1) in between, so
# $! is sbx-run itself); waits until the daemon wrote its pid file.
bg_jail() {
	"$SBX_RUN" --workspace "$WS" -- "$WS/probe" daemonize "$1" 60 </dev/null >"$T/bg.out" 2>"$T/bg.err" &
	BG=$!
	t_defer_kill "$BG"
	t_defer_reap "$1"
	wait_until 5 test -s "$1"
}

pidfile=$WS/daemon-kill9.pid
if bg_jail "$pidfile"; then
	t_ok "background jail started its daemon"
	kill -9 "$BG"
	wait "$BG" 2>/dev/null
	t0=$(_now_us)
	if wait_until 1 no_procs_matching "$pidfile"; then
		t_ok "kill -9 of sbx-run: jail tree gone within 1 s"
	else
		left=$(describe_procs "$pidfile")
		if wait_until 5 no_procs_matching "$pidfile"; then
			t_fail "kill -9 of sbx-run: jail tree gone within 1 s" \
				"took $((($(_now_us) - t0) / 1000)) ms; at 1 s: $left"
		else
			t_fail "kill -9 of sbx-run: jail tree gone within 1 s" "still running after 6 s: $left"
		fi
	fi
else
	t_fail "background jail started its daemon" "no $pidfile after 5 s: $(head -c 300 "$T/bg.err")"
fi

# ---- SIGTERM to sbx-run: it ends, and takes the jail with it
pidfile=$WS/daemon-term.pid
if bg_jail "$pidfile"; then
	kill -TERM "$BG"
	if wait_until 5 eval '! pid_alive "$BG" || [[ $(awk "{print \$3}" /proc/$BG/stat 2>/dev/null) == Z ]]'; then
		wait "$BG" 2>/dev/null
		t_ok "SIGTERM ends sbx-run"
		gone_within "SIGTERM to sbx-run: jail tree gone" 2 "$pidfile"
	else
		t_fail "SIGTERM ends sbx-run" "sbx-run still running 5 s after SIGTERM"
	fi
else
	t_fail "background jail (SIGTERM case) started its daemon" "no $pidfile after 5 s: $(head -c 300 "$T/bg.err")"
fi
exit 0
