#!/bin/bash
# Host processes are out of reach: a host sleeper survives the jail's
# kill(pid, SIGKILL) and kill(-1, SIGKILL), and /proc inside lists nothing
# of the host.
. "$(dirname "$0")/../lib.sh"
t_init

sleep 300 </dev/null >/dev/null 2>&1 &
victim=$!
t_defer_kill "$victim"
wait_until 2 pid_alive "$victim"

jail -- kill "$victim" 9
expect_kv_not "kill(host pid, SIGKILL) fails inside" result ok
host_check "host sleeper alive after kill(pid)" "pid $victim is gone" pid_alive "$victim"

jail -- kill "$victim" 0
expect_kv "host pid does not exist inside" result ESRCH

# kill(-1) signals everything the caller may signal: only the jail's own.
jail -- kill -1 9 "$(host_ns pid)"
expect_kv_in "kill(-1, SIGKILL) inside reaches only the jail" result ok ESRCH
host_check "host sleeper alive after kill(-1, SIGKILL)" "pid $victim is gone" pid_alive "$victim"

jail -- status
expect_kv "/proc shows only the jail's two processes" procs "1,2"

# Init cannot be signalled to death from inside either: the kernel drops
# SIGKILL to a namespace's init from inside, or Landlock's signal scope
# refuses it (EPERM); the command still finishes normally.
jail -- kill 1 9 "$(host_ns pid)"
expect_kv_in "kill(1, SIGKILL) from inside: delivered and ignored, or refused" result ok EPERM
expect_rc "kill(1, SIGKILL) from inside: init survives, command exits normally" 0
exit 0
