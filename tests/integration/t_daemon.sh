#!/bin/bash
# sandboxd, started by the test under the unit's capability bounding set and
# NoNewPrivileges, logging to a journald of the test's own: a test user gets jails
# as itself (uid, gid, groups, no capabilities) for the profiles the site policy
# gives it and is denied the others; a user the policy does not name is denied; the
# client killed mid-run takes its sandbox along within a second; malformed calls get
# an error reply and the daemon keeps serving; a bad policy on reload keeps the old
# one; sandboxd killed leaves no jail; its socket is never reachable from a jail.
# Socket activation, Type=notify, the system bus and the leak checks under load are
# in t_daemon_bus.sh and t_daemon_load.sh.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../journal.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

MID_ALLOWED=e24a03d3a4e54bac914f01bf1b5fe874
MID_DENIED=86265e15c6e94d9fbb52a5cffca2a15f
MID_EXIT=8d0361d253694b50860bfedc155f483c
MID_KILL=58d48f18d4d4416da57931740aee692b
MID_RELOAD=17c75473be5e45edaa16e9b181a7de10

U=sbxd$SBX_RUN_ID
G=sbxg$SBX_RUN_ID
if ! dm_user "$U" "$G"; then
	t_fail "setup" "cannot create the test user $U"
	exit 0
fi
UID_U=$(id -u "$U")
GID_U=$(id -g "$U")
GID_G=$(getent group "$G" | cut -d: -f3)
chown -R "$U:$U" "$WS"

policy_main() {
	dm_policy <<EOF
allow:
  - users: [root]
    profiles: ["*"]
    max_sandboxes: 64
  - users: [$U]
    profiles: [workspace, strict]
    max_sandboxes: 3
    max_time: 60s
    max_memory: 64M
deny:
  commands: [dd]
limits:
  grace: 1s
EOF
}
policy_main

# usbx ARGS...: sbx-run --daemon as the test user, with its groups.
usbx() {
	local t0
	t0=$(_now_us)
	# fd 9 and SBX_SECRET: what the client holds must not reach the jail.
	SBX_SECRET=leak123 timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups \
		"$SBX_RUN" --daemon --socket "$DM_SOCK" "$@" >"$OUT" 2>"$ERR" </dev/null 9<"$WS/probe"
	RC=$?
	WALL_MS=$((($(_now_us) - t0) / 1000))
	HUNG=0
}

jd_ok=0
if jd_binary >/dev/null && jd_start; then
	jd_ok=1
	prefix=(--prefix nsenter -m -t "$JD_PID" --)
else
	t_fail "setup" "no private journald: the audit checks cannot run"
	prefix=()
fi
unit=()
if [[ -f $SBX_UNIT ]]; then
	unit=(--as-unit)
else
	t_fail "setup" "systemd/sandboxd.service is missing: cannot run under its capability set"
fi
if ! dm_start "${unit[@]}" "${prefix[@]}"; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi
t_ok "sandboxd starts under the unit's capability bounding set and NoNewPrivileges"
grep -q '^NoNewPrivs:[[:space:]]*1' "/proc/$DM_PID/status" && t_ok "the daemon runs with no_new_privs" ||
	t_fail "the daemon runs with no_new_privs" "$(grep NoNewPrivs "/proc/$DM_PID/status")"

# tok TOKEN: a copy of the probe named after TOKEN, so that its jailed processes can
# be told apart: jailed TOKEN (their command line starts with it; a client's holds
# it further on), no_jailed TOKEN, n_jailed TOKEN.
tok() {
	[[ -x $WS/t-$1 ]] || install -m 0755 "$WS/probe" "$WS/t-$1"
	echo "$WS/t-$1"
}
jailed() {
	pgrep -f "^$WS/t-$1 " >/dev/null
}
no_jailed() {
	! jailed "$1"
}
at_least_jailed() { # at_least_jailed N TOKEN
	(($(pgrep -f "^$WS/t-$2 " | wc -l) >= $1))
}

# ------------------------------------------------------------------ identity

usbx --workspace "$WS" -- "$WS/probe" status
if ((RC == 0)); then
	expect_kv "user: runs as its uid" uid "$UID_U"
	expect_kv "user: euid" euid "$UID_U"
	expect_kv "user: runs as its gid" gid "$GID_U"
	expect_kv "user: egid" egid "$GID_U"
	groups=$(kv groups)
	[[ ,$groups, == *",$GID_G,"* ]] && t_ok "user: keeps its supplementary group" ||
		t_fail "user: keeps its supplementary group" "groups=$groups, expected $GID_G among them"
	expect_kv "user: no effective capability" CapEff 0000000000000000
	expect_kv "user: no permitted capability" CapPrm 0000000000000000
	expect_kv "user: empty bounding set" CapBnd 0000000000000000
	expect_kv "user: no ambient capability" CapAmb 0000000000000000
	expect_kv "user: no_new_privs" NoNewPrivs 1
	expect_kv "user: seccomp filter" Seccomp 2
	expect_kv "user: no fd but stdio" fds 0,1,2
	leaked=$(grep -E '^env\.(SBX_SECRET|LISTEN_[A-Z]+|NOTIFY_SOCKET|DBUS_[A-Z_]+|INVOCATION_ID)=' "$OUT")
	[[ -z $leaked ]] && t_ok "user: nothing of the client's or the daemon's environment" || t_fail "user: environment" "$leaked"
	[[ $(kv ns.pid) != "$(host_ns pid)" ]] && t_ok "user: own pid namespace" || t_fail "user: own pid namespace" "host's"
	[[ $(kv ns.net) != "$(host_ns net)" ]] && t_ok "user: own net namespace" || t_fail "user: own net namespace" "host's"
	[[ $(kv ns.mnt) != "$(host_ns mnt)" ]] && t_ok "user: own mount namespace" || t_fail "user: own mount namespace" "host's"
else
	t_fail "user: may use workspace" "$(run_info)"
fi

usbx --workspace "$WS" -- "$WS/probe" write "$WS/made-by-user"
owner=$(stat -c %u:%g "$WS/made-by-user" 2>/dev/null)
[[ $owner == "$UID_U:$GID_U" ]] && t_ok "user: a file it writes in the workspace is its own (host view)" ||
	t_fail "user: a file it writes in the workspace is its own (host view)" "owner ${owner:-none}; $(run_info)"

(
	umask 027
	usbx --workspace "$WS" -- "$WS/probe" write "$WS/umask-027"
)
mode=$(stat -c %a "$WS/umask-027" 2>/dev/null)
[[ $mode == 640 ]] && t_ok "user: the command keeps the caller's umask" || t_fail "user: the caller's umask" "mode ${mode:-none}"

# The caller's ignored signals travel with the request (ignored_signals); sandboxd's
# own (it ignores SIGPIPE) never reach the command.
want=$(timeout -k 5 "$SBX_HANG" sh -c 'grep SigIgn /proc/self/status')
usbx --workspace "$WS" -- sh -c 'grep SigIgn /proc/self/status'
t_check "user: nothing of sandboxd's ignored in the command ($want)" "$(run_info)" test "$(cat "$OUT")" = "$want"
trap '' USR1
want=$(timeout -k 5 "$SBX_HANG" sh -c 'grep SigIgn /proc/self/status')
usbx --workspace "$WS" -- sh -c 'grep SigIgn /proc/self/status; kill -USR1 $$; echo ok'
t_check "user: the caller's ignored SIGUSR1 is ignored in the command ($want)" "$(run_info)" \
	test "$(head -n 1 "$OUT")" = "$want" -a "$(tail -n 1 "$OUT")" = ok
trap - USR1

dsbx --workspace "$WS" -- "$WS/probe" status
if ((RC == 0)); then
	# As in direct mode: nobody in a user namespace whose one id is root (t_rootid).
	expect_kv "root: runs as nobody (root outside)" uid 65534
	expect_kv "root: with no capability" CapEff 0000000000000000
	if [[ $(kv ns.user) =~ ^[0-9]+$ && $(kv ns.user) != "$(host_ns user)" ]]; then
		t_ok "root: the user namespace is not the host's"
	else
		t_fail "root: the user namespace is not the host's" "ns.user=$(kv ns.user)"
	fi
else
	t_fail "root: may use every profile" "$(run_info)"
fi

# The baseline once the event loop made its lazy timers.
fds0=$(dm_fds)

# ------------------------------------------------------------------ the policy

usbx --workspace "$WS" --profile strict -- /bin/true
((RC == 0)) && t_ok "user: may use strict" || t_fail "user: may use strict" "$(run_info)"

usbx --workspace "$WS" --profile network-host -- /bin/true
((RC == 126)) && t_ok "user: network profile denied with 126" || t_fail "user: network profile denied with 126" "$(run_info)"
grep -q "network" "$ERR" && t_ok "user: the refusal names the profile" || t_fail "user: the refusal names the profile" "$(head -c 300 "$ERR")"
[[ $(wc -l <"$ERR") == 1 ]] && t_ok "user: the refusal is one line" || t_fail "user: the refusal is one line" "$(cat "$ERR")"

usbx --workspace "$WS" -- /bin/dd if=/dev/zero of=/dev/null count=1
((RC == 126)) && t_ok "user: a site deny rule holds whatever the profile says" || t_fail "user: a site deny rule holds" "$(run_info)"

usbx --workspace "$WS" --timeout 5m -- /bin/true
((RC == 126)) && t_ok "user: a timeout above the site's max_time is denied" || t_fail "user: timeout above max_time" "$(run_info)"

# The site's max_memory holds on cgroup v1 too, where a profile's own default is not
# applied: the ceiling makes the sandbox's cgroup.
usbx --workspace "$WS" -- "$WS/probe" membomb 256
[[ $RC == 137 ]] && t_ok "user: the site's max_memory is enforced (membomb 256 MiB under 64M: 137)" ||
	t_fail "user: the site's max_memory is enforced" "$(run_info); $(head -c 200 "$OUT")"
usbx --workspace "$WS" --memory 1G -- /bin/true
((RC == 126)) && t_ok "user: --memory above the site's max_memory is denied" || t_fail "user: --memory above max_memory" "$(run_info)"
# A resource limit row (here --stack) reaches the jail through the bus as it does directly.
usbx --workspace "$WS" --stack 4M -- /bin/sh -c 'ulimit -s'
((RC == 0)) && [[ $(cat "$OUT") == 4096 ]] && t_ok "user: --stack 4M through sandboxd: the command's stack limit is 4096 KiB" ||
	t_fail "user: --stack 4M through sandboxd" "$(run_info); $(head -c 200 "$OUT")"

mkdir -p "$T/secret"
chmod 0700 "$T/secret"
echo s3cret >"$T/secret/key"
usbx --workspace "$WS" --ro "$T/secret" -- "$WS/probe" read "$T/secret/key"
if ((RC != 0)) && ! grep -q s3cret "$OUT"; then
	t_ok "user: a bind of what it cannot open itself is refused"
else
	t_fail "user: a bind of what it cannot open itself is refused" "$(run_info); out: $(head -c 200 "$OUT")"
fi

mkdir -p "$T/roots"
usbx --workspace "$T/roots" -- "$WS/probe" write "$T/roots/planted"
if ((RC != 0)) && [[ ! -e $T/roots/planted ]]; then
	t_ok "user: a workspace it may open but not write is refused ($RC)"
else
	t_fail "user: a workspace it may not write is refused" "$(run_info)"
fi

SBX_AS=$NOBODY dsbx --workspace /tmp -- /bin/true
((RC == 126)) && t_ok "a user the policy does not name is denied (126)" || t_fail "a user the policy does not name is denied" "$(run_info)"

# ------------------------------------------------------------------ the status contract

for args in "exit 7" "raise SIGTERM" "raise SIGKILL"; do
	# shellcheck disable=SC2086
	sbx --direct --workspace "$WS" -- "$WS/probe" $args
	direct=$RC
	# shellcheck disable=SC2086
	dsbx --workspace "$WS" -- "$WS/probe" $args
	((RC == direct)) && t_ok "status of 'probe $args' as in direct mode ($RC)" ||
		t_fail "status of 'probe $args' as in direct mode" "daemon $RC, direct $direct"
done
sbx --direct --workspace "$WS" --timeout 1 -- "$WS/probe" sleep 10
direct=$RC
dsbx --workspace "$WS" --timeout 1 -- "$WS/probe" sleep 10
((RC == direct && WALL_MS < 5000)) && t_ok "a timeout ends the sandbox with direct mode's status ($RC)" ||
	t_fail "a timeout ends the sandbox" "daemon $RC after $WALL_MS ms, direct $direct"

out=$(printf 'through stdin' | timeout 20 "$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- /bin/cat 2>&1)
[[ $out == "through stdin" ]] && t_ok "stdin and stdout are the caller's own" || t_fail "stdin and stdout are the caller's own" "got '$out'"
timeout 20 "$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- /bin/sh -c 'echo to-stderr >&2' 2>"$T/stderr" >/dev/null
grep -qx to-stderr "$T/stderr" && t_ok "stderr is the caller's own" || t_fail "stderr is the caller's own" "$(cat "$T/stderr")"

# /dev/shm's size through the Run call's tmpfs key; a SIGBUS named by the client;
# the debug profile's ptrace cannot reach PID 1 here either.
usbx --workspace "$WS" --tmpfs /dev/shm:1M -- "$WS/probe" write /dev/shm/big 2097152
expect_kv "daemon: tmpfs /dev/shm:1M sizes /dev/shm (2 MiB into 1M)" result ENOSPC
usbx --workspace "$WS" -- sh -c 'kill -BUS $$'
t_check "daemon: a SIGBUS is named, with /dev/shm's size" "$(run_info)" \
	test "$RC" = 135 -a "$(grep -c 'SIGBUS.*/dev/shm' "$ERR")" = 1
usbx --profile debug --workspace "$WS" -- "$WS/probe" ptrace-attach 1
expect_rc "daemon: user: debug is refused where the site does not list it" 126
timeout 20 "$SBX_RUN" --daemon --socket "$DM_SOCK" --profile debug --workspace "$WS" -- "$WS/probe" ptrace-attach 1 >"$OUT" 2>"$ERR" </dev/null
expect_kv "daemon: root: debug: PID 1 cannot be attached to" result EPERM


# A tree of two sleeping probes, as root, through bus-call holding its connection.
"$BUS_CALL" --workspace "$WS" --hold 60 "$DM_SOCK" -- /bin/sh -c \
	"$(tok tree-token) sleep 60 & $(tok tree-token) sleep 60; wait" >"$T/run-reply" 2>&1 &
holder=$!
t_defer_kill "$holder"
wait_until 5 test -s "$T/run-reply"
line=$(cat "$T/run-reply")
id=$(awk '$1 == "ok" { print $2 }' <<<"$line")
path=$(awk '$1 == "ok" { print $3 }' <<<"$line")
if [[ -n $id ]] && wait_until 5 at_least_jailed 2 tree-token; then
	t_ok "Run returns an id and an object path"
	bus call io.sbx.Sandbox1 /io/sbx/Sandbox1 io.sbx.Sandbox1.Manager List >"$T/list" 2>&1
	grep -q "$id" "$T/list" && t_ok "List shows the sandbox to root" || t_fail "List shows the sandbox" "$(cat "$T/list")"
	setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$DM_SOCK" call io.sbx.Sandbox1 \
		/io/sbx/Sandbox1 io.sbx.Sandbox1.Manager List >"$T/list" 2>&1
	! grep -q "$id" "$T/list" && t_ok "List hides it from another user" || t_fail "List hides it from another user" "$(cat "$T/list")"
	for prop in "Profile s \"workspace\"" "Uid u 0" "State s \"running\""; do
		read -r name want <<<"$prop"
		got=$(bus get-property io.sbx.Sandbox1 "$path" io.sbx.Sandbox1.Sandbox "$name" 2>&1)
		[[ $got == "$want" ]] && t_ok "property $name" || t_fail "property $name" "got '$got', expected '$want'"
	done
	got=$(bus get-property io.sbx.Sandbox1 "$path" io.sbx.Sandbox1.Sandbox Argv 2>&1)
	[[ $got == *'"/bin/sh" "-c"'* ]] && t_ok "property Argv is the array as sent" || t_fail "property Argv" "$got"
	got=$(setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$DM_SOCK" call io.sbx.Sandbox1 \
		/io/sbx/Sandbox1 io.sbx.Sandbox1.Manager Kill si "$id" 9 2>&1)
	[[ $got == *NoSuchSandbox* || $got == *"no sandbox"* ]] && jailed tree-token &&
		t_ok "another user cannot Kill it" || t_fail "another user cannot Kill it" "$got"
	# The sandbox's own object is root's and its owner's only, too.
	as_u() { setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$DM_SOCK" "$@" 2>&1; }
	got=$(as_u call io.sbx.Sandbox1 "$path" io.sbx.Sandbox1.Sandbox Kill i 9)
	[[ $got == *"Call failed"* ]] && jailed tree-token && t_ok "another user cannot Kill it through its object" ||
		t_fail "another user cannot Kill it through its object" "$got"
	got=$(as_u get-property io.sbx.Sandbox1 "$path" io.sbx.Sandbox1.Sandbox Argv)
	[[ $got != *tree-token* && $got == *ailed* ]] && t_ok "another user cannot read its Argv" ||
		t_fail "another user cannot read its Argv" "$got"
	got=$(timeout 5 setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$DM_SOCK" call io.sbx.Sandbox1 \
		/io/sbx/Sandbox1 io.sbx.Sandbox1.Manager Wait s "$id" 2>&1)
	[[ $got == *"Call failed"* ]] && t_ok "another user cannot Wait on it" || t_fail "another user cannot Wait on it" "$got"
	bus call io.sbx.Sandbox1 /io/sbx/Sandbox1 io.sbx.Sandbox1.Manager Kill si "$id" 9 >/dev/null 2>&1
	wait_until 2 no_jailed tree-token && t_ok "Kill ends the whole tree" ||
		t_fail "Kill ends the whole tree" "left: $(describe_procs tree-token)"
	got=$(bus call io.sbx.Sandbox1 /io/sbx/Sandbox1 io.sbx.Sandbox1.Manager Wait s "$id" 2>&1)
	[[ $(awk '{ print $4 }' <<<"$got") == 9 ]] && t_ok "Wait reports the signal" || t_fail "Wait reports the signal" "$got"
	kill -9 "$holder" 2>/dev/null
else
	t_fail "Run returns an id and an object path" "$line; $(describe_procs tree-token)"
fi
bus introspect io.sbx.Sandbox1 /io/sbx/Sandbox1 >"$T/introspect" 2>&1
grep -q '\.Run ' "$T/introspect" && grep -q '\.Reload ' "$T/introspect" && t_ok "busctl --address introspect works" ||
	t_fail "busctl --address introspect works" "$(head -c 300 "$T/introspect")"

# ------------------------------------------------------------------ the client goes away

setpriv --reuid="$U" --regid="$U" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" \
	-- "$(tok client-token)" sleep 60 </dev/null >/dev/null 2>&1 &
client=$!
t_defer_kill "$client"
if wait_until 5 jailed client-token; then
	kill -9 "$client"
	wait "$client" 2>/dev/null
	t0=$(_now_us)
	if wait_until 1 no_jailed client-token; then
		t_ok "client killed mid-run: its sandbox is gone within a second ($((($(_now_us) - t0) / 1000)) ms)"
	else
		t_fail "client killed mid-run: its sandbox is gone within a second" "$(describe_procs client-token)"
	fi
else
	t_fail "client killed mid-run" "the sandbox never started"
fi

# (bash starts background jobs with SIGINT ignored; an interactive shell would not)
env --default-signal=INT "$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- "$(tok sigint-token)" sleep 60 \
	</dev/null >/dev/null 2>"$T/client-err" &
client=$!
t_defer_kill "$client"
if wait_until 5 jailed sigint-token; then
	kill -INT "$client"
	wait "$client"
	rc=$?
	wait_until 2 no_jailed sigint-token && ((rc == 130)) && t_ok "SIGINT to the client becomes Kill (130)" ||
		t_fail "SIGINT to the client becomes Kill" "rc $rc; $(cat "$T/client-err"); $(describe_procs sigint-token)"
else
	t_fail "SIGINT to the client becomes Kill" "the sandbox never started"
fi

# ------------------------------------------------------------------ the per-user cap

pids=()
tok cap-token >/dev/null
for i in 1 2 3; do
	setpriv --reuid="$U" --regid="$U" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" \
		-- "$(tok cap-token)" sleep 60 </dev/null >/dev/null 2>&1 &
	pids+=($!)
	t_defer_kill $!
done
if wait_until 10 at_least_jailed 3 cap-token; then
	usbx --workspace "$WS" -- /bin/true
	((RC == 125)) && grep -q "maximum" "$ERR" && t_ok "a fourth sandbox over the user's max_sandboxes is refused" ||
		t_fail "a fourth sandbox over max_sandboxes" "$(run_info)"
	dsbx --workspace "$WS" -- /bin/true
	((RC == 0)) && t_ok "the cap is per user: root still runs" || t_fail "the cap is per user" "$(run_info)"
else
	t_fail "three sandboxes of the user" "$(describe_procs cap-token)"
fi
kill -9 "${pids[@]}" 2>/dev/null
{ wait "${pids[@]}"; } 2>/dev/null
wait_until 2 no_jailed cap-token || t_fail "cap sandboxes end with their clients" "$(describe_procs cap-token)"

# ------------------------------------------------------------------ malformed calls

malformed() { # malformed NAME EXPECT BUS-CALL-ARGS...: an error reply, and the daemon still serves
	local name=$1 want=$2 got
	shift 2
	got=$(timeout 30 "$BUS_CALL" --workspace "$WS" "$@" "$DM_SOCK" -- /bin/true 2>&1)
	if [[ $got == error*"$want"* ]]; then
		t_ok "$name: an error reply"
	else
		t_fail "$name: an error reply" "$(head -c 300 <<<"$got")"
	fi
	dsbx --workspace "$WS" -- /bin/true
	((RC == 0)) && t_ok "$name: sandboxd serves the next caller" || t_fail "$name: sandboxd serves the next caller" "$(run_info)"
}
malformed "wrong types" InvalidArgs --signature ssuu
malformed "100k-element argv" "more than" --args 100000
malformed "1 MiB argument" "longer than" --arg-bytes 1048576
malformed "profile ../../etc/x" "not a profile name" --profile ../../etc/x
malformed "profile that does not exist" "" --profile no-such-profile
# More fds than any call takes: the connection is closed before sd-bus reads them
# (intake.c); the bounds themselves are t_daemon_dos.sh's.
malformed "240 fds" "Disconnected" --extra-fds 240

# Which Run keys take an array ('as') is the option table's (sbx_option_repeats):
# net_deny, which repeats on the command line, arrives as one like ro, rw and tmpfs,
# each element a rule of its own.
got=$(timeout 30 "$BUS_CALL" --workspace "$WS" --array "net_deny=gist.github.com,bad rule" "$DM_SOCK" -- /bin/true 2>&1)
[[ $got == error*InvalidArgs*"deny[1] 'bad?rule'"* ]] && t_ok "net_deny as 'as': each element is a rule (the second, bad, is named)" ||
	t_fail "net_deny as 'as': each element is a rule" "$(head -c 300 <<<"$got")"
got=$(timeout 30 "$BUS_CALL" --workspace "$WS" --array "net_deny=gist.github.com,10.0.0.0/8:443" "$DM_SOCK" -- /bin/true 2>&1)
[[ $got != *"wrong type"* && $got == *"--net-deny needs network: filtered"* ]] &&
	t_ok "net_deny as 'as': two good rules are read and reach the decision (workspace has no filtered network)" ||
	t_fail "net_deny as 'as': two good rules are read" "$(head -c 300 <<<"$got")"
got=$(timeout 30 "$BUS_CALL" --workspace "$WS" --array "net=none" "$DM_SOCK" -- /bin/true 2>&1)
[[ $got == error*InvalidArgs*"wrong type 'as'"* ]] && t_ok "net (given once) as 'as' is refused as the wrong type" ||
	t_fail "net as 'as' is refused" "$(head -c 300 <<<"$got")"
malformed "a stdio fd that cannot be used" "not an open file" --stdout-path
got=$(setpriv --reuid="$U" --regid="$U" --init-groups "$BUS_CALL" --workspace "$WS" --connections 200 --wait "$DM_SOCK" -- /bin/true 2>&1)
[[ $got == *"connections "* || $got == error* ]] && t_ok "a flood of one user's connections is cut off" || t_fail "a flood of connections is cut off" "$(head -c 200 <<<"$got")"
dsbx --workspace "$WS" -- /bin/true
((RC == 0)) && t_ok "after the flood, sandboxd serves others" || t_fail "after the flood, sandboxd serves others" "$(run_info)"
fds_back() { (($(dm_fds) <= fds0)); }
wait_until 3 fds_back
fds=$(dm_fds)
((fds <= fds0)) && t_ok "no fd held after the malformed calls ($fds0 -> $fds)" || t_fail "no fd held after the malformed calls" "$fds0 -> $fds: $(ls -l "/proc/$DM_PID/fd" | tail -n +2 | head -20 | tr '\n' '|')"

# ------------------------------------------------------------------ reload

cp "$DM_POLICY" "$T/good-policy"
printf 'allow:\n  - users: [root]\n    profiles: ["*"]\n  bogus: 1\n' >"$DM_POLICY"
kill -HUP "$DM_PID"
wait_until 5 grep -q "kept" "$DM_LOG"
usbx --workspace "$WS" -- /bin/true
((RC == 0)) && t_ok "a bad policy on SIGHUP keeps the old one" || t_fail "a bad policy on SIGHUP keeps the old one" "$(run_info)"
grep -q "policy.yaml:4" "$DM_LOG" && t_ok "the refused policy is logged with FILE:LINE" || t_fail "the refused policy is logged" "$(tail -c 400 "$DM_LOG")"
got=$(setpriv --reuid="$U" --regid="$U" --clear-groups busctl --address="unix:path=$DM_SOCK" call io.sbx.Sandbox1 \
	/io/sbx/Sandbox1 io.sbx.Sandbox1.Manager Reload 2>&1)
[[ $got == *ccess* ]] && t_ok "Reload() is root's only" || t_fail "Reload() is root's only" "$got"
printf 'allow:\n  - users: [root]\n    profiles: ["*"]\n' >"$DM_POLICY"
got=$(bus call io.sbx.Sandbox1 /io/sbx/Sandbox1 io.sbx.Sandbox1.Manager Reload 2>&1)
usbx --workspace "$WS" -- /bin/true
((RC == 126)) && t_ok "Reload() swaps in a good policy (the user is now denied)" || t_fail "Reload() swaps in a good policy" "$got; $(run_info)"
cp "$T/good-policy" "$DM_POLICY"
kill -HUP "$DM_PID"
wait_until 5 eval 'usbx --workspace "$WS" -- /bin/true; ((RC == 0))' || t_fail "policy restored" "$(run_info)"

# ------------------------------------------------------------------ the journal

if ((jd_ok)); then
	jd_query "$T/j" SYSLOG_IDENTIFIER=sandboxd
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_ALLOWED SBX_UID="$UID_U" SBX_PROFILE=workspace SBX_MODE=daemon)
	((n >= 1)) && t_ok "journal: ALLOWED with the caller's uid, profile, mode" || t_fail "journal: ALLOWED" "$n entries"
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_DENIED SBX_UID="$UID_U" SBX_PROFILE=network-host SBX_DECISION=deny)
	((n == 1)) && t_ok "journal: one DENIED for the network profile" || t_fail "journal: one DENIED for network" "$n entries"
	if jd_entry "$T/j" "$T/e" MESSAGE_ID=$MID_DENIED SBX_UID="$UID_U" SBX_PROFILE=network; then
		[[ -n $(kv SBX_REASON "$T/e") ]] && t_ok "journal: DENIED says why" || t_fail "journal: DENIED says why" "no SBX_REASON"
		[[ $(kv SBX_GID "$T/e") == "$GID_U" ]] && t_ok "journal: DENIED has the caller's gid" || t_fail "journal: DENIED gid" "$(kv SBX_GID "$T/e")"
	fi
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_DENIED SBX_UID=$NOBODY)
	((n == 1)) && t_ok "journal: DENIED for the unlisted user" || t_fail "journal: DENIED for the unlisted user" "$n entries"
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_EXIT SBX_UID="$UID_U" SBX_EXIT_STATUS=0)
	((n >= 1)) && t_ok "journal: EXIT with the status" || t_fail "journal: EXIT" "$n entries"
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_EXIT SBX_EXIT_STATUS=7)
	((n == 1)) && t_ok "journal: EXIT of 'probe exit 7'" || t_fail "journal: EXIT of exit 7" "$n entries"
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_KILL)
	((n >= 1)) && t_ok "journal: KILL entries" || t_fail "journal: KILL entries" "$n"
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_RELOAD SBX_DECISION=failed)
	((n == 1)) && t_ok "journal: the refused reload" || t_fail "journal: the refused reload" "$n"
	n=$(jd_count "$T/j" MESSAGE_ID=$MID_RELOAD SBX_DECISION=ok)
	((n >= 1)) && t_ok "journal: the good reload" || t_fail "journal: the good reload" "$n"
	allowed=$(jd_count "$T/j" MESSAGE_ID=$MID_ALLOWED)
	exits=$(jd_count "$T/j" MESSAGE_ID=$MID_EXIT)
	((allowed == exits)) && t_ok "journal: every ALLOWED has its EXIT ($allowed)" || t_fail "journal: every ALLOWED has its EXIT" "$allowed allowed, $exits exits"
fi

# ------------------------------------------------------------------ shutdown

"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- "$(tok term-token)" sleep 60 </dev/null >/dev/null 2>"$T/client-err" &
client=$!
t_defer_kill "$client"
if wait_until 5 jailed term-token; then
	t0=$(_now_us)
	dm_stop
	ms=$((($(_now_us) - t0) / 1000))
	((DM_RC == 0)) && t_ok "SIGTERM: sandboxd exits 0 ($ms ms)" || t_fail "SIGTERM: sandboxd exits 0" "rc $DM_RC"
	no_jailed term-token && t_ok "SIGTERM: its sandboxes are gone" || t_fail "SIGTERM: its sandboxes are gone" "$(describe_procs term-token)"
	wait "$client"
	rc=$?
	((rc == 143)) && t_ok "SIGTERM: the client reports the sandbox's end (143)" || t_fail "SIGTERM: the client's status" "$rc: $(cat "$T/client-err")"
	! "$BUS_CALL" "$DM_SOCK" -- /bin/true >/dev/null 2>&1 && t_ok "SIGTERM: nothing listens any more" || t_fail "SIGTERM: nothing listens" "a call went through"
else
	t_fail "SIGTERM" "the sandbox never started"
fi

# sandboxd killed: nothing of its jails survives.
dm_start "${unit[@]}" || t_fail "restart" "$(tail -c 300 "$DM_LOG")"
"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- "$(tok kill9-token)" sleep 60 </dev/null >/dev/null 2>"$T/client-err" &
client=$!
t_defer_kill "$client"
if wait_until 5 jailed kill9-token; then
	launchers=$(pgrep -P "$DM_PID" | tr '\n' ' ')
	kill -9 "$DM_PID"
	wait_until 2 no_jailed kill9-token && t_ok "sandboxd SIGKILLed: no jail survives" ||
		t_fail "sandboxd SIGKILLed: no jail survives" "$(describe_procs kill9-token)"
	# A zombie waiting for its new parent to reap it is dead too.
	live_launchers() {
		local p st
		for p in $launchers; do
			st=$(awk '{ print $3 }' "/proc/$p/stat" 2>/dev/null)
			[[ -n $st && $st != Z ]] && echo "$p"
		done
	}
	wait_until 2 test -z "$(live_launchers)" && t_ok "sandboxd SIGKILLed: no launcher survives" ||
		t_fail "sandboxd SIGKILLed: no launcher survives" "$(live_launchers)"
	wait "$client"
	rc=$?
	((rc == 125)) && t_ok "sandboxd SIGKILLed: the client says so with 125" || t_fail "the client's status when sandboxd dies" "$rc: $(cat "$T/client-err")"
else
	t_fail "sandboxd SIGKILLed" "the sandbox never started"
fi

# The same for a user's sandbox, sandboxd and the sandbox's launcher SIGKILLed at
# once: the jail's PID 1 took the caller's uid, which clears a death signal, so it is
# armed again after the switch.
dm_start "${unit[@]}" || t_fail "restart" "$(tail -c 300 "$DM_LOG")"
setpriv --reuid="$U" --regid="$U" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- \
	"$(tok ukill9-token)" sleep 60 </dev/null >/dev/null 2>"$T/client-err" &
client=$!
t_defer_kill "$client"
if wait_until 5 jailed ukill9-token; then
	kill -9 "$DM_PID" $(pgrep -P "$DM_PID")
	wait_until 2 no_jailed ukill9-token && t_ok "user: sandboxd and its launcher SIGKILLed: no jail survives" ||
		t_fail "user: sandboxd and its launcher SIGKILLed: no jail survives" "$(describe_procs ukill9-token)"
	pkill -9 -f "^$WS/t-ukill9-token " 2>/dev/null
	wait "$client"
else
	t_fail "user: sandboxd SIGKILLed" "the sandbox never started"
fi

# ------------------------------------------------------------------ the socket in a jail

# A sandboxd whose socket lies inside the workspace: the jail binds the workspace,
# never the socket; a hard link to it that gets in anyway finds a daemon that does
# not serve jails.
DM_SOCK=$WS/inside.sock
dm_start || t_fail "socket in the workspace" "$(tail -c 300 "$DM_LOG")"
dsbx --workspace "$WS" -- "$WS/probe" connect-unix "$WS/inside.sock"
r=$(kv result)
[[ $RC == 0 && -n $r && $r != ok ]] && t_ok "sandboxd's socket is unreachable from a jail ($r)" ||
	t_fail "sandboxd's socket is unreachable from a jail" "result=$r; $(run_info)"
mkdir -p "$WS/sub"
ln "$WS/inside.sock" "$WS/sub/link.sock"
# (never the ASan build: LeakSanitizer cannot run under the jail's seccomp filter)
cp "$SBX_ROOT/build/sbx-run" "$WS/sbx-run"
dsbx --workspace "$WS" -- "$WS/sbx-run" --daemon --socket "$WS/sub/link.sock" --workspace "$WS" -- /bin/true
# Refused by the daemon (a caller in a jail), or not even connected: the connect
# broker takes it for what it is, a host socket.
{ { ((RC == 126)) && grep -q "jail" "$ERR"; } || { ((RC == 125)) && grep -q "cannot reach sandboxd.*Permission denied" "$ERR"; }; } &&
	t_ok "a jail that reaches sandboxd anyway is denied" ||
	t_fail "a jail that reaches sandboxd anyway is denied" "$(run_info)"
dm_stop

# ------------------------------------------------------------------ installed profiles

# sandboxd reads /etc/sbx/profiles as root for every caller: a profile there that
# others may write is refused, as the site policy would be.  (A private /etc/sbx, on a
# tmpfs over /etc in a mount namespace of the test's own.)
check_profiles_dir() { # MODE: sandboxd --check-config with one profile of that mode
	unshare -m --propagation private sh -c '
		mount -t tmpfs -o mode=0755 sbx-etc /etc && mkdir -p /etc/sbx/profiles &&
		printf "extends: workspace\n" >/etc/sbx/profiles/site-one.yaml &&
		chmod "$1" /etc/sbx/profiles/site-one.yaml &&
		printf "allow:\n  - users: [0]\n    profiles: [\"*\"]\n" >/etc/sbx/policy.yaml &&
		exec "$2" --check-config --policy /etc/sbx/policy.yaml' check "$1" "$SANDBOXD" >"$T/check-out" 2>&1
}
check_profiles_dir 0644
rc=$?
((rc == 0)) && t_ok "an installed profile of root's, mode 0644, loads" || t_fail "an installed profile loads" "rc $rc: $(head -c 300 "$T/check-out")"
check_profiles_dir 0664
rc=$?
((rc != 0)) && grep -q "writable by others" "$T/check-out" && t_ok "an installed profile others may write is refused" ||
	t_fail "an installed profile others may write is refused" "rc $rc: $(head -c 300 "$T/check-out")"
