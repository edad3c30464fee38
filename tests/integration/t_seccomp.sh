#!/bin/bash
# Every dangerous syscall the contract names is denied with EPERM (unsafe
# socket families with EAFNOSUPPORT), none kills the caller, and the safe
# families still work. The probe picks arguments so that, without the
# filter, these calls fail with another errno or succeed: EPERM here means
# the filter (or the missing capabilities) said no.
. "$(dirname "$0")/../lib.sh"
t_init

eperm=(
	mount umount2 pivot_root open_tree fsopen fsmount fspick move_mount mount_setattr
	unshare_newns unshare_newuts unshare_newipc unshare_newnet unshare_newpid
	unshare_newcgroup unshare_newtime unshare_newuser setns clone_newuser
	bpf perf_event_open keyctl add_key request_key
	kexec_load kexec_file_load init_module finit_module
	ptrace_traceme ptrace_attach process_vm_readv process_vm_writev
	open_by_handle_at userfaultfd io_uring_setup
	personality_addr_no_randomize personality_read_implies_exec
	ioctl_tiocsti ioctl_tiocsti_hibits ioctl_tioclinux
	chmod_suid fchmod_suid fchmodat_sgid
	sethostname setgroups0 chroot reboot swapon
	sysfs ustat uselib adjtimex_read personality_bsd name_to_handle_at modify_ldt
)
eafnosupport=(
	socket_packet socket_vsock socket_key socket_alg socket_bluetooth socket_tipc
	socket_rds socket_xdp socket_can socket_appletalk socket_x25 socket_llc
)
# Denied, errno not fixed by the contract: netlink other than route, the
# other syscall ABIs, and calls refused by missing capabilities or Landlock
# (mknod of a device: EPERM or EACCES) rather than by the filter.
not_ok=(socket_netlink_audit socket_netlink_kobject_uevent socket_netlink_sock_diag
	int80_unshare_newuser x32_unshare_newuser iopl delete_module mknod_chr)
allowed=(socket_netlink_route socket_unix socket_inet socket_inet6)

check_syscalls() {
	local p=$1 s
	if ! ran_ok "$p: syscalls probe runs"; then
		return
	fi
	expect_kv "$p: the caller survives every denial" alive 1
	for s in "${eperm[@]}"; do
		expect_kv "$p: $s denied with EPERM" "$s" EPERM
	done
	for s in "${eafnosupport[@]}"; do
		expect_kv "$p: $s denied with EAFNOSUPPORT" "$s" EAFNOSUPPORT
	done
	for s in "${not_ok[@]}"; do
		expect_kv_not "$p: $s denied" "$s" ok
	done
	for s in "${allowed[@]}"; do
		expect_kv "$p: $s still allowed" "$s" ok
	done
	# clone3 hides its flags from seccomp: it must be refused outright.
	expect_kv_in "$p: clone3(CLONE_NEWUSER) denied" clone3_newuser EPERM ENOSYS
	expect_kv_in "$p: fchmodat2(04755) denied" fchmodat2_suid EPERM ENOSYS
	expect_kv_in "$p: unknown syscall 1000 fails cleanly" syscall_1000 ENOSYS EPERM
}

jail -- syscalls
check_syscalls root

# The jail is still usable afterwards: a second command in the same sandbox.
sbx --workspace "$WS" -- sh -c "'$WS/probe' syscalls >/dev/null; exec '$WS/probe' status"
if ran_ok "status after syscalls in the same jail"; then
	expect_kv "still no capabilities after the attempts" CapEff 0000000000000000
	expect_kv "still NoNewPrivs" NoNewPrivs 1
fi

# A process started inside keeps the filter: it is inherited over fork+exec.
sbx --workspace "$WS" -- sh -c "exec '$WS/probe' status"
expect_kv "seccomp inherited through sh" Seccomp 2
exit 0
