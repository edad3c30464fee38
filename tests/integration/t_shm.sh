#!/bin/bash
# /dev/shm's size: 64M by default, set like /tmp's by a tmpfs at /dev/shm in a
# profile (filesystem.tmpfs) or on the command line (--tmpfs /dev/shm:SIZE).  A
# 100 MB POSIX shared memory segment (Python's SharedMemory, which touches the
# pages of a file in /dev/shm) runs with the size raised and fails without; the
# size is asserted from the host in the jail's own mount namespace.
. "$(dirname "$0")/../lib.sh"
t_init

if ! command -v python3 >/dev/null; then
	t_skip "shared memory" "python3 is not installed"
	exit 0
fi
cat >"$WS/shm.py" <<'PY'
from multiprocessing import shared_memory
m = shared_memory.SharedMemory(create=True, size=100 << 20)
try:
    m.buf[:] = b"x" * (100 << 20)
    print("shm=ok")
finally:
    m.close()
    m.unlink()
PY
chmod 0644 "$WS/shm.py"

# ---- the default: 64M, a 100 MB segment dies (SIGBUS) and sbx-run says why
sbx --workspace "$WS" -- python3 "$WS/shm.py"
t_check "default /dev/shm: a 100 MB segment fails" "$(run_info)" test "$RC" != 0 -a "$(grep -c '^shm=ok' "$OUT")" = 0
t_check "... and sbx-run names SIGBUS and /dev/shm's size" "$(run_info)" \
	grep -q 'SIGBUS.*/dev/shm.*--tmpfs /dev/shm:SIZE' "$ERR"

# ---- raised on the command line
sbx --workspace "$WS" --tmpfs /dev/shm:256M -- python3 "$WS/shm.py"
if ((!HUNG)) && [[ $RC == 0 ]] && grep -q '^shm=ok' "$OUT"; then
	t_ok "--tmpfs /dev/shm:256M: a 100 MB segment works"
else
	t_fail "--tmpfs /dev/shm:256M: a 100 MB segment works" "$(run_info)"
fi
jail --tmpfs /dev/shm:1M -- write /dev/shm/big 2097152
expect_kv "--tmpfs /dev/shm:1M: the size holds (2 MiB into 1M)" result ENOSPC

# ---- raised by a profile
cat >"$T/shm.yaml" <<'YAML'
extends: workspace
description: "a larger /dev/shm"
filesystem:
  tmpfs:
    - /dev/shm:300M
YAML
sbx --profile "$T/shm.yaml" --workspace "$WS" -- python3 "$WS/shm.py"
if ((!HUNG)) && [[ $RC == 0 ]] && grep -q '^shm=ok' "$OUT"; then
	t_ok "a profile's /dev/shm:300M: a 100 MB segment works"
else
	t_fail "a profile's /dev/shm:300M: a 100 MB segment works" "$(run_info)"
fi

# ---- the size, from the host: /dev/shm in the jail's own mount namespace
# shm_size_of OPTS...: the size= of /dev/shm (in KiB, as mountinfo shows it) seen
# in /proc/PID/mountinfo of a jailed sleep.
shm_size_of() {
	local tok="29.$RANDOM$RANDOM" pid="" size
	"$SBX_RUN" --workspace "$WS" "$@" -- sleep "$tok" >/dev/null 2>&1 </dev/null &
	local sbx_pid=$!
	wait_until 10 pgrep -x -f "sleep $tok" >/dev/null
	pid=$(pgrep -x -f "sleep $tok" | head -n 1)
	size=$([[ -n $pid ]] && awk '$5 == "/dev/shm" { for (i = 1; i <= NF; i++) if ($i == "-") { print $(i + 3); exit } }' \
		"/proc/$pid/mountinfo" | tr ',' '\n' | sed -n 's/^size=//p')
	kill "$sbx_pid" 2>/dev/null
	[[ -n $pid ]] && kill "$pid" 2>/dev/null
	wait "$sbx_pid" 2>/dev/null
	echo "${size:-none}"
}
s=$(shm_size_of)
t_check "host sees the jail's /dev/shm at 64M by default" "size=$s" test "$s" = 65536k
s=$(shm_size_of --tmpfs /dev/shm:1G)
t_check "host sees the jail's /dev/shm at 1G with --tmpfs /dev/shm:1G" "size=$s" test "$s" = 1048576k
s=$(shm_size_of --profile "$T/shm.yaml")
t_check "host sees the jail's /dev/shm at 300M with the profile's" "size=$s" test "$s" = 307200k
s=$(shm_size_of --profile "$T/shm.yaml" --tmpfs /dev/shm:100M)
t_check "the caller's --tmpfs /dev/shm wins over the profile's" "size=$s" test "$s" = 102400k

# ---- still refused: anything else at or below /dev, a host bind at /dev/shm
for args in "--tmpfs /dev/shm/x:1M" "--tmpfs /dev:1M" "--rw /dev/shm" "--ro /tmp:/dev/shm"; do
	# shellcheck disable=SC2086
	sbx --workspace "$WS" $args -- true
	expect_rc "$args refused" 125
done

# ---- unprivileged (a user namespace): the size holds there too
t_ws_for_nobody
SBX_AS=$NOBODY jail --tmpfs /dev/shm:1M -- write /dev/shm/big 2097152
expect_kv "unprivileged: --tmpfs /dev/shm:1M holds (2 MiB into 1M)" result ENOSPC
