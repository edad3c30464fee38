#!/bin/bash
# Issue 14's compatibility features through sandboxd, as an unprivileged caller the
# site policy admits to workspace only, with a 128M memory ceiling:
#  - the debug profile (ptrace) is refused;
#  - a /dev/shm raised far past the ceiling (--tmpfs /dev/shm:64G) does not let the
#    jail hold more memory than the ceiling: its pages are charged to the jail's cgroup;
#  - a command started with every catchable signal ignored (the bus key
#    ignored_signals) is still killed at --timeout, and nothing of it outlives the run.
. "$(dirname "$0")/../lib.sh"
. "$(dirname "$0")/../daemon.sh"
t_init
dm_init

U=sbxc$SBX_RUN_ID
if ! dm_user "$U"; then
	t_fail "setup" "cannot create the test user"
	exit 0
fi
chown -R "$U:$U" "$WS"
dm_policy <<EOF2
allow:
  - users: [$U]
    profiles: [workspace]
    max_sandboxes: 4
    max_memory: 128M
limits:
  grace: 1s
EOF2
if ! dm_start; then
	t_fail "setup" "sandboxd did not start: $(tail -c 300 "$DM_LOG")"
	exit 0
fi
usbx() {
	timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups \
		"$SBX_RUN" --daemon --socket "$DM_SOCK" "$@" >"$OUT" 2>"$ERR" </dev/null
	RC=$?
}

usbx --profile debug --workspace "$WS" -- /bin/true
if [[ $RC == 125 || $RC == 126 ]] && grep -qi "debug" "$ERR"; then
	t_ok "debug not in the site policy: refused"
else
	t_fail "debug not in the site policy: refused" "rc=$RC err=$(head -c 300 "$ERR")"
fi

# 512 MiB into a 64G /dev/shm under a 128M ceiling: killed or out of space, never done.
usbx --workspace "$WS" --tmpfs /dev/shm:64G -- /bin/sh -c \
	'dd if=/dev/zero of=/dev/shm/big bs=1M count=512 2>&1; echo "dd=$?"; ls -l /dev/shm/big'
if [[ $RC == 137 ]] || grep -q '^dd=[1-9]' "$OUT"; then
	t_ok "--tmpfs /dev/shm:64G under max_memory 128M: 512 MiB cannot be held (rc=$RC, $(grep -a '^dd=' "$OUT"))"
else
	t_fail "--tmpfs /dev/shm:64G under max_memory 128M: 512 MiB cannot be held" "rc=$RC out=$(head -c 300 "$OUT" | tr '\n' '|')"
fi

# Every catchable signal ignored by the caller (sbx-run sends them as ignored_signals).
MARK=77${SBX_RUN_ID}1
t0=$SECONDS
timeout -k 5 "$SBX_HANG" setpriv --reuid="$U" --regid="$U" --init-groups bash -c \
	'for s in $(seq 1 31) $(seq 34 64); do trap "" $s 2>/dev/null; done; exec "$@"' _ \
	"$SBX_RUN" --daemon --socket "$DM_SOCK" --workspace "$WS" --timeout 2 -- /bin/sh -c "sleep $MARK & sleep ${MARK}2" \
	>"$OUT" 2>"$ERR" </dev/null
RC=$?
took=$((SECONDS - t0))
if [[ $RC == 124 ]] && ((took < 15)) && wait_until 5 no_procs_matching "$MARK"; then
	t_ok "every signal ignored: still killed at --timeout 2 (${took}s), nothing left"
else
	t_fail "every signal ignored: still killed at --timeout 2" "rc=$RC took=${took}s left: $(describe_procs "$MARK")"
fi
