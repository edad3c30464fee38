#!/bin/bash
# The debug profile: ptrace, process_vm_readv and process_vm_writev allowed, so
# AddressSanitizer's leak checker, strace and gdb work; under the default profile
# they are denied as before.  ptrace reaches nothing outside the jail: PID 1
# (sbx-init) cannot be attached to, nor a host process (no PID for it in the
# jail's PID namespace), asserted from the host as well.  A profile with
# memory_deny_write_execute (strict) cannot allow ptrace.
. "$(dirname "$0")/../lib.sh"
t_init

# ---- the filter: allowed under debug, denied under workspace
jail --profile debug -- syscalls
if ran_ok "debug: the probe runs"; then
	for s in ptrace_attach process_vm_readv; do
		expect_kv_not "debug: $s not refused by the filter" "$s" EPERM
	done
fi
jail -- syscalls
if ran_ok "workspace: the probe runs"; then
	expect_kv "workspace: ptrace_attach still refused" ptrace_attach EPERM
fi

# ---- PID 1 (sbx-init): not dumpable, outside the command's Landlock domain
jail --profile debug -- ptrace-attach 1
expect_kv "debug: PID 1 (sbx-init) cannot be attached to" result EPERM

# ---- a host process: the jail has no PID for it
sleep 60 &
victim=$!
t_defer_kill "$victim"
jail --profile debug -- ptrace-attach "$victim"
expect_kv_in "debug: a host PID names nothing in the jail" result ESRCH EPERM
host_check "debug: the host process is not traced and still alive" \
	"TracerPid: $(awk '/^TracerPid/ { print $2 }' "/proc/$victim/status" 2>&1)" \
	test "$(awk '/^TracerPid/ { print $2 }' "/proc/$victim/status" 2>/dev/null)" = 0
kill "$victim" 2>/dev/null

# ---- strict (memory_deny_write_execute) with ptrace is refused
printf 'extends: strict\ndescription: x\nseccomp:\n  allow: [ptrace]\n' >"$T/strict-ptrace.yaml"
sbx --profile "$T/strict-ptrace.yaml" --workspace "$WS" -- true
expect_rc "strict + seccomp.allow: [ptrace] refused" 125
t_check "... saying why" "$(run_info)" grep -q "memory_deny_write_execute" "$ERR"

# ---- AddressSanitizer's leak checker
cat >"$T/leak.c" <<'C'
#include <stdio.h>
#include <stdlib.h>
int main(void)
{
	char *volatile p = malloc(4242);
	p[0] = 1;
	p = NULL;
	puts("leaked");
	return 0;
}
C
if gcc -g -O0 -fsanitize=address -o "$WS/leak" "$T/leak.c" 2>"$T/cc.err"; then
	sbx --profile debug --workspace "$WS" -- "$WS/leak"
	t_check "debug: an ASan binary's leak is reported (exit non-zero, LeakSanitizer)" "$(run_info)" \
		test "$RC" != 0 -a "$(grep -c 'ERROR: LeakSanitizer: detected memory leaks' "$ERR")" = 1
	sbx --workspace "$WS" -- "$WS/leak"
	t_check "workspace: LeakSanitizer cannot run (ptrace denied, as documented)" "$(run_info)" \
		grep -q 'LeakSanitizer has encountered a fatal error' "$ERR"
else
	t_skip "ASan leak check" "gcc -fsanitize=address failed: $(head -c 200 "$T/cc.err")"
fi

# ---- strace
if command -v strace >/dev/null; then
	sbx --profile debug --workspace "$WS" -- strace -f -o /dev/null true
	expect_rc "debug: strace -f true works" 0
	sbx --workspace "$WS" -- strace -f -o /dev/null true
	t_check "workspace: strace fails (ptrace denied)" "$(run_info)" test "$RC" != 0
else
	t_skip "strace" "strace is not installed (make deps)"
fi

# ---- gdb: runs a program to its crash and prints the backtrace (it warns that it
# cannot disable ASLR and that /proc/PID/mem is read-only, and uses ptrace instead)
if command -v gdb >/dev/null; then
	sbx --profile debug --workspace "$WS" -- gdb -nx -batch -ex run -ex bt --args /bin/sh -c 'kill -SEGV $$'
	t_check "debug: gdb runs a program to its SIGSEGV" "$(run_info); stdout: $(head -c 300 "$OUT" | tr '\n' '|')" \
		grep -q 'received signal SIGSEGV' "$OUT"
else
	t_skip "gdb" "gdb is not installed (make deps)"
fi

# ---- unprivileged (a user namespace): PID 1 still out of reach
t_ws_for_nobody
SBX_AS=$NOBODY jail --profile debug -- ptrace-attach 1
expect_kv "unprivileged: debug: PID 1 cannot be attached to" result EPERM
