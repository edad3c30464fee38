# shellcheck shell=bash
# tests/journal.sh — a real systemd-journald for tests, private to the test.
# Source it after tests/lib.sh and t_init (it needs $T, t_defer, wait_until).
#
# The recipe (Debian 12, systemd 252; systemd need not be PID 1):
#
#   unshare -m --propagation private bash -c '
#     mount -t tmpfs -o mode=0755,size=8m  sbx-journal     /run/systemd   # sockets, drop-in
#     mkdir -p /run/systemd/journal /run/systemd/journald.conf.d
#     mount -t tmpfs -o mode=0755,size=64m sbx-journal-log /run/log       # the journal files
#     mkdir /run/log/journal
#     mount -t tmpfs -o mode=0755,size=1m  sbx-journal-var /var/log/journal  # (if it exists)
#     printf "[Journal]\nStorage=volatile\nReadKMsg=no\nAudit=no\n..." \
#       >/run/systemd/journald.conf.d/zz-sbx-test.conf
#     exec /lib/systemd/systemd-journald'          # no arguments: see below
#
#   - The mount namespace is the whole isolation: journald binds the fixed paths
#     /run/systemd/journal/{socket,stdout,dev-log,io.systemd.journal} and libsystemd's
#     sd_journal_sendv() sends to the fixed /run/systemd/journal/socket, so whatever
#     runs in the namespace (nsenter -m -t PID) logs to this journald, and the host
#     sees neither its sockets nor its files.  The tmpfs goes on /run/systemd (on a
#     host whose journald runs, /run/systemd/journal is its, and is hidden too), and
#     /run/systemd/journald.conf.d — which journald reads — is inside it, so the
#     drop-in never touches the host's /etc or /run.
#   - Storage=volatile keeps journald out of /var/log/journal (masked by a tmpfs
#     anyway); ReadKMsg=no and Audit=no keep the host's kernel and audit messages out;
#     ForwardTo*=no keeps it off the console, wall and syslog; RateLimitBurst=0 lets a
#     test log as fast as it likes.
#   - No --namespace, no SYSTEMD_LOG_LEVEL, no machine-id is needed (with an empty
#     /etc/machine-id it writes /run/log/journal/system.journal instead of a
#     per-machine directory; `journalctl -D /run/log/journal` reads either).
#   - Never pass systemd-journald an argument, not even --help: it takes the first
#     argument as a journal namespace and starts serving it (/run/systemd/journal.ARG,
#     /var/log/journal/MACHINEID.ARG) — on the host, if run there.
#   - It is ready when /run/systemd/journal/socket exists (polled, bounded).
#   - Sync: SIGRTMIN+1 makes journald handle everything already queued on its
#     sockets (its sync handler runs at a lower priority than they do), write it out
#     and touch /run/systemd/journal/synced: remove that file, signal, wait for it.
#     A datagram that sendmsg() accepted is queued, so after the sync it is readable.
#   - Read back with `journalctl -D /run/log/journal -o json` in the namespace.
#   - Stop: SIGTERM; the namespace, its tmpfs mounts and the journal go with
#     journald, the namespace's only process.
#
# Functions:
#   jd_binary            path of systemd-journald; 1 when it is not installed
#   jd_start             starts it (JD_PID), waits for its socket, stops it at exit
#   jd_run CMD...        runs CMD in journald's mount namespace
#   jd_sbx ARGS...       like lib.sh's sbx (OUT, ERR, RC, HUNG), in that namespace
#   jd_without CMD...    runs CMD in a mount namespace with no journal at all
#   jd_sync              waits until journald has written all it was sent
#   jd_mark              remembers the journal's end: jd_query shows what came after
#   jd_query OUT [FIELD=VALUE...]  JSON lines of the entries since jd_mark that have
#                        those values (exact, as journalctl matches), into OUT
#   jd_count IN [FIELD=VALUE...]  how many entries of IN have those values
#   jd_entry IN OUT [FIELD=VALUE...]  the first such entry, flattened into OUT as
#                        `FIELD=value` lines (newlines as \n) plus `FIELD#=N`, how
#                        many values FIELD has; read them with lib.sh's kv KEY OUT

JD_PID=""
JD_CURSOR=""
JD_RUN=/run/systemd/journal
JD_LOGDIR=/run/log/journal

jd_binary() {
	local b
	for b in /lib/systemd/systemd-journald /usr/lib/systemd/systemd-journald; do
		if [[ -x $b ]]; then
			echo "$b"
			return 0
		fi
	done
	return 1
}

# The namespace's setup, run by unshare; ends by exec'ing journald, so the pid
# unshare started is journald's.
_jd_setup() {
	cat <<'EOF'
set -e
if [ -d /run/systemd ] && [ -d /run/log ]; then
	mount -t tmpfs -o mode=0755,size=8m sbx-journal /run/systemd
	mount -t tmpfs -o mode=0755,size=64m sbx-journal-log /run/log
else
	# mkdir of a missing one would write the host's /run: cover all of /run.
	mount -t tmpfs -o mode=0755,size=64m sbx-journal /run
	mkdir /run/systemd /run/log
fi
mkdir -p /run/systemd/journal /run/systemd/journald.conf.d /run/log/journal
if [ -d /var/log/journal ]; then
	mount -t tmpfs -o mode=0755,size=1m sbx-journal-var /var/log/journal
fi
cat >/run/systemd/journald.conf.d/zz-sbx-test.conf <<'CONF'
[Journal]
Storage=volatile
ReadKMsg=no
Audit=no
ForwardToSyslog=no
ForwardToKMsg=no
ForwardToConsole=no
ForwardToWall=no
RateLimitBurst=0
CONF
exec "$1"
EOF
}

_jd_stop() {
	[[ -n $JD_PID ]] || return 0
	kill -TERM "$JD_PID" 2>/dev/null
	if ! wait_until 5 _jd_gone; then
		kill -KILL "$JD_PID" 2>/dev/null
	fi
	wait "$JD_PID" 2>/dev/null
	JD_PID=""
}

_jd_gone() {
	! kill -0 "$JD_PID" 2>/dev/null
}

_jd_ready() {
	kill -0 "$JD_PID" 2>/dev/null || return 2
	nsenter -m -t "$JD_PID" -- test -S "$JD_RUN/socket"
}

# jd_start: 0 once journald listens; 1 (with why on stderr) when it did not start.
jd_start() {
	local bin
	bin=$(jd_binary) || {
		echo "journal.sh: systemd-journald is not installed" >&2
		return 1
	}
	# No argument to journald (see the recipe); stdin closed, its own chatter kept.
	unshare -m --propagation private bash -c "$(_jd_setup)" jd-setup "$bin" \
		</dev/null >"$T/journald.log" 2>&1 &
	JD_PID=$!
	t_defer "_jd_stop"
	# Ready when the socket exists; gone early means it failed: stop polling then.
	if ! wait_until 10 _jd_ready; then
		echo "journal.sh: journald did not start: $(head -c 500 "$T/journald.log" | tr '\n' '|')" >&2
		return 1
	fi
	jd_mark
}

jd_run() {
	nsenter -m -t "$JD_PID" -- "$@"
}

# shellcheck disable=SC2034 # RC, WALL_MS, HUNG: lib.sh's, read by the tests
jd_sbx() {
	local t0
	t0=$(_now_us)
	timeout -k 5 "$SBX_HANG" nsenter -m -t "$JD_PID" -- "$SBX_RUN" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
	if ((WALL_MS >= SBX_HANG * 1000)); then
		HUNG=1
	fi
}

# A namespace where /run/systemd/journal is an empty tmpfs: whatever the host runs,
# no journal is reachable there.
jd_without() {
	unshare -m --propagation private bash -c '
		set -e
		if [ -d /run/systemd/journal ]; then
			mount -t tmpfs -o mode=0755,size=1m sbx-nojournal /run/systemd/journal
		elif [ -d /run/systemd ]; then
			mount -t tmpfs -o mode=0755,size=1m sbx-nojournal /run/systemd
		fi
		test ! -e /run/systemd/journal/socket
		exec "$@"' jd-without "$@"
}

_jd_synced() {
	jd_run test -e "$JD_RUN/synced"
}

jd_sync() {
	jd_run rm -f "$JD_RUN/synced" || return 1
	kill -RTMIN+1 "$JD_PID" || return 1
	wait_until 10 _jd_synced
}

# The cursor of the last entry so far (journald's own start messages make one).
jd_mark() {
	jd_sync || return 1
	JD_CURSOR=$(jd_run journalctl -D "$JD_LOGDIR" --no-pager -n 1 -o json |
		"$PYTHON" -c 'import json, sys; print(json.loads(sys.stdin.readline())["__CURSOR"])')
	[[ -n $JD_CURSOR ]]
}

# journalctl 252 skips the first entry after the cursor when matches are given
# and the cursor's own entry does not match (it skips twice, blindly): so the
# matches are applied here, to all that came after the cursor.
jd_query() {
	local out=$1
	shift
	jd_sync || return 1
	jd_run journalctl -D "$JD_LOGDIR" --no-pager -o json --after-cursor "$JD_CURSOR" >"$out.all" || return 1
	"$PYTHON" -c "$_jd_py" filter "$out.all" "$@" >"$out"
}

# The entries of a JSON-lines file that have FIELD=VALUE for every argument, as
# Python sees them: a value journalctl printed as a byte array is decoded, a field
# with several values matches if one of them does.
_jd_py='
import json, sys
def values(v):
    if isinstance(v, list) and v and isinstance(v[0], int):
        v = [v]
    elif not isinstance(v, list):
        v = [v]
    return [bytes(x).decode("utf-8", "replace") if isinstance(x, list) else x for x in v]
def matching(path, want):
    for line in open(path, encoding="utf-8"):
        if not line.strip():
            continue
        e = json.loads(line)
        if all(k in e and w in values(e[k]) for k, w in want):
            yield e
mode, path = sys.argv[1:3]
want = [a.split("=", 1) for a in sys.argv[3:]]
found = list(matching(path, want))
if mode == "count":
    print(len(found))
    sys.exit(0)
if mode == "filter":
    for e in found:
        print(json.dumps(e))
    sys.exit(0)
if not found:
    sys.exit(1)
for k, v in found[0].items():
    vs = values(v)
    print("%s#=%d" % (k, len(vs)))
    for x in vs:
        print("%s=%s" % (k, x.replace("\n", "\\n")))
'

jd_count() {
	"$PYTHON" -c "$_jd_py" count "$@"
}

jd_entry() {
	local in=$1 out=$2
	shift 2
	"$PYTHON" -c "$_jd_py" entry "$in" "$@" >"$out"
}
