#!/bin/bash
# Who the command is inside: no capabilities, no_new_privs, seccomp, new
# namespaces, only fds 0-2, a built-from-nothing environment (also for the
# jail's PID 1), hostname, session, PID 1 + itself only, lo only, no host IPC.
. "$(dirname "$0")/../lib.sh"
t_init

HOST_NAME=$(cat /proc/sys/kernel/hostname)
SECRET="sbx-secret-$RANDOM$RANDOM"
export SBX_TEST_SECRET=$SECRET
export AWS_SECRET_ACCESS_KEY=$SECRET
export SBX_PASSME="passed-$RANDOM"
export TERM=xterm LANG=C.UTF-8

# Descriptors the caller holds that are not close-on-exec: none may reach the jail.
exec 7</etc/passwd 8>>"$T/fd8" 9<"$T"

jail -- status
if ran_ok "status runs"; then
	for k in CapInh CapPrm CapEff CapBnd CapAmb; do
		expect_kv "$k is zero" "$k" 0000000000000000
	done
	expect_kv "NoNewPrivs is 1" NoNewPrivs 1
	expect_kv "Seccomp is 2 (filter)" Seccomp 2
	# Root's command is nobody in a user namespace of its own (t_rootid.sh).
	expect_kv "uid 65534 in root mode" uid 65534
	expect_kv "euid 65534 in root mode" euid 65534
	expect_kv "no supplementary groups" groups ""
	for ns in pid net mnt uts ipc cgroup user; do
		host=$(host_ns "$ns")
		got=$(kv "ns.$ns")
		if [[ -n $got && $got != "$host" && $got =~ ^[0-9]+$ ]]; then
			t_ok "$ns namespace is new"
		else
			t_fail "$ns namespace is new" "inside ns.$ns=$got, host $host"
		fi
	done
	expect_kv "only fds 0,1,2" fds "0,1,2"
	expect_kv "env is only PATH HOME TERM LANG and the no-network proxy variables" env_names "HOME,HTTPS_PROXY,HTTP_PROXY,LANG,NO_PROXY,PATH,TERM,http_proxy,https_proxy,no_proxy"
	expect_kv "HOME is /tmp" env.HOME /tmp
	expect_kv "TERM passed" env.TERM xterm
	expect_kv "LANG passed" env.LANG C.UTF-8
	if grep -qF "$SECRET" "$OUT"; then
		t_fail "caller secret not in env" "$(grep -F "$SECRET" "$OUT" | head -3 | tr '\n' '|')"
	else
		t_ok "caller secret not in env"
	fi
	expect_kv "hostname is sbx" hostname sbx
	expect_kv "command is PID 2" pid 2
	expect_kv "parent is the jail's PID 1" ppid 1
	sid=$(kv sid)
	pid=$(kv pid)
	if [[ -n $sid && $sid == "$pid" ]]; then t_ok "setsid: own session"; else t_fail "setsid: own session" "sid=$sid pid=$pid"; fi
	expect_kv "no host process visible in /proc" procs "1,2"
	expect_kv "cwd is the workspace" cwd "$WS"
	expect_kv "only lo" netifs lo
	expect_kv "lo is up" if.lo up
fi
exec 7<&- 8>&- 9<&-

# --env NAME=VALUE and --env NAME (the caller's value); still nothing else.
jail --env FOO=bar --env SBX_PASSME -- status
if ran_ok "status with --env runs"; then
	expect_kv "--env adds exactly its names" env_names "FOO,HOME,HTTPS_PROXY,HTTP_PROXY,LANG,NO_PROXY,PATH,SBX_PASSME,TERM,http_proxy,https_proxy,no_proxy"
	expect_kv "--env NAME=VALUE" env.FOO bar
	expect_kv "--env NAME passes the caller's value" env.SBX_PASSME "$SBX_PASSME"
	t_check "secret still absent with --env" "found in output" eval '! grep -qF "$SECRET" "$OUT"'
fi

# The jail's own PID 1 must not carry the caller's environment either.
jail -- environ1
if ran_ok "environ1 runs"; then
	if grep -qF "$SECRET" "$OUT"; then
		t_fail "secret not in /proc/1/environ" "$(grep -F "$SECRET" "$OUT" | head -3 | tr '\n' '|')"
	else
		t_ok "secret not in /proc/1/environ"
	fi
	expect_kv_not "/proc/1/mem not writable" mem ok
fi

# An --env VALUE is on sbx-run's own command line: PID 1 (forked from it)
# must not show it in /proc/1/cmdline or /proc/1/environ.
ENV_SECRET="sbx-envarg-$RANDOM$RANDOM"
jail --env "SBX_ARG=$ENV_SECRET" -- environ1
if ran_ok "environ1 with --env runs"; then
	if grep -qF "$ENV_SECRET" "$OUT"; then
		t_fail "--env value not visible through PID 1" "$(grep -F "$ENV_SECRET" "$OUT" | head -3 | tr '\n' '|')"
	else
		t_ok "--env value not visible through PID 1"
	fi
fi

jail --hostname probe-host -- status
expect_kv "--hostname sets it" hostname probe-host
host_check "host hostname unchanged" "host is now $(cat /proc/sys/kernel/hostname)" test "$HOST_NAME" = "$(cat /proc/sys/kernel/hostname)"

# A host SysV shared memory segment exists; the jail's IPC namespace has none.
shmid=$(ipcmk -M 4096 2>/dev/null | awk '{print $NF}')
if [[ -n $shmid ]]; then
	t_defer "ipcrm -m $shmid"
	"$PROBE" sysvipc >"$T/host-ipc"
	if [[ $(kv shm "$T/host-ipc") -ge 1 ]]; then
		jail -- sysvipc
		expect_kv "host SysV shm invisible" shm 0
		expect_kv "host SysV msg invisible" msg 0
		expect_kv "host SysV sem invisible" sem 0
	else
		t_skip "host SysV shm invisible" "host probe does not see the segment it created"
	fi
else
	t_skip "host SysV shm invisible" "ipcmk failed"
fi
exit 0
