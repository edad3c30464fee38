#!/bin/bash
# The audit file (sbx-run --audit-file/--audit-fd, sandboxd --audit-file/--audit-fd):
# the records a journald of the test's own gets, field for field and value for value,
# also as JSON lines in the file; without a journal the file alone; 20 concurrent runs
# on one file leave 40 whole lines; a file someone else could write or redirect is
# refused (the host's files untouched, the command never run); a file inside the jail's
# read-write binds is refused; through sandboxd as a test user; sandboxd --audit-fd 2
# writes JSON on stderr and no logfmt.  And sandboxd --listen's socket: removed on
# SIGTERM, SIGINT and a failed start; a stale one (SIGKILL) replaced; a live one, a
# file, another user's socket, a directory others may write: refused, left as they are.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../journal.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

A=$T/audit.jsonl

# same_as_journal NAME FILE JOURNAL-JSON: every line of FILE has an entry of the journal
# with the same SBX_ID and SBX_EVENT, and the two have the same fields with the same
# values (the journal's own, _* and __*, aside; values journalctl printed as bytes are
# compared as bytes).  Prints the line count or the first difference.
_same_py='
import json, sys
def norm(v):
    return bytes(v) if isinstance(v, list) else v.encode()
def mine(e):
    return {k: norm(v) for k, v in e.items() if not k.startswith("_")}
f = [json.loads(l) for l in open(sys.argv[1], encoding="utf-8")]
j = [json.loads(l) for l in open(sys.argv[2], encoding="utf-8")]
if not f:
    print("the file is empty"); sys.exit(1)
for e in f:
    m = [x for x in j if x.get("SBX_ID") == e.get("SBX_ID") and x.get("SBX_EVENT") == e["SBX_EVENT"]
         and x.get("MESSAGE") == e.get("MESSAGE")]
    if len(m) != 1:
        print("%d journal entries for %s %s" % (len(m), e.get("SBX_ID"), e["SBX_EVENT"])); sys.exit(1)
    a, b = mine(e), mine(m[0])
    if a != b:
        print("differ: file %s journal %s" % (sorted(set(a.items()) - set(b.items()))[:3], sorted(set(b.items()) - set(a.items()))[:3]))
        sys.exit(1)
    if "__REALTIME_TIMESTAMP" not in e:
        print("no __REALTIME_TIMESTAMP"); sys.exit(1)
print(len(f))
'
same_as_journal() {
	local name=$1 file=$2 jj=$3 out
	if out=$("$PYTHON" -c "$_same_py" "$file" "$jj" 2>&1); then
		t_ok "$name ($out records)"
	else
		t_fail "$name" "$out"
	fi
}

# lines_ok FILE: every line is one JSON object; prints the count.
lines_ok() {
	"$PYTHON" -c '
import json, sys
n = 0
for l in open(sys.argv[1], "rb"):
    assert l.endswith(b"\n"), "a line without its newline"
    e = json.loads(l)
    assert isinstance(e, dict) and "MESSAGE_ID" in e and "SBX_EVENT" in e
    n += 1
print(n)' "$1"
}

# field FILE EVENT KEY: KEY of the first record of EVENT.
field() {
	"$PYTHON" -c '
import json, sys
for l in open(sys.argv[1]):
    e = json.loads(l)
    if e.get("SBX_EVENT") == sys.argv[2]:
        print(e.get(sys.argv[3], "")); break' "$@"
}

# ------------------------------------------------------------------ direct mode
if jd_binary >/dev/null && jd_start; then
	jd_mark
	jd_sbx --direct --workspace "$WS" --audit-file "$A" -- "$WS/probe" exit 3
	expect_rc "direct, journal and file: exit 3" 3
	jd_sbx --direct --workspace "$WS" --profile strict --audit-file "$A" -- rm -rf /
	expect_rc "direct, journal and file: denied" 126
	jd_sbx --direct --workspace "$WS" --audit-file "$A" -- "$WS/probe" raise 9
	expect_rc "direct, journal and file: killed" 137
	jd_sbx --direct --workspace "$WS" --audit-file "$A" -- /nonexistent/cmd $'a\nb' $'\xff\x01'
	expect_rc "direct, journal and file: not found" 127
	jd_query "$T/direct.json" SBX_MODE=direct
	t_check "direct: 7 records in the file (allowed+exit x3, denied)" "$(lines_ok "$A" 2>&1)" \
		test "$(lines_ok "$A" 2>/dev/null)" = 7
	same_as_journal "direct: the file's records are the journal's, field for field" "$A" "$T/direct.json"
	t_check "direct: created 0600, root's" "$(stat -c '%a %u' "$A")" test "$(stat -c '%a %u' "$A")" = "600 0"
else
	t_fail "journal" "no private journald (apt-get install systemd): the comparison cannot run"
fi

# Without a journal: the file alone, and not a byte on the command's stderr.
rm -f "$A"
jd_without "$SBX_RUN" --direct --workspace "$WS" --audit-file "$A" -- /bin/true >"$OUT" 2>"$ERR" </dev/null
RC=$?
expect_rc "no journal: /bin/true" 0
t_check "no journal: nothing on stderr" "$(head -c 300 "$ERR")" test ! -s "$ERR"
t_check "no journal: allowed and exit in the file" "$(cat "$A" 2>&1 | head -c 300)" \
	test "$(field "$A" exit SBX_EXIT_STATUS)" = 0 -a "$(field "$A" allowed SBX_DECISION)" = allow
"$SBX_RUN" --direct --workspace "$WS" --audit-fd 7 -- /bin/true 7>>"$A" >"$OUT" 2>"$ERR"
RC=$?
expect_rc "--audit-fd 7>>FILE" 0
t_check "--audit-fd: two more lines" "$(lines_ok "$A" 2>&1)" test "$(lines_ok "$A" 2>/dev/null)" = 4
"$SBX_RUN" --direct --workspace "$WS" --audit-fd 7 -- "$WS/probe" status 7>>"$A" >"$OUT" 2>"$ERR"
expect_kv "--audit-fd: the fd does not reach the jail" fds "0,1,2"

# 20 runs at once on one file: 40 whole lines, every id with its allowed and its exit.
rm -f "$A"
pids=()
for i in $(seq 1 20); do
	jd_without "$SBX_RUN" --direct --workspace "$WS" --audit-file "$A" -- /bin/echo "run $i $(head -c 3000 /dev/zero | tr '\0' x)" \
		>/dev/null 2>>"$T/par.err" </dev/null &
	pids+=($!)
done
bad=0
for p in "${pids[@]}"; do wait "$p" || bad=$((bad + 1)); done
t_check "20 concurrent runs: all exit 0" "$bad failed: $(head -c 300 "$T/par.err")" test "$bad" = 0
n=$(lines_ok "$A" 2>&1)
t_check "20 concurrent runs: 40 lines, each whole JSON" "$n" test "$n" = 40
ids=$("$PYTHON" -c '
import json, sys, collections
c = collections.Counter()
for l in open(sys.argv[1]):
    e = json.loads(l); c[(e["SBX_ID"], e["SBX_EVENT"])] += 1
ids = {i for i, _ in c}
print(sum(1 for i in ids if c[(i, "allowed")] == 1 and c[(i, "exit")] == 1))' "$A" 2>&1)
t_check "20 concurrent runs: 20 ids, each allowed once and exited once" "$ids" test "$ids" = 20

# ------------------------------------------------------------------ refusals
# What the path names stays as it was, and the command never runs.
echo precious >"$T/victim"
chmod 0644 "$T/victim"
ln -s "$T/victim" "$T/link.jsonl"
sbx --direct --workspace "$WS" --audit-file "$T/link.jsonl" -- /bin/touch "$WS/ran-link"
expect_rc "a symlink as the audit file: 125" 125
t_check "symlink: the target is untouched, nothing ran" "$(cat "$T/victim")" \
	test "$(cat "$T/victim")" = precious -a ! -e "$WS/ran-link"

install -m 0600 -o "$NOBODY" /dev/null "$T/other.jsonl"
sbx --direct --workspace "$WS" --audit-file "$T/other.jsonl" -- /bin/touch "$WS/ran-other"
expect_rc "another user's file: 125" 125
t_check "another user's file: still empty, nothing ran" "$(wc -c <"$T/other.jsonl")" \
	test ! -s "$T/other.jsonl" -a ! -e "$WS/ran-other"

install -m 0666 /dev/null "$T/ww.jsonl"
sbx --direct --workspace "$WS" --audit-file "$T/ww.jsonl" -- /bin/touch "$WS/ran-ww"
expect_rc "a world-writable file: 125" 125
t_check "world-writable: nothing ran" "ran" test ! -e "$WS/ran-ww"
grep -q 'writable by everyone' "$ERR" && t_ok "world-writable: the message says why" || t_fail "world-writable: message" "$(cat "$ERR")"

install -m 0600 /dev/null "$T/one.jsonl"
ln "$T/one.jsonl" "$T/two.jsonl"
sbx --direct --workspace "$WS" --audit-file "$T/one.jsonl" -- /bin/touch "$WS/ran-hl"
expect_rc "a hard-linked file: 125" 125
mkfifo "$T/fifo.jsonl"
sbx --direct --workspace "$WS" --audit-file "$T/fifo.jsonl" -- /bin/touch "$WS/ran-fifo"
expect_rc "a FIFO: 125, without hanging" 125
t_check "a FIFO: did not hang" "HUNG=$HUNG" test "$HUNG" = 0

# Inside what the jail may write: the command could erase or forge its own records.
mkdir -p "$WS/sub" "$T/rw"
sbx --direct --workspace "$WS" --audit-file "$WS/sub/a.jsonl" -- /bin/touch "$WS/ran-ws"
expect_rc "audit file in the workspace: 125" 125
t_check "audit file in the workspace: nothing ran" "ran" test ! -e "$WS/ran-ws"
sbx --direct --workspace "$WS" --rw "$T/rw" --audit-file "$T/rw/a.jsonl" -- /bin/touch "$WS/ran-rw"
expect_rc "audit file under a --rw bind: 125" 125
mkdir -p "$T/alias"
mount --bind "$WS" "$T/alias" && t_defer "umount -l '$T/alias'"
sbx --direct --workspace "$WS" --audit-file "$T/alias/b.jsonl" -- /bin/touch "$WS/ran-alias"
expect_rc "audit file in the workspace by another (bind mount) name: 125" 125
t_check "by another name: nothing ran" "ran" test ! -e "$WS/ran-alias"
sbx --direct --workspace "$WS" --ro "$T/rw" --audit-file "$T/rw/c.jsonl" -- /bin/true
expect_rc "audit file under a read-only bind: allowed" 0

# The file (or pipe) the jail gets as its stdin, stdout or stderr: the command writes a
# line of its own choosing there, or half of one that swallows the next record.
FORGE='printf "%s\n" "{\"SBX_EVENT\":\"exit\",\"SBX_ID\":\"forged\"}" >&2; printf "{\"X\":" >&2'
for how in "2>>" "1>>" "2>> and 7>>"; do
	install -m 0600 /dev/null "$T/shared.jsonl"
	case $how in
	"2>>") "$SBX_RUN" --direct --workspace "$WS" --audit-fd 2 -- /bin/sh -c "$FORGE" 2>>"$T/shared.jsonl" >/dev/null </dev/null ;;
	"1>>") "$SBX_RUN" --direct --workspace "$WS" --audit-fd 1 -- /bin/sh -c "$FORGE >&1 2>&1" >>"$T/shared.jsonl" 2>/dev/null </dev/null ;;
	*) "$SBX_RUN" --direct --workspace "$WS" --audit-fd 7 -- /bin/sh -c "$FORGE" 7>>"$T/shared.jsonl" 2>>"$T/shared.jsonl" >/dev/null </dev/null ;;
	esac
	RC=$?
	expect_rc "audit fd shared with the jail's stdio ($how): 125" 125
	t_check "audit fd shared with the jail's stdio ($how): no forged line" "$(head -c 300 "$T/shared.jsonl")" \
		sh -c "! grep -q forged '$T/shared.jsonl'"
done
mkfifo "$T/shared.fifo"
(cat "$T/shared.fifo" >"$T/shared.out") &
reader=$!
"$SBX_RUN" --direct --workspace "$WS" --audit-fd 2 -- /bin/sh -c "$FORGE" 2>"$T/shared.fifo" >/dev/null </dev/null
RC=$?
wait "$reader" # only the reader: the test's journald runs in the background too
expect_rc "audit fd: a pipe the jail's stderr also is: 125" 125
t_check "a shared pipe: no forged line" "$(head -c 300 "$T/shared.out")" sh -c "! grep -q forged '$T/shared.out'"

sbx --daemon --socket "$DM_SOCK" --workspace "$WS" --audit-file "$A" -- /bin/true
expect_rc "--audit-file through sandboxd: 125 (sandboxd writes those records)" 125

# ------------------------------------------------------------------ sandboxd
U=sbxa$SBX_RUN_ID
if ! dm_user "$U"; then
	t_fail "setup" "cannot create the test user $U"
	exit 0
fi
chown -R "$U:$U" "$WS"
dm_policy <<EOF
allow:
  - users: [$U]
    profiles: [workspace]
    max_sandboxes: 4
deny:
  commands: [dd]
limits:
  grace: 1s
EOF
DA=$DM_DIR/audit.jsonl
usbx() {
	timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups \
		"$SBX_RUN" --daemon --socket "$DM_SOCK" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}
if [[ -n $JD_PID ]]; then
	jd_mark
	if dm_start --prefix nsenter -m -t "$JD_PID" -- --audit-file "$DA"; then
		usbx --workspace "$WS" -- "$WS/probe" exit 5
		expect_rc "sandboxd: the user's run" 5
		usbx --workspace "$WS" -- dd if=/dev/zero
		expect_rc "sandboxd: the site's deny" 126
		dm_stop
		jd_query "$T/daemon.json" SYSLOG_IDENTIFIER=sandboxd
		same_as_journal "sandboxd: the file's records are the journal's, field for field" "$DA" "$T/daemon.json"
		t_check "sandboxd: the user's uid in the file" "$(field "$DA" exit SBX_UID)" \
			test "$(field "$DA" exit SBX_UID)" = "$(id -u "$U")"
		t_check "sandboxd: started, allowed, exit, denied, stopping" "$(cut -c1-200 "$DA")" \
			test "$(field "$DA" denied SBX_DECISION)" = deny -a "$(field "$DA" exit SBX_EXIT_STATUS)" = 5 \
			-a "$(grep -c '"SBX_EVENT":"daemon"' "$DA")" = 2
		t_check "sandboxd: the file is root's, 0600" "$(stat -c '%a %u' "$DA")" test "$(stat -c '%a %u' "$DA")" = "600 0"
	else
		t_fail "sandboxd --audit-file" "did not start: $(tail -c 300 "$DM_LOG")"
	fi
fi

# --audit-fd 2 without a journal (a container): JSON lines on stderr, no logfmt.
: >"$DM_LOG"
# (jd_without as a prefix that execs: sandboxd keeps the pid dm_start waits on)
NOJ=(unshare -m --propagation private sh -c 'if [ -d /run/systemd/journal ]; then mount -t tmpfs -o size=1m sbx-nojournal /run/systemd/journal; fi; exec "$@"' nojournal)
if dm_start --prefix "${NOJ[@]}" -- --audit-fd 2; then
	usbx --workspace "$WS" -- "$WS/probe" exit 4
	expect_rc "sandboxd --audit-fd 2: the run" 4
	dm_stop
	grep '^{' "$DM_LOG" >"$T/stderr.jsonl"
	t_check "--audit-fd 2: started, allowed, exit, stopping as JSON on stderr" "$(head -c 400 "$DM_LOG")" \
		test "$(lines_ok "$T/stderr.jsonl" 2>/dev/null)" = 4 -a "$(field "$T/stderr.jsonl" exit SBX_EXIT_STATUS)" = 4
	t_check "--audit-fd 2: no logfmt line" "$(grep '^sbx ' "$DM_LOG" | head -c 300)" test -z "$(grep '^sbx ' "$DM_LOG")"
else
	t_fail "sandboxd --audit-fd 2" "did not start: $(tail -c 300 "$DM_LOG")"
fi

# ------------------------------------------------------------------ sandboxd: the jail's stdio is its audit sink
# A caller (an agent that inherited sandboxd's stderr, as a container's entrypoint
# gave it; or one that opens the audit file or terminal again) passes the audit
# stream as the jail's stdin, stdout or stderr: refused (125, the reason and the
# remedy), a denied record says so, and the stream holds no line the jail wrote.
# Each form also run with stdio of its own, which works (the control).
FORGED='"SBX_ID":"forged"'
FORGE='for f in 1 2; do printf "%s\n" "{\"SBX_EVENT\":\"exit\",\"SBX_ID\":\"forged\"}" >&$f; printf "{\"X\":" >&$f; done'
# ushare RCVAR REDIRECTIONS...: the user's sbx-run through sandboxd, running FORGE,
# with the test shell's REDIRECTIONS (eval'd: they may name fds the test holds).
ushare() {
	eval "timeout -k 5 \"\$SBX_HANG\" setpriv --reuid=\"\$U\" --regid=\"\$U\" --init-groups \
		\"\$SBX_RUN\" --daemon --socket \"\$DM_SOCK\" --workspace \"\$WS\" -- /bin/sh -c \"\$FORGE\" $1"
	RC=$?
}
mkfifo "$T/sd.fifo"
(exec cat "$T/sd.fifo" >"$T/sd.stream") &
sd_reader=$!
t_defer "kill $sd_reader 2>/dev/null"
exec 8>"$T/sd.fifo"
if dm_start --prefix "${NOJ[@]}" -- --audit-fd 8; then
	ushare '</dev/null >"$OUT" 2>"$ERR"'
	expect_rc "sandboxd --audit-fd on a pipe: a run with stdio of its own (control)" 0
	ushare '</dev/null >"$OUT" 2>&8'
	expect_rc "sandboxd: a run whose stderr is the audit pipe (the same open file): 125" 125
	ushare '</dev/null >&8 2>"$ERR"'
	expect_rc "sandboxd: a run whose stdout is the audit pipe: 125" 125
	t_check "sandboxd: the refusal names the audit stream and the remedy" "$(cat "$ERR")" \
		sh -c "grep -q 'stdout is sandboxd.s audit' '$ERR' && grep -q 'of its own' '$ERR'"
	ushare '</dev/null >"$OUT" 2>"$T/sd.fifo"'
	expect_rc "sandboxd: a run whose stderr is the audit pipe opened again (its name): 125" 125
	ushare '<"$T/sd.fifo" >"$OUT" 2>"$ERR"'
	expect_rc "sandboxd: a run whose stdin is the audit pipe (it could read and swallow records): 125" 125
	dm_stop
	exec 8>&-
	wait "$sd_reader"
	t_check "sandboxd: the audit pipe holds no line the jail wrote" "$(grep -a forged "$T/sd.stream" | head -c 300)" \
		sh -c "! grep -q '$FORGED' '$T/sd.stream' && ! grep -qF '{\"X\":' '$T/sd.stream'"
	t_check "sandboxd: the refusals are audited (4 denied records, the reason)" "$(grep -a denied "$T/sd.stream" | head -c 400)" \
		test "$(grep -a '"SBX_EVENT":"denied"' "$T/sd.stream" | grep -c 'audit stream')" = 4
	t_check "sandboxd: the control's exit record" "" grep -q '"SBX_EVENT":"exit"' "$T/sd.stream"
else
	exec 8>&-
	t_fail "sandboxd --audit-fd on a pipe" "did not start: $(tail -c 300 "$DM_LOG")"
fi

# The audit file: opened again by its name, a symlink to it, /proc/self/fd of an fd.
DF=$DM_DIR/shared.jsonl
ln -s "$DF" "$T/shared-link"
if dm_start --prefix "${NOJ[@]}" -- --audit-file "$DF"; then
	ushare '</dev/null >>"$DF" 2>"$ERR"'
	expect_rc "sandboxd --audit-file: a run whose stdout is the audit file: 125" 125
	ushare '</dev/null >"$OUT" 2>>"$T/shared-link"'
	expect_rc "sandboxd --audit-file: a run whose stderr is a symlink to it: 125" 125
	exec 9<"$DF"
	ushare '</proc/self/fd/9 >"$OUT" 2>"$ERR"'
	expect_rc "sandboxd --audit-file: a run whose stdin is it through /proc/self/fd: 125" 125
	exec 9<&-
	dm_stop
	t_check "sandboxd --audit-file: no line the jail wrote" "$(head -c 300 "$DF")" sh -c "! grep -q '$FORGED' '$DF'"
	t_check "sandboxd --audit-file: 3 refusals audited" "$(grep -a denied "$DF" | head -c 300)" \
		test "$(grep -c '"SBX_EVENT":"denied"' "$DF")" = 3
else
	t_fail "sandboxd --audit-file (shared)" "did not start: $(tail -c 300 "$DM_LOG")"
fi

# stderr_forge LABEL PREFIX...: sandboxd started through PREFIX, its records on its
# stderr; a run whose stderr is that stream is refused (125), the line the jail
# would have forged is not there, and the refusal is audited there.
stderr_forge() {
	local label=$1
	shift
	: >"$DM_LOG"
	if ! dm_start --prefix "$@" --; then
		t_fail "sandboxd, $label" "did not start: $(tail -c 300 "$DM_LOG")"
		return
	fi
	FORGE='echo "sbx event=exit id=forged mode=daemon" >&2' ushare '</dev/null >"$OUT" 2>>"$DM_LOG"'
	expect_rc "sandboxd, $label: a run whose stderr is sandboxd's stderr: 125" 125
	dm_stop
	t_check "sandboxd, $label: no line the jail wrote" "$(grep forged "$DM_LOG" | head -c 300)" \
		sh -c "! grep -q '^sbx event=exit id=forged' '$DM_LOG'"
	t_check "sandboxd, $label: the refusal audited on stderr" "$(head -c 600 "$DM_LOG")" \
		sh -c "grep '^sbx event=denied' '$DM_LOG' | grep -q 'audit stream'"
}

# Without a journal or an audit file, the records are logfmt lines on sandboxd's
# stderr: that stream is the audit sink.
stderr_forge "logfmt on stderr" "${NOJ[@]}"

# A journal that died: its socket file is still there, nobody receives, and the
# records fall back to stderr all the same.  The stream is compared whatever the
# socket file says.
DEADJ=(unshare -m --propagation private sh -c 'mkdir -p /run/systemd/journal && mount -t tmpfs -o size=1m sbx-deadjournal /run/systemd/journal &&
	python3 -c "import socket; s = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM); s.bind(\"/run/systemd/journal/socket\")" && exec "$@"' deadjournal)
stderr_forge "dead journal" "${DEADJ[@]}"

# A terminal: sandboxd's audit on a pseudo-terminal, the jail's stdout that terminal
# by its name, or through /dev/tty (another inode: the device behind it counts).
cat >"$T/ptyreader.py" <<'EOF'
import os, pty, sys, signal
m, s = pty.openpty()
open(sys.argv[1] + ".name", "w").write(os.ttyname(s))
signal.signal(signal.SIGTERM, lambda *a: sys.exit(0))
with open(sys.argv[1], "wb", buffering=0) as out:
    while True:
        try:
            b = os.read(m, 4096)
        except OSError:
            break
        if not b:
            break
        out.write(b)
EOF
"$PYTHON" "$T/ptyreader.py" "$T/pty.out" 2>"$T/pty.err" &
pty_pid=$!
t_defer "kill $pty_pid 2>/dev/null"
if wait_until 10 test -s "$T/pty.out.name"; then
	PTS=$(cat "$T/pty.out.name")
	exec 7>"$PTS"
	if dm_start --prefix "${NOJ[@]}" -- --audit-fd 7; then
		ushare '</dev/null >"$PTS" 2>"$ERR"'
		expect_rc "sandboxd, audit on a terminal: a run whose stdout is that terminal: 125" 125
		# /dev/tty: the terminal made the controlling one of a new session first
		# (setsid -c takes stdin's), stdin then /dev/null.
		FORGE="$FORGE" SBX_HANG=$SBX_HANG U=$U SBX_RUN=$SBX_RUN DM_SOCK=$DM_SOCK WS=$WS ERR=$ERR \
			setsid -c -w sh -c 'exec timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups \
				"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- /bin/sh -c "$FORGE" </dev/null >/dev/tty 2>"$ERR"' <"$PTS"
		RC=$?
		expect_rc "sandboxd, audit on a terminal: a run whose stdout is /dev/tty (the same terminal): 125" 125
		t_check "the /dev/tty run's refusal names stdout" "$(cat "$ERR")" grep -q 'stdout is sandboxd.s audit' "$ERR"
		dm_stop
	else
		t_fail "sandboxd --audit-fd on a terminal" "did not start: $(tail -c 300 "$DM_LOG")"
	fi
	exec 7>&-
	sleep 0.5
	t_check "sandboxd, audit on a terminal: no line the jail wrote" "$(grep -a forged "$T/pty.out" | head -c 300)" \
		sh -c "! grep -q '$FORGED' '$T/pty.out'"
	t_check "sandboxd, audit on a terminal: the refusals audited" "$(head -c 300 "$T/pty.out")" \
		test "$(grep -a '"SBX_EVENT":"denied"' "$T/pty.out" | grep -c 'audit stream')" = 2
else
	t_fail "a pseudo-terminal" "none made: $(tr "\n" "|" <"$T/pty.err" | head -c 800)"
fi
kill "$pty_pid" 2>/dev/null

for bad in "--audit-file $T/link.jsonl" "--audit-file $T/other.jsonl" "--audit-fd 9"; do
	# shellcheck disable=SC2086 # the words are the options
	"$SANDBOXD" --listen "$DM_DIR/x.sock" --policy "$DM_POLICY" --no-system-bus $bad </dev/null >"$OUT" 2>"$ERR"
	RC=$?
	t_check "sandboxd $bad: refused at start (exit 1), no socket left" "rc=$RC $(head -c 200 "$ERR")" \
		test "$RC" = 1 -a ! -e "$DM_DIR/x.sock"
done
t_check "sandboxd refusals: the symlink's target untouched" "$(cat "$T/victim")" test "$(cat "$T/victim")" = precious

# ------------------------------------------------------------------ --listen's socket
# serving: something accepts a connection on the socket.
serving() {
	"$PYTHON" -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])' "$DM_SOCK" 2>/dev/null
}
dm_start && dm_stop
t_check "SIGTERM: exit 0, the socket removed" "rc=$DM_RC $(ls -l "$DM_SOCK" 2>&1)" test "$DM_RC" = 0 -a ! -e "$DM_SOCK"
if dm_start; then
	kill -INT "$DM_PID"
	wait_until 20 _dm_gone
	t_check "SIGINT: the socket removed" "$(ls -l "$DM_SOCK" 2>&1)" test ! -e "$DM_SOCK"
fi
if dm_start; then
	kill -KILL "$DM_PID"
	wait "$DM_PID" 2>/dev/null
	t_check "SIGKILL: the socket stays (stale)" "" test -S "$DM_SOCK"
	"$SANDBOXD" --listen "$DM_SOCK" --policy "$DM_POLICY" --no-system-bus </dev/null >>"$DM_LOG" 2>&1 &
	DM_PID=$!
	t_defer "dm_kill $DM_PID"
	if wait_until 10 _dm_serving && wait_until 5 serving; then
		t_ok "after SIGKILL: the next sandboxd replaces the stale socket and serves"
	else
		t_fail "after SIGKILL: the next sandboxd replaces the stale socket" "$(tail -c 300 "$DM_LOG")"
	fi
	# A second one on the live socket: refused; the first keeps serving.
	"$SANDBOXD" --listen "$DM_SOCK" --policy "$DM_POLICY" --no-system-bus </dev/null >"$OUT" 2>"$ERR"
	RC=$?
	t_check "a second sandboxd on a live socket: refused" "rc=$RC $(cat "$ERR")" test "$RC" = 1
	grep -q 'already serves' "$ERR" && t_ok "a second sandboxd: the message says why" || t_fail "a second sandboxd: message" "$(cat "$ERR")"
	t_check "a second sandboxd: the first still serves" "" serving
	dm_stop
	t_check "then SIGTERM: gone" "" test ! -e "$DM_SOCK"
fi
# Not a socket, not ours: refused and left as they are.
echo keep >"$DM_SOCK"
"$SANDBOXD" --listen "$DM_SOCK" --policy "$DM_POLICY" --no-system-bus </dev/null >"$OUT" 2>"$ERR"
RC=$?
t_check "a regular file at --listen: refused, kept" "rc=$RC $(cat "$ERR")" test "$RC" = 1 -a "$(cat "$DM_SOCK")" = keep
rm -f "$DM_SOCK"
ln -s "$T/victim" "$DM_SOCK"
"$SANDBOXD" --listen "$DM_SOCK" --policy "$DM_POLICY" --no-system-bus </dev/null >"$OUT" 2>"$ERR"
RC=$?
t_check "a symlink at --listen: refused, kept, its target untouched" "rc=$RC" \
	test "$RC" = 1 -a -L "$DM_SOCK" -a "$(cat "$T/victim")" = precious
rm -f "$DM_SOCK"
"$PYTHON" -c 'import socket, sys; s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[1])' "$DM_SOCK"
chown "$U" "$DM_SOCK"
"$SANDBOXD" --listen "$DM_SOCK" --policy "$DM_POLICY" --no-system-bus </dev/null >"$OUT" 2>"$ERR"
RC=$?
t_check "another user's stale socket: refused, kept" "rc=$RC $(cat "$ERR")" \
	test "$RC" = 1 -a -S "$DM_SOCK" -a "$(stat -c %U "$DM_SOCK")" = "$U"
rm -f "$DM_SOCK"
mkdir -m 0777 "$DM_DIR/open"
"$SANDBOXD" --listen "$DM_DIR/open/s.sock" --policy "$DM_POLICY" --no-system-bus </dev/null >"$OUT" 2>"$ERR"
RC=$?
t_check "a directory everyone may write: refused" "rc=$RC $(cat "$ERR")" test "$RC" = 1 -a ! -e "$DM_DIR/open/s.sock"
# A start that fails after listening (the system bus demanded, none here) removes it.
jd_without "$SANDBOXD" --listen "$DM_SOCK" --policy "$DM_POLICY" --system-bus </dev/null >"$OUT" 2>"$ERR"
RC=$?
if [[ $RC != 0 ]]; then
	t_check "a failed start: no socket left" "$(ls -l "$DM_SOCK" 2>&1)" test ! -e "$DM_SOCK"
else
	t_skip "a failed start: no socket left" "a system bus answered here"
fi
