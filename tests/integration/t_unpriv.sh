#!/bin/bash
# The unprivileged path: the same core checks with sbx-run started as nobody
# (setpriv --reuid=65534 --regid=65534 --clear-groups), which must go through
# a user namespace with the caller mapped to itself.
. "$(dirname "$0")/../lib.sh"
t_init

t_ws_for_nobody
export SBX_AS=$NOBODY
SECRET="sbx-secret-$RANDOM$RANDOM"
export SBX_TEST_SECRET=$SECRET TERM=xterm LANG=C.UTF-8
tag="sbx-$SBX_RUN_ID-$$-$RANDOM"

if ! setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups test -x "$SBX_RUN"; then
	t_skip "unprivileged path" "nobody cannot execute $SBX_RUN (a parent directory is not searchable)"
	exit 0
fi

# --dry-run as nobody: --memory holds only where nobody may make a cgroup (its
# own cgroup delegated to it), which the host side checks here itself.
nobody_cgroup_ok() {
	setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups bash -c '
	m=; for d in /sys/fs/cgroup /sys/fs/cgroup/unified; do
		[[ $(stat -f -c %T $d) == cgroup2fs ]] && grep -qw memory $d/cgroup.controllers &&
			grep -qw pids $d/cgroup.controllers && { m=$d; break; }
	done
	if [[ -n $m ]]; then
		own=$(sed -n "s/^0:://p" /proc/self/cgroup); [[ -w $m$own && -x $m$own ]]; exit
	fi
	for c in memory pids; do
		[[ $(stat -f -c %T /sys/fs/cgroup/$c 2>/dev/null) == cgroupfs ]] || exit 1
		own=$(awk -F: -v c=$c "{n=split(\$2,a,\",\"); for(i=1;i<=n;i++) if(a[i]==c) print \$3}" /proc/self/cgroup)
		[[ $own == / ]] && own=
		[[ -w /sys/fs/cgroup/$c$own && -x /sys/fs/cgroup/$c$own ]] || exit 1
	done'
}
nobody_cgroup_ok && want=True || want=False
jail --memory 256M --dry-run -- status
if [[ $RC == 0 ]] && python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))
sys.exit(0 if p["limits"]["enforced"] == {"memory": sys.argv[2] == "True", "pids": sys.argv[2] == "True"} else 1)' "$OUT" "$want"; then
	t_ok "nobody: --dry-run --memory says enforced=$want, as the host's cgroups allow"
else
	t_fail "nobody: --dry-run --memory says enforced=$want, as the host's cgroups allow" "$(run_info); $(head -c 600 "$OUT")"
fi

exec 7</etc/passwd 8>>"$T/fd8"
jail -- status
exec 7<&- 8>&-
if ! ran_ok "nobody: status runs"; then
	# Nothing below can work; say so once instead of thirty times.
	exit 0
fi
for k in CapInh CapPrm CapEff CapBnd CapAmb; do
	expect_kv "nobody: $k is zero" "$k" 0000000000000000
done
expect_kv "nobody: uid inside is 65534" uid $NOBODY
expect_kv "nobody: euid inside is 65534" euid $NOBODY
expect_kv "nobody: gid inside is 65534" gid $NOBODY
expect_kv "nobody: NoNewPrivs is 1" NoNewPrivs 1
expect_kv "nobody: Seccomp is 2" Seccomp 2
for ns in user pid net mnt uts ipc cgroup; do
	host=$(host_ns "$ns")
	got=$(kv "ns.$ns")
	if [[ -n $got && $got != "$host" && $got =~ ^[0-9]+$ ]]; then
		t_ok "nobody: $ns namespace is new"
	else
		t_fail "nobody: $ns namespace is new" "inside ns.$ns=$got, host $host"
	fi
done
expect_kv "nobody: only fds 0,1,2" fds "0,1,2"
expect_kv "nobody: env is only PATH HOME TERM LANG and the no-network proxy variables" env_names "HOME,HTTPS_PROXY,HTTP_PROXY,LANG,NO_PROXY,PATH,TERM,http_proxy,https_proxy,no_proxy"
t_check "nobody: caller secret not in env" "found in output" eval '! grep -qF "$SECRET" "$OUT"'

expect_kv "nobody: no host process visible" procs "1,2"
expect_kv "nobody: hostname is sbx" hostname sbx

jail -- environ1
if ran_ok "nobody: environ1 runs"; then
	t_check "nobody: secret not in /proc/1/environ" "found: $(grep -F "$SECRET" "$OUT" | head -2)" \
		eval '! grep -qF "$SECRET" "$OUT"'
	expect_kv_not "nobody: /proc/1/mem not writable" mem ok
fi

# ---- host files: one nobody could read on the host, but is not bound
mkdir "$T/outside"
echo "outside" >"$T/outside/secret"
chmod 0644 "$T/outside/secret"
if setpriv --reuid=$NOBODY --regid=$NOBODY --clear-groups cat "$T/outside/secret" >/dev/null 2>&1; then
	jail -- read "$T/outside/secret"
	expect_kv_not "nobody: unbound host file unreadable" result ok
else
	t_fail "nobody: control, host file readable by nobody on the host" "cannot read $T/outside/secret"
fi
jail -- read /etc/shadow
expect_kv_not "nobody: /etc/shadow unreadable" result ok

# ---- writes confined
for d in / /etc /usr /tmp; do
	target=${d%/}/$tag-pwned
	t_defer "rm -f '$target'"
	jail -- write "$target"
	if ((HUNG)) || [[ $RC != 0 ]]; then
		t_fail "nobody: write to $d stays in the jail" "probe did not run: $(run_info)"
	elif [[ -e $target ]]; then
		t_fail "nobody: write to $d stays in the jail" "$target appeared on the host"
	else
		t_ok "nobody: write to $d stays in the jail"
	fi
done
jail -- write "$WS/from-jail"
expect_kv "nobody: workspace write succeeds" result ok
t_check "nobody: workspace file on the host, owned by 65534" \
	"owner: $(stat -c %u "$WS/from-jail" 2>&1)" test "$(stat -c %u "$WS/from-jail" 2>/dev/null)" = $NOBODY

jail -- remount-rw /usr "$(host_ns mnt)"
if ran_ok "nobody: remount-rw runs"; then
	expect_kv_not "nobody: /usr remount refused" remount ok
	expect_kv_not "nobody: /usr mount_setattr refused" mount_setattr ok
	expect_kv_not "nobody: /usr still read-only" write_after ok
fi

jail -- write-sys
if ran_ok "nobody: write-sys runs"; then
	while IFS= read -r line; do
		key=${line%%=*}
		[[ $key == w.* ]] || continue
		expect_kv_not "nobody: ${key#w.} not writable" "$key" ok
	done <"$OUT"
fi

mkdir "$WS/suid"
chown $NOBODY:$NOBODY "$WS/suid"
jail -- suid-create "$WS/suid"
found=$(find "$WS/suid" -type f -perm /6000 -printf '%m %u %p; ' 2>/dev/null)
t_check "nobody: no set-id file reaches the host" "found: $found" test -z "$found"

# ---- a uid 0 inside the user namespace must not become more
jail -- syscalls
if ran_ok "nobody: syscalls runs"; then
	for s in setgroups0 unshare_newuser clone_newuser mount unshare_newns ptrace_attach; do
		expect_kv "nobody: $s denied" "$s" EPERM
	done
	# uid 0 is not even mapped in the user namespace: EINVAL, or EPERM.
	for s in setuid0 setresuid0; do
		expect_kv_in "nobody: $s denied" "$s" EPERM EINVAL
	done
	expect_kv_in "nobody: clone3(CLONE_NEWUSER) denied" clone3_newuser EPERM ENOSYS
fi

# ---- lifecycle
pidfile=$WS/daemon.pid
t_defer_reap "$pidfile"
jail -- daemonize "$pidfile"
if [[ -s $pidfile ]]; then
	if wait_until 2 no_procs_matching "$pidfile"; then
		t_ok "nobody: daemon gone after normal exit"
	else
		t_fail "nobody: daemon gone after normal exit" "$(describe_procs "$pidfile")"
	fi
else
	t_fail "nobody: daemon started" "no pid file; $(run_info)"
fi

# ---- limits: either enforced or refused with a clear error, never ignored
limit_or_refuse() {
	local name=$1 ok_rc=$2
	if ((HUNG)); then
		t_fail "$name" "$(run_info)"
	elif [[ $RC == "$ok_rc" ]]; then
		t_ok "$name (enforced)"
	elif [[ $RC == 125 ]] && [[ $(grep -c '^sbx-run: ' "$ERR") -ge 1 ]]; then
		t_ok "$name (refused: $(grep -m1 '^sbx-run: ' "$ERR" | head -c 120))"
	else
		t_fail "$name" "neither enforced ($ok_rc) nor refused (125): $(run_info); stdout: $(head -c 200 "$OUT" | tr '\n' '|')"
	fi
}
jail --memory 64M -- membomb 512
limit_or_refuse "nobody: --memory 64M" 137

token=$T/forkbomb-token
t_defer_reap "$token"
jail --pids 64 --timeout 20 -- forkbomb 2 "$token"
if [[ $RC == 0 && $(kv result) == ok ]]; then
	forks=$(kv forks)
	if [[ $forks =~ ^[0-9]+$ ]] && ((forks < 64)); then
		t_ok "nobody: --pids 64 (enforced)"
	else
		t_fail "nobody: --pids 64" "ran with forks=$forks: limit ignored"
	fi
else
	limit_or_refuse "nobody: --pids 64" 0
fi
if wait_until 5 no_procs_matching "$token"; then
	t_ok "nobody: no fork bomb child left"
else
	t_fail "nobody: no fork bomb child left" "$(describe_procs "$token" | head -c 200)"
fi
exit 0
