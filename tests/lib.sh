# shellcheck shell=bash
# tests/lib.sh — the harness every tests/integration/t_*.sh sources.
#
# A test group calls t_init, then runs commands in a jail with `jail` (the
# probe) or `sbx` (anything), and records each result with t_ok / t_fail /
# t_skip. Assertions compare exact `key=value` lines of the probe's output
# (kv) and the host's own view (files, processes, listeners); nothing
# sleeps and matches text. Everything a group starts is undone by the EXIT
# trap, also when the group fails half-way.
#
# Environment:
#   SBX_RUN        launcher under test        (default: build/sbx-run)
#   SBX_SANDBOXD   daemon under test          (default: build/sandboxd)
#   PROBE          static probe binary        (default: build/probe)
#   SBX_RESULTS    file results are appended to (run.sh sets it)
#   SBX_MUST_WORK  1: a skip counts as a failure (CI)
#   SBX_TMPDIR     where test dirs are made   (default: /var/tmp; not /tmp,
#                  which the jail replaces with its own tmpfs)
#   SBX_RUN_ID     tags every temp dir of one run.sh (for the leftover scan)
#   SBX_HANG       seconds after which a hung sbx-run is killed (default 30)

SBX_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SBX_RUN=$(realpath -m "${SBX_RUN:-$SBX_ROOT/build/sbx-run}")
SBX_SANDBOXD=$(realpath -m "${SBX_SANDBOXD:-$SBX_ROOT/build/sandboxd}")
PROBE=$(realpath -m "${PROBE:-$SBX_ROOT/build/probe}")
SBX_TMPDIR=${SBX_TMPDIR:-/var/tmp}
SBX_RUN_ID=${SBX_RUN_ID:-$$}
SBX_HANG=${SBX_HANG:-30}
SBX_MUST_WORK=${SBX_MUST_WORK:-0}
PYTHON=${PYTHON:-$(command -v /usr/bin/python3 || command -v python3)}
T_GROUP=$(basename "${0%.sh}")
NOBODY=65534

T=""           # this group's temp dir
WS=""          # the workspace (bound read-write in the jail), holds a copy of the probe
OUT="" ERR=""  # stdout / stderr of the last sbx run
RC=0           # its exit status
WALL_MS=0      # its wall time
_t_deferred=()
_t_count=0

# ------------------------------------------------------------------ results

_t_record() {
	local line=$1
	_t_count=$((_t_count + 1))
	if [[ -n ${SBX_RESULTS:-} ]]; then
		printf '%s\n' "$line" >>"$SBX_RESULTS"
	fi
}

t_ok() {
	printf 'ok   %s: %s\n' "$T_GROUP" "$1"
	_t_record "ok	$T_GROUP: $1"
}

t_fail() {
	printf 'FAIL %s: %s -- %s\n' "$T_GROUP" "$1" "$2"
	_t_record "fail	$T_GROUP: $1	$2"
}

# A skip must say why; CI (SBX_MUST_WORK=1) does not accept one.
t_skip() {
	if [[ $SBX_MUST_WORK == 1 ]]; then
		t_fail "$1" "skipped, but SBX_MUST_WORK=1: $2"
		return
	fi
	printf 'skip %s: %s -- %s\n' "$T_GROUP" "$1" "$2"
	_t_record "skip	$T_GROUP: $1	$2"
}

# t_check NAME WHY-IF-FALSE COMMAND...: ok if COMMAND succeeds.
t_check() {
	local name=$1 why=$2
	shift 2
	if "$@"; then t_ok "$name"; else t_fail "$name" "$why"; fi
}

# ------------------------------------------------------------------ setup and cleanup

# t_user NAME HOME: a system user of the test's own (no login, HOME as its home in the
# user database, not made), removed at exit; 1 when useradd refuses.
t_user() {
	userdel "$1" >/dev/null 2>&1
	useradd --system -M -d "$2" -s /usr/sbin/nologin "$1" 2>/dev/null || return 1
	t_defer "userdel $1"
}

# t_defer CMD: run CMD (a string, eval'd) at exit, last deferred first.
t_defer() {
	_t_deferred+=("$1")
}

# Kills pids by id at exit (never by name: only what this group started).
t_defer_kill() {
	local p
	for p in "$@"; do
		t_defer "kill -9 $p 2>/dev/null; wait $p 2>/dev/null"
	done
}

# Kills, at exit, whatever still runs with TOKEN in its command line: the
# processes a broken sandbox left behind. TOKEN is always a path under $T,
# so nothing but this group's own processes can match.
t_defer_reap() {
	t_defer "_t_reap '$1'"
}

_t_reap() {
	local p
	for p in $(pgrep -f -- "$1"); do
		kill -9 "$p" 2>/dev/null
	done
}

_t_cleanup() {
	local i leaked
	for ((i = ${#_t_deferred[@]} - 1; i >= 0; i--)); do
		eval "${_t_deferred[i]}" >/dev/null 2>&1
	done
	[[ -n $T && -d $T ]] || return 0
	# A mount that sbx-run leaked under $T could be a bind of a host
	# directory: never recurse into one.
	leaked=$(awk -v t="$T" 'index($5, t) == 1 { print $5 }' /proc/self/mountinfo)
	if [[ -n $leaked ]]; then
		echo "lib.sh: not removing $T, mounts leaked under it: $leaked" >&2
		return 0
	fi
	rm -rf --one-file-system -- "$T"
}

# t_init: one temp dir per group, the probe copied into the workspace (so the
# jail can run it without any extra bind), cleanup on any exit. Skips the
# whole group when the suite cannot run here.
t_init() {
	trap _t_cleanup EXIT
	trap 'exit 130' INT TERM
	if [[ $(id -u) != 0 ]]; then
		t_skip "setup" "integration tests need root (they also test the unprivileged path via setpriv)"
		exit 0
	fi
	if [[ ! -x $SBX_RUN ]]; then
		t_skip "setup" "sbx-run not built: $SBX_RUN"
		exit 0
	fi
	if [[ ! -x $PROBE ]]; then
		t_skip "setup" "probe not built: $PROBE"
		exit 0
	fi
	T=$(mktemp -d "$SBX_TMPDIR/sbxt.$SBX_RUN_ID.$T_GROUP.XXXXXX") || exit 1
	chmod 0755 "$T"
	WS=$T/ws
	mkdir "$WS"
	cp "$PROBE" "$WS/probe"
	chmod 0755 "$WS/probe"
	OUT=$T/out
	ERR=$T/err
}

# Hands the workspace to nobody, for the unprivileged path.
t_ws_for_nobody() {
	chown -R "$NOBODY:$NOBODY" "$WS"
}

# ------------------------------------------------------------------ running

_now_us() {
	local t=$EPOCHREALTIME
	echo "${t/./}"
}

# sbx ARGS...: runs sbx-run ARGS with stdin /dev/null, stdout in $OUT, stderr
# in $ERR, the status in $RC, the wall time in $WALL_MS. As $SBX_AS (a uid)
# when set. A hung sbx-run is killed after $SBX_HANG s (RC then reads 124 from
# timeout(1): HUNG=1 tells the two apart).
sbx() {
	local pre=() t0
	if [[ -n ${SBX_AS:-} ]]; then
		pre=(setpriv "--reuid=$SBX_AS" "--regid=$SBX_AS" --clear-groups)
	fi
	t0=$(_now_us)
	timeout -k 5 "$SBX_HANG" "${pre[@]}" "$SBX_RUN" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
	if ((WALL_MS >= SBX_HANG * 1000)); then
		HUNG=1
	fi
}

# jail [SBX OPTIONS...] -- PROBE-COMMAND [ARGS...]: the probe in the jail,
# the workspace set to $WS.
jail() {
	local opts=()
	while (($#)) && [[ $1 != -- ]]; do
		opts+=("$1")
		shift
	done
	shift
	sbx --workspace "$WS" "${opts[@]}" -- "$WS/probe" "$@"
}

# What went wrong with the last run, for a failure message.
run_info() {
	local e
	e=$(head -c 300 "$ERR" | tr '\n' '|')
	if ((HUNG)); then
		echo "sbx-run hung, killed after ${SBX_HANG}s; stderr: $e"
	else
		echo "rc=$RC stderr: ${e:-<empty>}"
	fi
}

# ------------------------------------------------------------------ probe output

# kv KEY [FILE]: the value of the first `KEY=` line (default file: $OUT).
kv() {
	awk -v k="$1=" 'index($0, k) == 1 { print substr($0, length(k) + 1); found = 1; exit }
		END { exit !found }' "${2:-$OUT}"
}

# expect_kv NAME KEY EXPECTED: the probe said exactly KEY=EXPECTED.
expect_kv() {
	local name=$1 key=$2 want=$3 got
	if got=$(kv "$key"); then
		if [[ $got == "$want" ]]; then
			t_ok "$name"
		else
			t_fail "$name" "$key=$got, expected $want"
		fi
	else
		t_fail "$name" "no $key in probe output ($(run_info))"
	fi
}

# expect_kv_in NAME KEY V1 V2...: KEY is one of the values.
expect_kv_in() {
	local name=$1 key=$2 got v
	shift 2
	if ! got=$(kv "$key"); then
		t_fail "$name" "no $key in probe output ($(run_info))"
		return
	fi
	for v in "$@"; do
		if [[ $got == "$v" ]]; then
			t_ok "$name"
			return
		fi
	done
	t_fail "$name" "$key=$got, expected one of: $*"
}

# expect_kv_not NAME KEY BAD: KEY is present and is not BAD (e.g. "ok").
expect_kv_not() {
	local name=$1 key=$2 bad=$3 got
	if ! got=$(kv "$key"); then
		t_fail "$name" "no $key in probe output ($(run_info))"
	elif [[ $got == "$bad" ]]; then
		t_fail "$name" "$key=$got"
	else
		t_ok "$name"
	fi
}

# expect_rc NAME EXPECTED
expect_rc() {
	if ((!HUNG)) && [[ $RC == "$2" ]]; then
		t_ok "$1"
	else
		t_fail "$1" "expected exit $2; $(run_info)"
	fi
}

# ran_ok: the last jail run exited 0 and the probe reported result=ok; else
# fails NAME and returns 1 (so dependent checks are not run on garbage).
ran_ok() {
	if ((!HUNG)) && [[ $RC == 0 ]] && [[ $(kv result) == ok ]]; then
		return 0
	fi
	t_fail "$1" "probe did not run: $(run_info); stdout: $(head -c 200 "$OUT" | tr '\n' '|')"
	return 1
}

# probe_ran: the last run got as far as the probe reporting a result.
probe_ran() {
	((!HUNG)) && kv result >/dev/null
}

# host_check NAME WHY COMMAND...: a host-side assertion about what the last
# jail run did. A host that shows no trace proves nothing when the command
# never ran, so then it fails as "not tested" instead of passing.
host_check() {
	local name=$1 why=$2
	shift 2
	if ! probe_ran; then
		t_fail "$name" "not tested, the probe did not run: $(run_info)"
	elif "$@"; then
		t_ok "$name"
	else
		t_fail "$name" "$why"
	fi
}

# ------------------------------------------------------------------ sbx-run's --json summary

# json_last: flattens the JSON object on the last line of $ERR into
# `key=value` lines in $T/json (nested keys joined by '.', null/true/false as
# in JSON, lists as JSON); returns 1 when that line is not a JSON object.
json_last() {
	tail -n 1 "$ERR" | json_flatten >"$T/json"
}

json_flatten() {
	"$PYTHON" -c '
import json, sys
try:
    o = json.loads(sys.stdin.read())
except ValueError as e:
    print("json_error=%s" % e); sys.exit(1)
if not isinstance(o, dict):
    print("json_error=not an object"); sys.exit(1)
def out(prefix, v):
    if isinstance(v, dict):
        print("%s=<object>" % prefix)
        for k, x in v.items():
            out(prefix + "." + k, x)
    elif isinstance(v, bool) or v is None or isinstance(v, list):
        print("%s=%s" % (prefix, json.dumps(v)))
    elif isinstance(v, (int, float)):
        print("%s=%s" % (prefix, "int:%d" % v if isinstance(v, int) else "float:%r" % v))
    else:
        print("%s=%s" % (prefix, str(v).replace("\n", "\\n")))
for k, v in o.items():
    out(k, v)
'
}

# expect_json NAME KEY EXPECTED: in $T/json (numbers read "int:N").
expect_json() {
	local got
	if got=$(kv "$2" "$T/json"); then
		if [[ $got == "$3" ]]; then t_ok "$1"; else t_fail "$1" "json $2=$got, expected $3"; fi
	else
		t_fail "$1" "json has no $2: $(tail -n 1 "$ERR" | head -c 300)"
	fi
}

# ------------------------------------------------------------------ host side

# wait_until SECONDS CMD...: polls CMD every 50 ms; 0 once it succeeds.
wait_until() {
	local deadline=$(($(_now_us) + ${1%.*} * 1000000)) 
	shift
	while :; do
		"$@" && return 0
		(($(_now_us) >= deadline)) && return 1
		sleep 0.05
	done
}

# Processes (host view) whose command line contains TOKEN.
procs_matching() {
	pgrep -f -- "$1"
}

no_procs_matching() {
	! pgrep -f -- "$1" >/dev/null
}

# Describes the processes that match TOKEN: "pid comm state; ...".
describe_procs() {
	local p out=""
	for p in $(pgrep -f -- "$1"); do
		out+="$p $(cat /proc/"$p"/comm 2>/dev/null) $(awk '{print $3}' /proc/"$p"/stat 2>/dev/null); "
	done
	echo "${out:-none}"
}

pid_alive() {
	kill -0 "$1" 2>/dev/null
}

# Namespace inode of the calling shell, as the probe prints it.
host_ns() {
	local l
	l=$(readlink "/proc/self/ns/$1") || return 1
	l=${l#*[}
	echo "${l%]}"
}

# sbx-* cgroup directories on the host (cgroup v1 hierarchies and v2).
sbx_cgroups() {
	find /sys/fs/cgroup -mindepth 1 -maxdepth 4 -type d -name 'sbx-*' 2>/dev/null | sort
}

# The sbx-PID-... cgroups whose launcher PID is no sbx-run any more: left
# behind. (Those of an sbx-run still running, say of a concurrent suite, are not.)
sbx_cgroups_orphaned() {
	local d pid
	for d in $(sbx_cgroups); do
		pid=${d##*/sbx-}
		pid=${pid%%-*}
		if [[ $pid =~ ^[0-9]+$ && $(cat "/proc/$pid/comm" 2>/dev/null) == sbx-@(run|launcher) ]]; then
			continue
		fi
		echo "$d"
	done
}

# New orphaned sbx cgroups compared with the BASELINE file, after giving a
# launcher that is just exiting 2 s to remove its own.
sbx_cgroups_left() {
	local left i
	for ((i = 0; i < 40; i++)); do
		left=$(comm -13 "$1" <(sbx_cgroups_orphaned))
		[[ -z $left ]] && return 0
		sleep 0.05
	done
	echo "$left"
}

# The host's mount points, for a before/after comparison.
host_mounts() {
	awk '{ print $5 }' /proc/self/mountinfo | sort
}

# start_listener KIND ADDR: a host listener counting accepted connections.
# KIND is tcp (ADDR ignored, port chosen by the kernel on 127.0.0.1),
# abstract (ADDR = name) or unix (ADDR = path). Sets L_PID, L_COUNT (the
# file holding the count) and L_PORT (tcp). Killed at exit.
start_listener() {
	local kind=$1 addr=$2 dir
	dir=$(mktemp -d "$T/listener.XXXXXX")
	L_COUNT=$dir/count
	"$PYTHON" -c '
import os, socket, sys
kind, addr, d = sys.argv[1:4]
def put(name, value):
    with open(d + "/." + name, "w") as f:
        f.write(value)
    os.rename(d + "/." + name, d + "/" + name)
if kind == "tcp":
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0))
    info = str(s.getsockname()[1])
else:
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.bind(("\0" + addr) if kind == "abstract" else addr)
    info = addr
s.listen(64)
n = 0
put("count", "0")
put("ready", info)
while True:
    c, _ = s.accept()
    n += 1
    put("count", str(n))
    c.close()
' "$kind" "$addr" "$dir" </dev/null >/dev/null 2>"$dir/stderr" &
	L_PID=$!
	t_defer_kill "$L_PID"
	if ! wait_until 5 test -e "$dir/ready"; then
		echo "lib.sh: listener did not start: $(cat "$dir/stderr")" >&2
		return 1
	fi
	L_PORT=$(cat "$dir/ready")
}

listener_count() {
	cat "$L_COUNT"
}
