#!/bin/bash
# --json: one summary object, the last stderr line, with the contract's
# fields; --dry-run: the plan as JSON on stdout and nothing run.
. "$(dirname "$0")/../lib.sh"
t_init

# Every field of the contract is there, with the right type.
json_shape() {
	local p=$1 k v
	if ! json_last; then
		t_fail "$p: last stderr line is a JSON object" "$(tail -n 1 "$ERR" | head -c 300)"
		return 1
	fi
	t_ok "$p: last stderr line is a JSON object"
	for k in status exit_code signal timed_out oom_killed wall_ms cpu_user_ms cpu_sys_ms \
		peak_memory_bytes applied weakened error; do
		if ! v=$(kv "$k" "$T/json"); then
			t_fail "$p: has '$k'" "missing in $(tail -n 1 "$ERR" | head -c 300)"
			continue
		fi
		case $k:$v in
		wall_ms:int:* | cpu_user_ms:int:* | cpu_sys_ms:int:* | status:int:*) t_ok "$p: $k is a number" ;;
		exit_code:int:* | exit_code:null | signal:int:* | signal:null) t_ok "$p: $k is a number or null" ;;
		peak_memory_bytes:int:* | peak_memory_bytes:null) t_ok "$p: $k is a number or null" ;;
		timed_out:true | timed_out:false | oom_killed:true | oom_killed:false) t_ok "$p: $k is a bool" ;;
		applied:\[* | weakened:\[*) t_ok "$p: $k is a list" ;;
		error:null | error:'<object>') t_ok "$p: $k is null or an object" ;;
		*) t_fail "$p: $k has the right type" "$k=$v" ;;
		esac
	done
}

jail --json -- exit 3
expect_rc "exit 3 with --json" 3
if [[ $RC == 3 ]] && json_shape "exit 3"; then
	expect_json "exit 3: status" status int:3
	expect_json "exit 3: exit_code" exit_code int:3
	expect_json "exit 3: signal" signal null
	expect_json "exit 3: timed_out" timed_out false
	expect_json "exit 3: oom_killed" oom_killed false
	expect_json "exit 3: error" error null
	t_check "exit 3: applied is not empty" "applied=$(kv applied "$T/json")" \
		test "$(kv applied "$T/json")" != "[]"
	# What was weakened is reported, never silent: show it in the log.
	echo "#   weakened (root, default options): $(kv weakened "$T/json")"
fi
if [[ $RC == 3 ]]; then
	t_check "--json leaves the command's stdout alone" "stdout: $(head -c 200 "$OUT")" test ! -s "$OUT"
fi

jail --json -- raise 9
expect_rc "SIGKILL with --json" 137
if [[ $RC == 137 ]] && json_shape "SIGKILL"; then
	expect_json "SIGKILL: status" status int:137
	expect_json "SIGKILL: exit_code" exit_code null
	expect_json "SIGKILL: signal" signal int:9
fi

jail --json --timeout 0.3 -- sleep 30
expect_rc "timeout with --json" 124
if [[ $RC == 124 ]] && json_shape "timeout"; then
	expect_json "timeout: status" status int:124
	expect_json "timeout: timed_out" timed_out true
fi

sbx --json --workspace "$T/does-not-exist" -- true
expect_rc "setup error with --json" 125
if json_shape "setup error"; then
	expect_json "setup error: status" status int:125
	for k in stage errno syscall path message hint; do
		if kv "error.$k" "$T/json" >/dev/null; then
			t_ok "setup error: error.$k present"
		else
			t_fail "setup error: error.$k present" "$(tail -n 1 "$ERR" | head -c 300)"
		fi
	done
	t_check "setup error: error.message not empty" "empty" test -n "$(kv error.message "$T/json")"
fi
t_check "setup error: the 'sbx-run: ' line comes too" "stderr: $(head -c 300 "$ERR")" grep -q '^sbx-run: ' "$ERR"

# --dry-run: JSON plan on stdout, exit 0, and the command (which would create
# a host-visible file in the workspace) does not run.
jail --dry-run -- write "$WS/dry-run-created"
expect_rc "--dry-run exits 0" 0
if json_flatten <"$OUT" >"$T/plan"; then
	t_ok "--dry-run prints a JSON object"
else
	t_fail "--dry-run prints a JSON object" "$(head -c 300 "$OUT")"
fi
t_check "--dry-run plan names the workspace" "no '$WS' in plan" grep -qF "$WS" "$OUT"
if [[ -e $WS/dry-run-created ]]; then
	t_fail "--dry-run runs nothing" "$WS/dry-run-created was created"
else
	t_ok "--dry-run runs nothing"
fi
# --dry-run says what the jail WILL be: /dev and /dev/shm's size, seccomp and
# Landlock, and whether the memory and pids limits will hold on this host.  The
# host's cgroup kind is worked out here from /sys/fs/cgroup, independently of sbx:
# v2 where a cgroup2 mount holds the memory and pids controllers, else v1 where
# both v1 controllers are mounted; on v1 a cgroup is made only for --memory/--pids.
host_cgroup() {
	local m
	for m in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		if [[ $(stat -f -c %T "$m" 2>/dev/null) == cgroup2fs ]] &&
			grep -qw memory "$m/cgroup.controllers" 2>/dev/null &&
			grep -qw pids "$m/cgroup.controllers" 2>/dev/null; then
			echo v2
			return
		fi
	done
	if [[ $(stat -f -c %T /sys/fs/cgroup/memory 2>/dev/null) == cgroupfs &&
		$(stat -f -c %T /sys/fs/cgroup/pids 2>/dev/null) == cgroupfs ]]; then
		echo v1
	else
		echo none
	fi
}
# dry_check NAME EXPECT-PYTHON-EXPR: the expression holds over the plan (p).
dry_check() {
	local why
	if why=$(python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
try:
    ok = bool(eval(sys.argv[2]))
except (KeyError, TypeError) as e:
    ok = False
    print("missing or mistyped:", e)
print("" if ok else json.dumps({k: p.get(k) for k in ("mounts", "dev", "seccomp", "landlock", "limits")})[:600])
sys.exit(0 if ok else 1)' "$OUT" "$2" 2>&1); then
		t_ok "$1"
	else
		t_fail "$1" "$why"
	fi
}
CG=$(host_cgroup)
if ((EUID == 0)); then
	jail --dry-run -- true
	expect_rc "--dry-run (default profile) exits 0" 0
	dry_check "--dry-run: /dev lists the minimal device set" \
		'all(n in p["dev"]["devices"] for n in ("null","zero","full","random","urandom","tty")) and p["dev"]["pts"] is True'
	dry_check "--dry-run: /dev/shm is 64 MiB by default" \
		'p["dev"]["shm"]["size"] == 64 << 20 and p["dev"]["shm"]["dest"] == "/dev/shm"'
	dry_check "--dry-run: seccomp names its filter and action" \
		'p["seccomp"]["filter"] == "builtin" and p["seccomp"]["action"] in ("errno","kill") and isinstance(p["seccomp"]["allow"], list)'
	dry_check "--dry-run: landlock says it applies and whether optional" \
		'p["landlock"]["applied"] is True and isinstance(p["landlock"]["optional"], bool) and p["landlock"]["exec_allowlist"] is None'
	dry_check "--dry-run: limits.cgroup is the host's ($CG)" "p['limits']['cgroup'] == '$CG'"
	case $CG in
	v2) want=True ;;
	*) want=False ;;
	esac
	dry_check "--dry-run: default memory/pids limits enforced=$want on a $CG host" \
		"p['limits']['memory'] and p['limits']['pids'] and p['limits']['enforced'] == {'memory': $want, 'pids': $want}"
	jail --memory 256M --tmpfs /dev/shm:1G --dry-run -- true
	expect_rc "--dry-run --memory 256M --tmpfs /dev/shm:1G exits 0" 0
	dry_check "--dry-run: --tmpfs /dev/shm:1G gives a 1 GiB /dev/shm" 'p["dev"]["shm"]["size"] == 1 << 30'
	[[ $CG == none ]] && want=False || want=True
	dry_check "--dry-run: --memory is enforced=$want on a $CG host" \
		"p['limits']['memory'] == 256 << 20 and p['limits']['enforced'] == {'memory': $want, 'pids': $want}"
	printf 'extends: strict\nseccomp:\n  allow: [get_mempolicy]\n' >"$T/dry-seccomp.yaml"
	sbx --workspace "$WS" --profile "$T/dry-seccomp.yaml" --dry-run -- ls
	expect_rc "--dry-run with seccomp.allow exits 0" 0
	dry_check "--dry-run: a profile's seccomp.allow makes a compiled filter" \
		'p["seccomp"]["filter"] == "compiled" and "get_mempolicy" in p["seccomp"]["allow"]'
	dry_check "--dry-run: strict's execute allowlist is counted for landlock" \
		'p["landlock"]["applied"] is True and isinstance(p["landlock"]["exec_allowlist"], int) and p["landlock"]["exec_allowlist"] == len(p["exec"]) > 0'
else
	t_skip "--dry-run: dev, seccomp, landlock, enforced limits" "needs root (cgroup rules differ unprivileged)"
fi

# "applied" names what the jail had, each step reporting itself once done.
# A namespace the profile shares with the host is not in it, and the host sees
# that it is shared indeed.
printf 'extends: workspace\nnamespaces:\n  uts: false\n  ipc: false\n  cgroup: false\n' >"$T/shared-ns.yaml"
jail --profile "$T/shared-ns.yaml" --json -- status
expect_rc "shared uts/ipc/cgroup namespaces: runs" 0
if [[ $RC == 0 ]] && json_last; then
	applied=$(kv applied "$T/json")
	for ns in uts ipc cgroup; do
		[[ $(kv "ns.$ns") == "$(host_ns "$ns")" ]] && t_ok "shared namespaces: the $ns namespace is the host's" ||
			t_fail "shared namespaces: the $ns namespace is the host's" "ns.$ns=$(kv "ns.$ns") host=$(host_ns "$ns")"
		[[ $applied != *"\"${ns}ns\""* ]] && t_ok "shared namespaces: ${ns}ns not in applied" ||
			t_fail "shared namespaces: ${ns}ns not in applied" "applied=$applied"
	done
	[[ $applied == *'"pidns"'* && $applied == *'"mntns"'* && $applied == *'"seccomp"'* ]] &&
		t_ok "shared namespaces: the jail's own steps are in applied" || t_fail "shared namespaces: the jail's own steps" "applied=$applied"
else
	t_fail "shared namespaces: --json summary" "$(run_info)"
fi

# A jail killed before its command ran (a 1 ms timeout ends it while it is still
# being built) lists what was done by then: not the command's own steps, which
# come last before execve.  From the host: the command did not run.
for try in 1 2 3; do
	rm -f "$WS/applied-ran"
	jail --json --timeout 0.001 -- write "$WS/applied-ran"
	[[ $RC == 124 && ! -e $WS/applied-ran ]] && break
done
if [[ $RC == 124 && ! -e $WS/applied-ran ]] && json_last; then
	applied=$(kv applied "$T/json")
	for step in landlock seccomp no_new_privs caps-dropped; do
		[[ $applied != *"\"$step\""* ]] && t_ok "killed before the command ran: $step not in applied" ||
			t_fail "killed before the command ran: $step not in applied" "applied=$applied"
	done
else
	t_skip "killed before the command ran" "the jail was built within 1 ms three times (rc=$RC)"
fi

# Landlock absent from the kernel (the probe's stand-in, a seccomp filter answering
# landlock_create_ruleset ENOSYS) and optional: weakened says so, applied does not
# name it.
if [[ $(id -u) != 0 ]] || ! "$PROBE" no-landlock true; then
	t_skip "no Landlock" "the probe's stand-in for a kernel without Landlock needs root"
else
	printf 'extends: workspace\noptional: [landlock]\n' >"$T/optional-landlock.yaml"
	SBX_RUN_SAVED=$SBX_RUN
	SBX_RUN="$PROBE"
	sbx no-landlock "$SBX_RUN_SAVED" --profile "$T/optional-landlock.yaml" --workspace "$WS" --json -- "$WS/probe" exit 0
	SBX_RUN=$SBX_RUN_SAVED
	expect_rc "no Landlock, optional: runs" 0
	if [[ $RC == 0 ]] && json_last; then
		[[ $(kv weakened "$T/json") == *'landlock: not'* ]] && t_ok "no Landlock: weakened says so" ||
			t_fail "no Landlock: weakened says so" "$(tail -n 1 "$ERR")"
		applied=$(kv applied "$T/json")
		[[ $applied != *'"landlock"'* && $applied == *'"seccomp"'* ]] && t_ok "no Landlock: landlock not in applied" ||
			t_fail "no Landlock: landlock not in applied" "applied=$applied"
	fi
fi
exit 0
