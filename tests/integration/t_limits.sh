#!/bin/bash
# Resource limits: a fork bomb under --pids 64 is contained and leaves
# nothing behind; a memory bomb under --memory 64M is OOM-killed (137,
# oom_killed true) while a modest command under the same limit runs;
# --cpu ends a spinner; no sbx cgroup directory stays behind.
. "$(dirname "$0")/../lib.sh"
t_init

sbx_cgroups_orphaned >"$T/cgroups-before"

# ---- fork bomb
token=$T/forkbomb-token
t_defer_reap "$token"
jail --pids 64 --timeout 20 -- forkbomb 2 "$token"
if ran_ok "fork bomb under --pids 64 runs to its end"; then
	forks=$(kv forks)
	if [[ $forks =~ ^[0-9]+$ ]] && ((forks < 64)); then
		t_ok "fork bomb contained (< 64 forks)"
	else
		t_fail "fork bomb contained (< 64 forks)" "forks=$forks fails=$(kv fails)"
	fi
	expect_kv "fork fails with EAGAIN at the limit" fork_errno EAGAIN
fi
host_check "no fork bomb child left on the host" \
	"$(pgrep -c -f -- "$token") left: $(describe_procs "$token" | head -c 200)" \
	wait_until 5 no_procs_matching "$token"
t_check "host still forks" "fork failed" /bin/true

# ---- memory bomb
jail --memory 64M --json -- membomb 16
expect_rc "16 MiB under --memory 64M runs" 0
if json_last; then
	peak=$(kv peak_memory_bytes "$T/json")
	case $peak in
	int:*) t_check "peak_memory_bytes >= 16 MiB" "peak_memory_bytes=$peak" test "${peak#int:}" -ge $((16 << 20)) ;;
	null) t_skip "peak_memory_bytes >= 16 MiB" "sbx-run reports null" ;;
	*) t_fail "peak_memory_bytes >= 16 MiB" "peak_memory_bytes=$peak" ;;
	esac
fi

jail --memory 64M --json -- membomb 512
expect_rc "512 MiB under --memory 64M: OOM kill, exit 137" 137
t_check "an OOM kill says so in one line on stderr" "$(run_info)" grep -q "^sbx-run: out of memory: .* 64 MiB" "$ERR"
t_check "memory bomb was running when killed" "stdout: $(head -c 200 "$OUT")" test "$(kv started)" = 1
if json_last; then
	expect_json "--json oom_killed true" oom_killed true
	expect_json "--json status 137" status int:137
	expect_json "--json signal 9" signal int:9
else
	t_fail "--json oom_killed true" "no JSON: $(tail -n 1 "$ERR" | head -c 300)"
fi
t_check "host still runs commands after the OOM" "failed" /bin/true

# ---- CPU time
jail --cpu 1 --timeout 20 -- spin 10
if ((!HUNG)) && [[ $RC == 152 || $RC == 137 ]]; then
	t_ok "--cpu 1 ends a spinner (SIGXCPU/SIGKILL)"
else
	t_fail "--cpu 1 ends a spinner (SIGXCPU/SIGKILL)" "$(run_info)"
fi
if [[ $RC == 152 || $RC == 137 ]] && ((!HUNG)); then
	t_check "--cpu 1 acts within 5 s" "took $WALL_MS ms" test "$WALL_MS" -lt 5000
fi

# ---- open files and file size: rows of the option table (policy/options.c), the same
# bounds and narrowing as every limit
sbx --nofile 64 -- sh -c 'ulimit -n'
t_check "--nofile 64: the command's open-files limit is 64" "$(run_info)" test "$RC" = 0 -a "$(cat "$OUT")" = 64
sbx --profile strict --nofile 4096 -- true
expect_rc "--nofile 4096 above strict's 1024 refused" 125
t_check "... naming the profile's limit" "$(head -c 300 "$ERR")" grep -q "nofile 4096 exceeds profile 'strict''s limit of 1024" "$ERR"
sbx --nofile 2 -- true
expect_rc "--nofile 2 (below 3) refused" 125
t_check "... with the bounds" "$(head -c 300 "$ERR")" grep -q "from 3 to 1048576" "$ERR"
sbx --fsize 1M -- sh -c 'head -c 2000000 /dev/zero >"$HOME/big"; wc -c <"$HOME/big"'
t_check "--fsize 1M: a file stops at 1 MiB" "$(run_info)" test "$(tail -n 1 "$OUT")" = 1048576
# --stack: a row of the table and nothing else (the plan's rlimit slot, privs.c's loop,
# --dry-run's JSON and the profile key all follow from it)
sbx --stack 4M -- sh -c 'ulimit -s'
t_check "--stack 4M: the command's stack limit is 4096 KiB" "$(run_info)" test "$RC" = 0 -a "$(cat "$OUT")" = 4096
sbx --stack 4M --dry-run -- true
t_check "... and --dry-run shows it under limits.stack" "$(head -c 300 "$OUT")" grep -q '"stack":4194304' "$OUT"
sbx --stack 64K -- true
expect_rc "--stack 64K (below 128K) refused" 125
t_check "... with the bounds" "$(head -c 300 "$ERR")" grep -q "from 128K to 1G" "$ERR"
sbx --stack 2G -- true
expect_rc "--stack 2G (above 1G) refused" 125
printf 'extends: workspace\nlimits:\n  stack: 2M\n' >"$T/stack.yaml"
sbx --profile "$T/stack.yaml" -- sh -c 'ulimit -s'
t_check "a profile's limits.stack 2M: the command's stack limit is 2048 KiB" "$(run_info)" test "$RC" = 0 -a "$(cat "$OUT")" = 2048
sbx --profile "$T/stack.yaml" --stack 8M -- true
expect_rc "--stack 8M above the profile's 2M refused" 125
t_check "... naming the profile's limit" "$(head -c 300 "$ERR")" grep -q "stack 8388608 bytes exceeds profile 'stack''s limit of 2097152 bytes" "$ERR"
sbx --profile "$T/stack.yaml" --stack 1M -- sh -c 'ulimit -s'
t_check "--stack 1M under the profile's 2M narrows it" "$(run_info)" test "$RC" = 0 -a "$(cat "$OUT")" = 1024
printf 'extends: workspace\nlimits:\n  stack: 4G\n' >"$T/stack-big.yaml"
sbx --profile "$T/stack-big.yaml" -- true
expect_rc "a profile's limits.stack 4G (above 1G) refused" 125

# ---- leftovers
left=$(sbx_cgroups_left "$T/cgroups-before")
t_check "no sbx cgroup directory left behind" "left: $(echo $left)" test -z "$left"
exit 0
