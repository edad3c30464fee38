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
exit 0
