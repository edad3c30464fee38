#!/bin/bash
# Audit records of direct mode, read back from a real systemd-journald of the test's
# own (tests/journal.sh): an ALLOWED and an EXIT entry per run under one SBX_ID, a
# DENIED one for what the command policy refuses, argv cut at the profile's
# audit.argv_max, no field forged through argv, and the journalctl matches an
# operator would type.  Without a journal: not a byte more on stderr.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../journal.sh"
t_init

# The contract's MESSAGE_IDs (lib/audit.c): fixed forever, so they are spelt out here.
MID_ALLOWED=e24a03d3a4e54bac914f01bf1b5fe874
MID_DENIED=86265e15c6e94d9fbb52a5cffca2a15f
MID_FAILED=ab6d1530ddaa438290d06843113cce6a
MID_EXIT=8d0361d253694b50860bfedc155f483c

if ! jd_binary >/dev/null; then
	t_skip "audit" "systemd-journald is not installed (apt-get install systemd)"
	exit 0
fi

E=$T/entry   # the entry under test, flattened: FIELD=value and FIELD#=count lines

# expect_field NAME FIELD WANT: the entry in $E has FIELD exactly once, equal to WANT.
expect_field() {
	local name=$1 key=$2 want=$3 got n
	n=$(kv "$key#" "$E")
	got=$(kv "$key" "$E")
	if [[ $n == 1 && $got == "$want" ]]; then
		t_ok "$name"
	else
		t_fail "$name" "$key=${got:-<absent>} (${n:-0} values), expected $want"
	fi
}

expect_no_field() {
	if kv "$2" "$E" >/dev/null; then
		t_fail "$1" "$2=$(kv "$2" "$E") present"
	else
		t_ok "$1"
	fi
}

# matches REGEX STRING
matches() {
	[[ $2 =~ $1 ]]
}

# entry NAME IN FIELD=VALUE...: flattens the first matching entry of IN into $E.
entry() {
	local name=$1 in=$2
	shift 2
	if jd_entry "$in" "$E" "$@"; then
		return 0
	fi
	t_fail "$name" "no entry with $* among $(jd_count "$in") new entries ($(run_info))"
	return 1
}

# ------------------------------------------------------------------ without a journal
# First, where no journal is reachable at all (whatever the host runs): direct mode
# runs and fails exactly as before, and writes no audit line on the command's stderr.

nojournal() {
	local t0
	t0=$(_now_us)
	jd_without timeout -k 5 "$SBX_HANG" "$SBX_RUN" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
	if ((WALL_MS >= SBX_HANG * 1000)); then
		HUNG=1
	fi
}

nojournal --workspace "$WS" -- /bin/true
expect_rc "no journal: /bin/true exits 0" 0
t_check "no journal: nothing on stderr" "stderr: $(head -c 300 "$ERR")" test ! -s "$ERR"
t_check "no journal: nothing on stdout" "stdout: $(head -c 300 "$OUT")" test ! -s "$OUT"
nojournal --workspace "$WS" -- "$WS/probe" exit 3
expect_rc "no journal: exit 3 passes through" 3
t_check "no journal: exit 3, nothing on stderr" "stderr: $(head -c 300 "$ERR")" test ! -s "$ERR"
nojournal --workspace "$WS" --profile strict -- rm -rf /
expect_rc "no journal: denied exits 126" 126
t_check "no journal: denied prints its one 'sbx-run:' line and nothing else" "stderr: $(head -c 300 "$ERR")" \
	test "$(wc -l <"$ERR")" = 1 -a "$(grep -c '^sbx-run: ' "$ERR")" = 1

# The whole cost without a journal: one failed stat of the socket per record, no
# socket made, nothing sent.
if command -v strace >/dev/null; then
	jd_without strace -f -qq -o "$T/strace" -e trace=socket,connect,sendmsg,newfstatat,stat,statx \
		"$SBX_RUN" --workspace "$WS" -- /bin/true >/dev/null 2>&1 </dev/null
	n_stat=$(grep -c '/run/systemd/journal/socket.*ENOENT' "$T/strace")
	n_dgram=$(grep -cE 'socket\(AF_UNIX, SOCK_DGRAM|sendmsg\(.*journal' "$T/strace")
	t_check "no journal: two records cost two failed stats of the socket, no socket, no send" \
		"stats=$n_stat datagram sockets/sends=$n_dgram" test "$n_stat" = 2 -a "$n_dgram" = 0
else
	t_skip "no journal: the cost, by strace" "strace is not installed"
fi

# ------------------------------------------------------------------ a journal of our own

host_journal_before=$(ls -A /run/log/journal /var/log/journal 2>/dev/null)
host_socket_before=$(test -e /run/systemd/journal/socket && echo yes)
if ! jd_start 2>"$T/jd_start.err"; then
	t_fail "journald starts in a private namespace" "$(head -c 500 "$T/jd_start.err")"
	exit 0
fi
t_ok "journald starts in a private namespace"

# --- /bin/true: ALLOWED then EXIT, one id
jd_sbx --workspace "$WS" -- /bin/true
expect_rc "/bin/true exits 0" 0
t_check "with a journal: nothing on stderr either" "stderr: $(head -c 300 "$ERR")" test ! -s "$ERR"
jd_query "$T/true.json" SBX_MODE=direct
t_check "/bin/true: two entries, ALLOWED and EXIT" "$(jd_count "$T/true.json") entries" \
	test "$(jd_count "$T/true.json")" = 2
if entry "/bin/true: an ALLOWED entry" "$T/true.json" SBX_EVENT=allowed; then
	expect_field "allowed: MESSAGE_ID" MESSAGE_ID "$MID_ALLOWED"
	expect_field "allowed: PRIORITY is info" PRIORITY 6
	expect_field "allowed: SYSLOG_IDENTIFIER" SYSLOG_IDENTIFIER sbx-run
	expect_field "allowed: SBX_MODE" SBX_MODE direct
	expect_field "allowed: SBX_PROFILE" SBX_PROFILE workspace
	expect_field "allowed: SBX_UID" SBX_UID 0
	expect_field "allowed: SBX_GID" SBX_GID 0
	expect_field "allowed: SBX_ARGV" SBX_ARGV '["/bin/true"]'
	expect_field "allowed: SBX_ARGV0 is the basename" SBX_ARGV0 true
	expect_field "allowed: SBX_CWD is the workspace" SBX_CWD "$WS"
	expect_field "allowed: SBX_DECISION" SBX_DECISION allow
	expect_no_field "allowed: not truncated" SBX_ARGV_TRUNCATED
	# journald's own _PID (from the socket's credentials) is sbx-run's: SBX_PID too.
	expect_field "allowed: SBX_PID is the sender's _PID" SBX_PID "$(kv _PID "$E")"
	allowed_id=$(kv SBX_ID "$E")
	t_check "allowed: SBX_ID is 16 hex digits" "SBX_ID=$allowed_id" matches '^[0-9a-f]{16}$' "$allowed_id"
fi
if entry "/bin/true: an EXIT entry" "$T/true.json" SBX_EVENT=exit; then
	expect_field "exit: MESSAGE_ID" MESSAGE_ID "$MID_EXIT"
	expect_field "exit: the same SBX_ID as ALLOWED" SBX_ID "${allowed_id:-<none>}"
	expect_field "exit: SBX_EXIT_STATUS" SBX_EXIT_STATUS 0
	expect_field "exit: SBX_EXIT_CODE" SBX_EXIT_CODE 0
	expect_no_field "exit: no SBX_SIGNAL" SBX_SIGNAL
	expect_field "exit: SBX_TIMED_OUT" SBX_TIMED_OUT 0
	expect_field "exit: SBX_OOM_KILLED" SBX_OOM_KILLED 0
	expect_field "exit: SBX_PROFILE" SBX_PROFILE workspace
	expect_field "exit: SBX_MODE" SBX_MODE direct
	expect_field "exit: SBX_ARGV" SBX_ARGV '["/bin/true"]'
	expect_field "exit: SBX_CWD is the workspace" SBX_CWD "$WS"
	expect_no_field "exit: no SBX_DECISION" SBX_DECISION
	for k in SBX_DURATION_MS SBX_CPU_MS; do
		t_check "exit: $k is a number" "$k=$(kv "$k" "$E")" matches '^[0-9]+$' "$(kv "$k" "$E")"
	done
	t_check "exit: SBX_PEAK_MEMORY is a positive number" "SBX_PEAK_MEMORY=$(kv SBX_PEAK_MEMORY "$E")" \
		matches '^[1-9][0-9]*$' "$(kv SBX_PEAK_MEMORY "$E")"
fi

# --- sbx-run's journal socket (opened for ALLOWED, before the jail) does not leak in
jd_sbx --workspace "$WS" -- "$WS/probe" status
if ran_ok "status runs with a journal"; then
	expect_kv "with a journal: only fds 0,1,2 in the jail" fds "0,1,2"
fi

# --- the command's own status, and a signal
jd_mark
jd_sbx --workspace "$WS" -- "$WS/probe" exit 3
expect_rc "exit 3" 3
jd_query "$T/exit3.json" SBX_MODE=direct
if entry "exit 3: an EXIT entry" "$T/exit3.json" SBX_EVENT=exit; then
	expect_field "exit 3: SBX_EXIT_STATUS" SBX_EXIT_STATUS 3
	expect_field "exit 3: SBX_EXIT_CODE" SBX_EXIT_CODE 3
	expect_field "exit 3: SBX_ARGV0" SBX_ARGV0 probe
fi

jd_mark
jd_sbx --workspace "$WS" -- "$WS/probe" raise 9
expect_rc "SIGKILL" 137
jd_query "$T/kill.json" SBX_MODE=direct
if entry "SIGKILL: an EXIT entry" "$T/kill.json" SBX_EVENT=exit; then
	expect_field "SIGKILL: SBX_EXIT_STATUS" SBX_EXIT_STATUS 137
	expect_field "SIGKILL: SBX_SIGNAL" SBX_SIGNAL 9
	expect_no_field "SIGKILL: no SBX_EXIT_CODE" SBX_EXIT_CODE
fi

jd_mark
jd_sbx --workspace "$WS" -- /nonexistent/cmd
expect_rc "not found" 127
jd_query "$T/notfound.json" SBX_MODE=direct
if entry "not found: an EXIT entry with the error" "$T/notfound.json" SBX_EVENT=exit; then
	expect_field "not found: SBX_EXIT_STATUS" SBX_EXIT_STATUS 127
	expect_field "not found: SBX_STAGE" SBX_STAGE exec
	expect_field "not found: SBX_ERRNO" SBX_ERRNO 2
fi

# --- denied by the command policy: DENIED, with the verdict's reason, and nothing else
jd_mark
verdict=$("$SBX_RUN" --workspace "$WS" --profile strict --check -- rm -rf / 2>/dev/null)
jd_sbx --workspace "$WS" --profile strict -- rm -rf /
expect_rc "strict: rm -rf / denied" 126
jd_query "$T/denied.json" SBX_MODE=direct
t_check "denied: one entry, no ALLOWED or EXIT" "$(jd_count "$T/denied.json") entries" \
	test "$(jd_count "$T/denied.json")" = 1
if entry "denied: a DENIED entry" "$T/denied.json" SBX_EVENT=denied; then
	expect_field "denied: MESSAGE_ID" MESSAGE_ID "$MID_DENIED"
	expect_field "denied: PRIORITY is warning" PRIORITY 4
	expect_field "denied: SBX_DECISION" SBX_DECISION deny
	expect_field "denied: SBX_PROFILE" SBX_PROFILE strict
	expect_field "denied: SBX_ARGV" SBX_ARGV '["rm","-rf","/"]'
	expect_field "denied: SBX_ARGV0" SBX_ARGV0 rm
	expect_field "denied: SBX_REASON is the --check verdict's" SBX_REASON "${verdict#deny: }"
fi

# --- a plan that fails validation is refused: DENIED with the error, no ALLOWED
jd_mark
jd_sbx --workspace "$WS" --rw /etc -- /bin/true
expect_rc "--rw /etc: refused" 125
jd_query "$T/rw.json" SBX_MODE=direct
t_check "--rw /etc: one entry" "$(jd_count "$T/rw.json") entries" test "$(jd_count "$T/rw.json")" = 1
if entry "--rw /etc: a DENIED entry" "$T/rw.json" SBX_EVENT=denied; then
	expect_field "--rw /etc: SBX_DECISION" SBX_DECISION deny
	expect_field "--rw /etc: SBX_STAGE" SBX_STAGE validate
	expect_field "--rw /etc: SBX_ERRNO is EPERM" SBX_ERRNO 1
	expect_field "--rw /etc: SBX_PATH" SBX_PATH /etc
	t_check "--rw /etc: SBX_REASON says why" "no SBX_REASON" test -n "$(kv SBX_REASON "$E")"
fi

# --- allowed, but the jail could not be set up: ALLOWED, then FAILED with the error
jd_mark
jd_sbx --workspace "$WS" --pids 1 -- /bin/true
expect_rc "--pids 1: sbx fails" 125
jd_query "$T/failed.json" SBX_MODE=direct
t_check "--pids 1: ALLOWED and FAILED" "$(jd_count "$T/failed.json") entries" \
	test "$(jd_count "$T/failed.json" SBX_EVENT=allowed)" = 1 -a "$(jd_count "$T/failed.json" SBX_EVENT=failed)" = 1
if entry "--pids 1: a FAILED entry" "$T/failed.json" SBX_EVENT=failed; then
	expect_field "failed: MESSAGE_ID" MESSAGE_ID "$MID_FAILED"
	expect_field "failed: PRIORITY is err" PRIORITY 3
	expect_field "failed: SBX_STAGE" SBX_STAGE init
	expect_field "failed: SBX_SYSCALL" SBX_SYSCALL fork
	expect_field "failed: SBX_ERRNO is EAGAIN" SBX_ERRNO 11
	expect_field "failed: SBX_PROFILE" SBX_PROFILE workspace
	expect_no_field "failed: no SBX_DECISION" SBX_DECISION
fi

# --- argv cut at the profile's audit.argv_max
cat >"$T/small.yaml" <<'EOF'
extends: workspace
audit:
  argv_max: 64
EOF
long=()
for i in 1 2 3 4 5 6 7 8; do long+=("argument-$i-ééééé"); done
jd_mark
jd_sbx --workspace "$WS" --profile "$T/small.yaml" -- /bin/true "${long[@]}"
expect_rc "argv_max 64: runs" 0
jd_query "$T/small.json" SBX_MODE=direct
if entry "argv_max 64: an ALLOWED entry" "$T/small.json" SBX_EVENT=allowed; then
	expect_field "argv_max 64: SBX_PROFILE is the file's name" SBX_PROFILE small
	expect_field "argv_max 64: SBX_ARGV_TRUNCATED" SBX_ARGV_TRUNCATED 1
	argv_json=$(kv SBX_ARGV "$E")
	# At most 64 bytes, valid UTF-8 and JSON, and each element a prefix of the real one.
	if "$PYTHON" -c '
import json, sys
raw = sys.argv[1].encode("utf-8", "surrogateescape")
full = sys.argv[2:]
got = json.loads(raw.decode("utf-8"))
assert len(raw) <= 64, len(raw)
assert 1 <= len(got) < len(full), got
assert got[:-1] == full[:len(got) - 1], got
assert full[len(got) - 1].startswith(got[-1]), got
' "$argv_json" /bin/true "${long[@]}" 2>"$T/py.err"; then
		t_ok "argv_max 64: SBX_ARGV is a JSON prefix of argv in at most 64 bytes"
	else
		t_fail "argv_max 64: SBX_ARGV is a JSON prefix of argv in at most 64 bytes" \
			"SBX_ARGV=$argv_json: $(tail -n 1 "$T/py.err")"
	fi
fi

# --- a forged field in argv stays inside SBX_ARGV
forged=$'x\nSBX_UID=4242\nSBX_PROFILE=forged\nSBX_DECISION=deny\nMESSAGE_ID='$MID_DENIED
jd_mark
jd_sbx --workspace "$WS" -- /bin/true "$forged"
expect_rc "forged argv: runs" 0
jd_query "$T/forged.json" SBX_MODE=direct
if entry "forged argv: an ALLOWED entry" "$T/forged.json" SBX_EVENT=allowed; then
	expect_field "forged argv: SBX_UID not forged" SBX_UID 0
	expect_field "forged argv: SBX_PROFILE not forged" SBX_PROFILE workspace
	expect_field "forged argv: SBX_DECISION not forged" SBX_DECISION allow
	expect_field "forged argv: MESSAGE_ID not forged" MESSAGE_ID "$MID_ALLOWED"
	if "$PYTHON" -c 'import json, sys; assert json.loads(sys.argv[1]) == ["/bin/true", sys.argv[2]]' \
		"$(kv SBX_ARGV "$E")" "$forged" 2>/dev/null; then
		t_ok "forged argv: the argument arrives whole inside SBX_ARGV"
	else
		t_fail "forged argv: the argument arrives whole inside SBX_ARGV" "SBX_ARGV=$(kv SBX_ARGV "$E")"
	fi
fi
t_check "forged argv: no entry has SBX_PROFILE=forged" "found one" \
	test "$(jd_count "$T/forged.json" SBX_PROFILE=forged)" = 0

# A denied command whose name carries the forgery (it lands in the reason too).
jd_mark
jd_sbx --workspace "$WS" --profile strict -- $'nc\nSBX_DECISION=allow'
expect_rc "forged denied command: denied" 126
jd_query "$T/forged-denied.json" SBX_MODE=direct
if entry "forged denied command: a DENIED entry" "$T/forged-denied.json" SBX_EVENT=denied; then
	expect_field "forged denied command: SBX_DECISION stays deny" SBX_DECISION deny
	t_check "forged denied command: no ALLOWED entry" "$(jd_count "$T/forged-denied.json") entries" \
		test "$(jd_count "$T/forged-denied.json" SBX_EVENT=allowed)" = 0
fi

# ------------------------------------------------------------------ what an operator types
# The whole journal: under workspace, 6 runs of ALLOWED + EXIT (true, status, exit 3,
# raise 9, not found, forged), --rw /etc's DENIED, --pids 1's ALLOWED + FAILED; small's two;
# strict's two DENIED.
jd_sync
jd_run journalctl -D "$JD_LOGDIR" --no-pager -o json SBX_PROFILE=workspace >"$T/ws.json"
n_ws=$(jd_count "$T/ws.json")
n_ws_match=$(jd_count "$T/ws.json" SBX_PROFILE=workspace)
t_check "journalctl SBX_PROFILE=workspace: only workspace entries, all of them" \
	"$n_ws entries, $n_ws_match with SBX_PROFILE=workspace" test "$n_ws" = 15 -a "$n_ws_match" = 15
jd_run journalctl -D "$JD_LOGDIR" --no-pager -o json MESSAGE_ID="$MID_DENIED" >"$T/mid.json"
t_check "journalctl MESSAGE_ID=<denied>: the three denials and nothing else" \
	"$(jd_count "$T/mid.json") entries, $(jd_count "$T/mid.json" SBX_EVENT=denied) denied" \
	test "$(jd_count "$T/mid.json")" = 3 -a "$(jd_count "$T/mid.json" SBX_EVENT=denied)" = 3
jd_run journalctl -D "$JD_LOGDIR" --no-pager -o json SBX_ARGV0=rm >"$T/rm.json"
t_check "journalctl SBX_ARGV0=rm: the rm denial" "$(jd_count "$T/rm.json") entries" \
	test "$(jd_count "$T/rm.json")" = 1 -a "$(jd_count "$T/rm.json" SBX_PROFILE=strict)" = 1

# ------------------------------------------------------------------ the host untouched
t_check "the host's journal directories are untouched" "before: $host_journal_before" \
	test "$(ls -A /run/log/journal /var/log/journal 2>/dev/null)" = "$host_journal_before"
t_check "the private journal's socket is not the host's" "host /run/systemd/journal/socket appeared" \
	test "$(test -e /run/systemd/journal/socket && echo yes)" = "$host_socket_before"
exit 0
