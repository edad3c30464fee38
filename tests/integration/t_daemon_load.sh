#!/bin/bash
# sandboxd over time: 2,000 sequential launches and 64 concurrent clients leave no fd,
# child, zombie, cgroup or mount behind in the daemon, and its memory stays flat.
# (Speed is measured in `make bench`, never here.)
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

LAUNCHES=${SBX_DAEMON_LAUNCHES:-2000}
CLIENTS=64
# ASan keeps freed memory in quarantine: RSS says nothing there (LeakSanitizer, at
# sandboxd's clean stop, says what matters).
ASAN=0
grep -q __asan_init "$SANDBOXD" && ASAN=1

dm_policy <<EOF
allow:
  - users: [root]
    profiles: ["*"]
    max_sandboxes: $CLIENTS
limits:
  max_sandboxes: $CLIENTS
  max_sandboxes_per_user: $CLIENTS
EOF
if ! dm_start; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi

# What the daemon holds, one line: fds children zombies.
held() {
	echo "$(dm_fds) $(dm_children) $(dm_zombies)"
}
settled() { # no more fds than BASE holds, no child, no zombie
	local fds children zombies
	read -r fds children zombies <<<"$(held)"
	((fds <= ${1%% *} && children == 0 && zombies == 0))
}
# expect_settled WHEN: once the last clients are gone, the daemon holds what it did.
expect_settled() {
	local now
	wait_until 5 settled "$base"
	now=$(held)
	settled "$base" && t_ok "after $1: no more fds, no child, no zombie ($base -> $now)" ||
		t_fail "after $1: nothing held" "fds children zombies: $base -> $now"
}

# Warm up (lazy timers, the journal socket, malloc arenas), then the baseline once
# the last client's connection is closed.
for ((i = 0; i < 20; i++)); do
	"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- /bin/true </dev/null >/dev/null 2>&1
done
sleep 0.5
base=$(held)
mounts0=$(host_mounts)
cgroups0=$(sbx_cgroups)
rss0=$(dm_rss_kb)

failed=0
for ((i = 0; i < LAUNCHES; i++)); do
	"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- /bin/true </dev/null >/dev/null 2>>"$T/seq-err" ||
		failed=$((failed + 1))
done
((failed == 0)) && t_ok "$LAUNCHES sequential launches all exit 0" || t_fail "$LAUNCHES sequential launches" "$failed failed: $(tail -n 3 "$T/seq-err" | tr '\n' '|')"
expect_settled "$LAUNCHES launches"
rss1=$(dm_rss_kb)
((ASAN || rss1 - rss0 < 1024)) && t_ok "after $LAUNCHES launches: RSS flat (${rss0} -> ${rss1} KiB)" ||
	t_fail "after $LAUNCHES launches: RSS flat" "${rss0} -> ${rss1} KiB"

pids=()
for ((i = 0; i < CLIENTS; i++)); do
	"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- "$WS/probe" sleep 2 </dev/null >/dev/null 2>"$T/c$i.err" &
	pids+=($!)
done
t_defer_kill "${pids[@]}"
failed=0
for p in "${pids[@]}"; do
	wait "$p" || failed=$((failed + 1))
done
((failed == 0)) && t_ok "$CLIENTS concurrent clients all exit 0" || t_fail "$CLIENTS concurrent clients" "$failed failed: $(cat "$T"/c*.err | sort | uniq -c | head -3 | tr '\n' '|')"
expect_settled "$CLIENTS concurrent clients"
rss2=$(dm_rss_kb)
((ASAN || rss2 - rss0 < 2048)) && t_ok "after $CLIENTS concurrent clients: RSS flat (${rss0} -> ${rss2} KiB)" ||
	t_fail "after $CLIENTS concurrent clients: RSS flat" "${rss0} -> ${rss2} KiB"

# Clients that each launch one sandbox after another, side by side: sandboxes start
# and end while others do, and fd numbers are handed out again all the time.
burst() {
	local i
	for ((i = 0; i < 40; i++)); do
		"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" -- /bin/true </dev/null >/dev/null 2>>"$T/burst-$1.err" || return 1
	done
}
pids=()
for ((c = 0; c < 8; c++)); do
	burst "$c" &
	pids+=($!)
done
failed=0
for p in "${pids[@]}"; do
	wait "$p" || failed=$((failed + 1))
done
((failed == 0)) && t_ok "8 clients launching 40 sandboxes each, side by side, all exit 0" ||
	t_fail "8 clients launching side by side" "$failed failed: $(cat "$T"/burst-*.err | sort | uniq -c | head -3 | tr '\n' '|')"
pid_alive "$DM_PID" && t_ok "sandboxd still runs after them" || t_fail "sandboxd still runs" "$(tail -c 300 "$DM_LOG")"
expect_settled "the side-by-side launches"
! grep -q "EBADF\|Assertion" "$DM_LOG" && t_ok "sandboxd logged no bad fd" || t_fail "sandboxd logged no bad fd" "$(grep -m2 "EBADF\|Assertion" "$DM_LOG")"

[[ $(host_mounts) == "$mounts0" ]] && t_ok "no mount left on the host" || t_fail "no mount left" "$(diff <(echo "$mounts0") <(host_mounts) | head -5 | tr '\n' '|')"
left() { [[ $(sbx_cgroups) == "$cgroups0" ]]; }
wait_until 3 left && t_ok "no sandbox cgroup left" || t_fail "no sandbox cgroup left" "$(comm -13 <(echo "$cgroups0") <(sbx_cgroups) | head -5 | tr '\n' ' ')"
dm_stop
((DM_RC == 0)) && t_ok "sandboxd stops cleanly after the load" || t_fail "sandboxd stops cleanly" "rc $DM_RC"
