#!/bin/bash
# The egress broker parses what the jail sends: one a parser bug took over may die,
# or close its socket, at any time.  The launcher must then go on supervising the
# jail as before, not spin on the socket's hangup (with an audit file it polls the
# broker's socket for records).  Asserted from the host: the broker of a
# network: filtered jail is killed while the jail sleeps; the launcher's CPU time over
# that sleep stays small, and the jail still ends normally.
. "$(dirname "$0")/../lib.sh"
t_init

AUDIT=$T/audit.jsonl
# the launcher's children in the host's PID namespace: the broker (the jail's PID 1
# is in its own)
broker_of() {
	local c
	for c in $(pgrep -P "$1"); do
		[[ $(readlink "/proc/$c/ns/pid") == "$(readlink /proc/self/ns/pid)" ]] && echo "$c"
	done
}
cpu_ticks() { # PID: utime + stime
	awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null
}

timeout -k 5 30 "$SBX_RUN" --profile network --workspace "$WS" --audit-file "$AUDIT" -- /bin/sleep 5 \
	>"$T/out" 2>"$T/err" </dev/null &
SBX=$!
t_defer_kill "$SBX"
LAUNCHER=""
wait_until 10 eval 'LAUNCHER=$(pgrep -P "$SBX" -x sbx-run | head -n 1); [[ -n $LAUNCHER && -n $(broker_of "$LAUNCHER") ]]'
BROKER=$(broker_of "$LAUNCHER")
if [[ -z $LAUNCHER || -z $BROKER ]]; then
	t_fail "setup: a network: filtered jail with its broker" "launcher=$LAUNCHER broker=$BROKER $(head -c 300 "$T/err")"
	exit 0
fi
kill -KILL $BROKER
sleep 0.3
before=$(cpu_ticks "$LAUNCHER")
sleep 2
after=$(cpu_ticks "$LAUNCHER")
t_check "the broker gone: the launcher does not spin (CPU ticks over 2 s: $((after - before)))" \
	"before=$before after=$after" eval '[[ -n $before && -n $after ]] && ((after - before < 20))'
wait "$SBX"
rc=$?
t_check "the broker gone: the jail still ends as it would (rc 0)" "rc=$rc $(head -c 300 "$T/err")" eval '((rc == 0))'
