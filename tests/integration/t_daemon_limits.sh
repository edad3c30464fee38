#!/bin/bash
# sandboxd always applies a profile's limits, on cgroup v1 as on v2: a fork bomb in a
# `workspace` jail (pids: 1024) through sandboxd stays at or under 1024 processes,
# counted from the host, in a cgroup whose pids.max the host reads as 1024; and the
# client's --json says exactly that (the cgroup and both limits applied, nothing
# weakened), from the summary sandboxd sends, not a list the client makes up.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

U=sbxc$SBX_RUN_ID
if ! dm_user "$U"; then
	t_fail "setup" "cannot create the test user $U"
	exit 0
fi
chown -R "$U:$U" "$WS"
dm_policy <<EOF
allow:
  - users: [$U]
    profiles: [workspace]
EOF
if ! dm_start; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi
LIMIT=$("$SBX_RUN" --profile workspace --dry-run -- /bin/true 2>/dev/null | "$PYTHON" -c \
	'import json, sys; print(json.load(sys.stdin)["limits"]["pids"])' 2>/dev/null)
[[ $LIMIT =~ ^[0-9]+$ ]] || LIMIT=1024
echo "#   workspace's pids limit: $LIMIT; cgroup: $( [[ -d /sys/fs/cgroup/pids ]] && echo v1 || echo v2)"

# ------------------------------------------------------------------ --json

timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" \
	--json --workspace "$WS" -- /bin/true </dev/null >"$OUT" 2>"$ERR"
RC=$?
if ((RC == 0)) && json_last; then
	applied=$(kv applied "$T/json")
	[[ $applied == *'"cgroup-v'[12]'"'* && $applied == *'"pids-limit"'* && $applied == *'"memory-limit"'* ]] &&
		t_ok "--json through sandboxd: the cgroup and both limits are applied ($applied)" ||
		t_fail "--json through sandboxd lists the cgroup as applied" "applied=$applied"
	[[ $applied == *'"seccomp"'* && $applied == *'"pidns"'* ]] &&
		t_ok "--json through sandboxd: the jail's other steps come with it" || t_fail "--json: the other steps" "applied=$applied"
	expect_json "--json through sandboxd: nothing weakened" weakened "[]"
else
	t_fail "--json through sandboxd" "$(run_info)"
fi

# ------------------------------------------------------------------ a fork bomb

# Two probes fork as fast as they can (each stops at 1000, more than enough
# together), their children staying; then the shell becomes a sleeping probe
# (exec: no fork left to make).
TOKEN=$T/bomb-token
t_defer_reap "$TOKEN"
timeout -k 5 60 setpriv --reuid="$U" --regid="$U" --init-groups "$SBX_RUN" --daemon --socket "$DM_SOCK" \
	--workspace "$WS" -- /bin/sh -c "\"\$0\" forkbomb 4 $TOKEN >/dev/null & \"\$0\" forkbomb 4 $TOKEN >/dev/null; wait;
		echo done >$WS/bomb-done; exec \"\$0\" sleep 60" "$WS/probe" </dev/null >/dev/null 2>"$T/bomb-err" &
client=$!
t_defer_kill "$client"
if wait_until 40 test -s "$WS/bomb-done"; then
	n=$(pgrep -c -f -- "forkbomb 4 $TOKEN")
	launcher=$(pgrep -P "$DM_PID" | head -n 1)
	pids_max=""
	for d in $(find /sys/fs/cgroup -maxdepth 7 -type d -name "sbx-$launcher-*" 2>/dev/null); do
		[[ -f $d/pids.max ]] && pids_max=$(cat "$d/pids.max")
	done
	echo "#   fork bomb processes the host counts: $n (2 x 1000 tried); the jail's pids.max: ${pids_max:-none}"
	((n > 0 && n <= LIMIT)) && t_ok "fork bomb through sandboxd: $n processes, at most the profile's $LIMIT (host count)" ||
		t_fail "fork bomb through sandboxd stays at the profile's pids limit" "$n processes of the bomb run (limit $LIMIT)"
	[[ $pids_max == "$LIMIT" ]] && t_ok "the jail's cgroup has pids.max $LIMIT (host view)" ||
		t_fail "the jail's cgroup has pids.max $LIMIT" "pids.max: ${pids_max:-no cgroup of launcher $launcher}"
else
	t_fail "fork bomb through sandboxd" "the bomb never finished starting: $(head -c 300 "$T/bomb-err")"
fi
kill -TERM "$client" 2>/dev/null
wait "$client" 2>/dev/null
wait_until 10 no_procs_matching "$TOKEN" && t_ok "the bomb is gone with its sandbox" ||
	t_fail "the bomb is gone with its sandbox" "$(pgrep -c -f -- "$TOKEN") left"
dm_stop
exit 0
