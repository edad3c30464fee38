#!/bin/bash
# contrib/container/sbx-entrypoint on the host, no container runtime: in a mount
# namespace whose /run is a fresh tmpfs (no journald, as in a container) and whose
# /run/sandboxd is a directory of the test's, it starts sandboxd as root, runs an
# "agent" as an unprivileged test user, and the agent's sbx-run goes through sandboxd:
# the jailed command ran as the user, could not write outside its workspace (the file
# is absent on the host), and its audit records are JSON lines in /run/sbx/audit.jsonl
# (root's, in a directory only root may enter), never on the container's log, which
# the agent and its jailed commands write to: a forged record they write there, or
# into the file, is not in the audit.  SIGTERM and SIGINT reach the agent and the status is its own; then
# sandboxd stops, the socket is gone and no process is left.  sandboxd killed under a
# running agent: the agent is stopped, status 125.  Root as the agent, or the
# entrypoint not started as root: 125, no sandboxd started.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init

ENTRY=$SBX_ROOT/contrib/container/sbx-entrypoint
U=sbxc$SBX_RUN_ID
if ! dm_user "$U"; then
	t_fail "setup" "cannot create the test user $U"
	exit 0
fi
UID_U=$(id -u "$U")
chown -R "$U:$U" "$WS"
mkdir -p "$T/outside" "$T/run" "$T/sbx"
chmod 0755 "$T/sbx" # the entrypoint makes it root's 0700
AUD=$T/sbx/audit.jsonl
chown "$U:$U" "$T/outside" # the agent may write here; its jailed commands may not
cat >"$T/policy.yaml" <<EOF
allow:
  - users: [$U]
    profiles: [workspace]
    max_sandboxes: 4
limits:
  grace: 1s
EOF

# entry [ENV=VALUE...] -- ARGS...: the entrypoint in its namespace, in the background
# (EP), stderr in $T/ep.err; /run/sandboxd is $T/run and /run/sbx is $T/sbx (the
# audit file $AUD, emptied first), seen from the host.
entry() {
	local envs=()
	while [[ $1 != -- ]]; do
		envs+=("$1")
		shift
	done
	shift
	rm -f "$AUD"
	# --default-signal: as a container's PID 1 would, not with SIGINT and SIGQUIT
	# ignored, as this shell's background jobs are (bash cannot trap those).
	env --default-signal=INT,QUIT SBX_POLICY="$T/policy.yaml" SANDBOXD="$SANDBOXD" SBX_STOP_WAIT=10 "${envs[@]}" \
		unshare -m --propagation private bash -c '
			set -e
			mount -t tmpfs -o mode=0755,size=4m sbx-ctr-run /run
			mkdir /run/sandboxd
			mount --bind "$1" /run/sandboxd
			mkdir /run/sbx
			mount --bind "$2" /run/sbx
			shift 2
			exec "$@"' ctr "$T/run" "$T/sbx" "$ENTRY" "$@" >"$T/ep.out" 2>"$T/ep.err" </dev/null &
	EP=$!
	t_defer "kill -9 $EP 2>/dev/null"
	t_defer_reap "$T/policy.yaml" # a sandboxd the entrypoint left (a failure, counted below)
}

# ep_wait [SECONDS]: RC is the entrypoint's status; "hung" (and it is killed) when it
# has not exited by then.
ep_wait() {
	if wait_until "${1:-60}" _ep_gone; then
		wait "$EP" 2>/dev/null
		RC=$?
	else
		kill -9 "$EP" 2>/dev/null
		wait "$EP" 2>/dev/null
		RC=hung
	fi
}
_ep_gone() { ! kill -0 "$EP" 2>/dev/null; }
sd_of_ep() { pgrep -P "$EP" -x sandboxd; }
has_sd() { [[ -n $(sd_of_ep) ]]; }
sock_up() { [[ -S $T/run/sandboxd.sock ]]; }
no_user_procs() { [[ -z $(pgrep -u "$U") ]]; }

# jsonl EVENT KEY: KEY of the first JSON record of EVENT in the audit file.
jsonl() {
	"$PYTHON" -c '
import json, sys
for l in open(sys.argv[1], errors="replace"):
    if not l.startswith("{"):
        continue
    e = json.loads(l)
    if e.get("SBX_EVENT") == sys.argv[2] and e.get("SBX_ARGV0") != "sleep":
        print(e.get(sys.argv[3], "")); break' "$AUD" "$@" 2>/dev/null
}

# ------------------------------------------------------------------ a run
# The agent: a shell as the test user that uses sbx-run as a harness would.
cat >"$T/agent.sh" <<EOF
#!/bin/bash
id -u >"$WS/agent-uid"
"$SBX_RUN" --workspace "$WS" -- "$WS/probe" status >"$WS/status.out" 2>"$WS/status.err"
echo "status-rc=\$?" >>"$WS/agent.log"
"$SBX_RUN" --workspace "$WS" -- /bin/sh -c 'echo in >"$WS/inside"; echo out >"$T/outside/escaped"' 2>>"$WS/agent.log"
echo "write-rc=\$?" >>"$WS/agent.log"
# A jailed command writes records of its own on its stdout and stderr, the agent's:
# the container's log.  The agent tries the audit file itself.
"$SBX_RUN" --workspace "$WS" -- /bin/sh -c 'for f in 1 2; do printf "%s\\n" "{\\"SBX_EVENT\\":\\"exit\\",\\"SBX_ID\\":\\"forged\\"}" >&\$f; printf "{\\"X\\":" >&\$f; done'
echo "forge-rc=\$?" >>"$WS/agent.log"
echo '{"SBX_EVENT":"exit","SBX_ID":"forged-by-agent"}' 2>/dev/null >>/run/sbx/audit.jsonl
echo "agent-write-rc=\$?" >>"$WS/agent.log"
ls /run/sbx >/dev/null 2>&1
echo "agent-ls-rc=\$?" >>"$WS/agent.log"
exit 7
EOF
chmod 0755 "$T/agent.sh"
entry -- --user "$U" -- "$T/agent.sh"
ep_wait
t_check "the entrypoint exits with the agent's status (7)" "rc=$RC $(head -c 400 "$T/ep.err")" test "$RC" = 7
t_check "the agent ran as the user" "$(cat "$WS/agent-uid" 2>&1)" test "$(cat "$WS/agent-uid" 2>/dev/null)" = "$UID_U"
t_check "the agent's sbx-run: the probe ran" "$(cat "$WS/agent.log" "$WS/status.err" 2>&1 | head -c 300)" \
	grep -q '^status-rc=0$' "$WS/agent.log"
OUT=$WS/status.out
expect_kv "jailed: as the user" uid "$UID_U"
expect_kv "jailed: no capability" CapEff 0000000000000000
t_check "jailed: the workspace write happened" "" test -f "$WS/inside"
t_check "jailed: the write outside the workspace did not (host side)" "$(ls -l "$T/outside")" test ! -e "$T/outside/escaped"
t_check "jailed: through sandboxd (its audit record, as JSON in the audit file)" "$(head -c 400 "$AUD" 2>&1)" \
	test "$(jsonl exit SYSLOG_IDENTIFIER)" = sandboxd -a "$(jsonl exit SBX_MODE)" = daemon
t_check "audit: the user's uid and the probe's status" "$(jsonl exit SBX_UID) $(jsonl exit SBX_EXIT_STATUS)" \
	test "$(jsonl exit SBX_UID)" = "$UID_U" -a "$(jsonl exit SBX_EXIT_STATUS)" = 0
t_check "audit: sandboxd started and stopping" "" test "$(grep -c '"SBX_EVENT":"daemon"' "$AUD")" = 2
t_check "audit: the file is root's, 0600, in a directory of root's, 0700" "$(stat -c '%a %u' "$AUD" "$T/sbx" 2>&1)" \
	test "$(stat -c '%a %u' "$AUD" "$T/sbx" 2>/dev/null | tr '\n' ' ')" = "600 0 700 0 "
t_check "audit: no record on the container's log (stderr)" "$(grep '^{' "$T/ep.err" | head -c 300)" \
	test -z "$(grep '"SBX_EVENT":"daemon"' "$T/ep.err")"
t_check "forging: the jailed command wrote its lines on the container's log (it ran)" "$(cat "$WS/agent.log") $(head -c 300 "$T/ep.err")" \
	sh -c "grep -q '^forge-rc=0\$' '$WS/agent.log' && grep -q '\"SBX_ID\":\"forged\"' '$T/ep.err'"
t_check "forging: none of them in the audit file" "$(grep -a forged "$AUD" | head -c 300)" \
	sh -c "! grep -q '\"SBX_ID\":\"forged' '$AUD' && ! grep -qF '{\"X\":' '$AUD'"
t_check "forging: the agent can neither write the audit file nor list its directory" "$(cat "$WS/agent.log")" \
	sh -c "grep -q '^agent-write-rc=1\$' '$WS/agent.log' && grep -q '^agent-ls-rc=2\$' '$WS/agent.log'"
t_check "no logfmt line" "$(grep '^sbx ' "$T/ep.err" | head -c 200)" test -z "$(grep '^sbx ' "$T/ep.err")"
t_check "teardown: the socket is removed" "$(ls -la "$T/run")" test -z "$(ls -A "$T/run")"
t_check "teardown: no process of the user left" "$(pgrep -u "$U" -a)" wait_until 10 no_user_procs

# ------------------------------------------------------------------ signals
for sig in TERM INT; do
	rm -f "$WS/started"
	cat >"$T/agent-$sig.sh" <<EOF
#!/bin/bash
trap 'exit 42' $sig
"$SBX_RUN" --workspace "$WS" -- /bin/sleep 1000 &
touch "$WS/started"
wait
EOF
	chmod 0755 "$T/agent-$sig.sh"
	entry -- --user "$U" -- "$T/agent-$sig.sh"
	if wait_until 20 test -e "$WS/started" && wait_until 20 pgrep -u "$U" -x sleep >/dev/null; then
		kill -s "$sig" "$EP"
		ep_wait 30
		t_check "SIG$sig: reaches the agent, whose status (42) is the entrypoint's" "rc=$RC $(tail -c 300 "$T/ep.err")" test "$RC" = 42
		t_check "SIG$sig: the jailed sleep and the agent's sbx-run ended" "$(pgrep -u "$U" -a)" wait_until 10 no_user_procs
		t_check "SIG$sig: the socket is removed" "$(ls -la "$T/run")" test -z "$(ls -A "$T/run")"
		t_check "SIG$sig: the jail's exit is in the audit" "" grep -q '"SBX_ARGV0":"sleep"' "$AUD"
	else
		t_fail "SIG$sig" "the agent did not start its jailed sleep: $(tail -c 300 "$T/ep.err")"
	fi
done

# ------------------------------------------------------------------ sandboxd dies
cat >"$T/agent-long.sh" <<EOF
#!/bin/bash
touch "$WS/started"
exec sleep 1000
EOF
chmod 0755 "$T/agent-long.sh"
rm -f "$WS/started"
entry -- --user "$U" -- "$T/agent-long.sh"
if wait_until 20 test -e "$WS/started" && wait_until 10 has_sd; then
	kill -KILL "$(sd_of_ep)"
	ep_wait 30
	t_check "sandboxd killed: the agent is stopped, status 125" "rc=$RC $(tail -c 300 "$T/ep.err")" test "$RC" = 125
	t_check "sandboxd killed: no process of the user left" "$(pgrep -u "$U" -a)" wait_until 10 no_user_procs
	grep -q 'sandboxd exited' "$T/ep.err" && t_ok "sandboxd killed: the entrypoint says so" || t_fail "sandboxd killed: message" "$(tail -c 300 "$T/ep.err")"
	# The socket it left (SIGKILL) is stale: the next start replaces it and serves.
	t_check "sandboxd killed: its socket stays (stale)" "" sock_up
	rm -f "$WS/agent.log"
	entry -- --user "$U" -- "$T/agent.sh"
	ep_wait
	t_check "after a stale socket: the next entrypoint serves the agent" \
		"rc=$RC $(cat "$WS/agent.log" 2>&1 | head -c 300) $(grep -v '^{' "$T/ep.err" | tail -c 600)" \
		test "$RC" = 7 -a "$(grep -c '^status-rc=0$' "$WS/agent.log" 2>/dev/null)" = 1
	t_check "after a stale socket: removed at the end" "$(ls -la "$T/run")" test -z "$(ls -A "$T/run")"
else
	t_fail "sandboxd killed" "the agent did not start: $(tail -c 300 "$T/ep.err")"
fi

# ------------------------------------------------------------------ refusals
entry -- --user root -- /bin/true
ep_wait
t_check "root as the agent: 125, and why" "rc=$RC $(cat "$T/ep.err")" test "$RC" = 125 -a -n "$(grep 'must not run as root' "$T/ep.err")"
t_check "root as the agent: no sandboxd was started" "$(cat "$T/ep.err")" test ! -e "$AUD"
entry -- --user "nosuchuser$SBX_RUN_ID" -- /bin/true
ep_wait
t_check "an unknown user: 125" "rc=$RC $(cat "$T/ep.err")" test "$RC" = 125
setpriv --reuid="$U" --regid="$U" --init-groups "$ENTRY" --user "$U" -- /bin/true >"$OUT" 2>"$ERR"
RC=$?
t_check "not started as root: 125, and why" "rc=$RC $(cat "$ERR")" test "$RC" = 125 -a -n "$(grep 'as the container.s root' "$ERR")"
echo 'allow: [' >"$T/bad.yaml"
entry SBX_POLICY="$T/bad.yaml" -- --user "$U" -- /bin/touch "$WS/ran-bad"
ep_wait
t_check "sandboxd cannot start (a bad policy): 125, the agent never ran" "rc=$RC $(tail -c 300 "$T/ep.err")" \
	test "$RC" = 125 -a -n "$(grep 'before it served' "$T/ep.err")" -a ! -e "$WS/ran-bad"

# An audit file the agent could replace: in a directory of its own, or one others may
# write.  Refused before sandboxd starts; the agent never ran.
for d in "$T/outside" "$T/open"; do
	mkdir -p "$T/open"
	chmod 0777 "$T/open"
	rm -f "$WS/ran-aud"
	entry SBX_AUDIT_FILE="$d/audit.jsonl" -- --user "$U" -- /bin/touch "$WS/ran-aud"
	ep_wait
	t_check "SBX_AUDIT_FILE in ${d#"$T"/} (the agent could replace it): 125, why, the agent never ran" "rc=$RC $(tail -c 300 "$T/ep.err")" \
		test "$RC" = 125 -a -n "$(grep 'the agent could replace the file' "$T/ep.err")" -a ! -e "$WS/ran-aud" -a ! -e "$d/audit.jsonl"
done
