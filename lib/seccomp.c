/* SPDX-License-Identifier: MIT */
/* The default filter: everything the kernel isolates per namespace is allowed, and the
 * syscalls that reach past the namespaces (or widen the kernel's attack surface for
 * no tool-call's need) fail with EPERM: a clean error a program can report, never a
 * kill.  At least Docker's default profile: its blocked set, plus io_uring, setuid
 * bits and socket families.  Syscalls newer than this libseccomp (so also unknown to
 * this list) get ENOSYS, as a kernel without them would answer. */
#include "seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>
#include <linux/netlink.h>
#include <stddef.h>

#include <stdbool.h>
#include <stdint.h>

#include "cleanup.h"
#include "parse.h"

static inline void seccomp_releasep(scmp_filter_ctx *c)
{
        if (*c)
                seccomp_release(*c);
}
#define _cleanup_seccomp_ _cleanup_(seccomp_releasep)

/* Denied outright with EPERM.  Grouped by why. */
static const char *const denied[] = {
        /* mount family: the jail's file system view is fixed (pivot_root'ed, ro binds) */
        "mount", "umount", "umount2", "pivot_root", "chroot", "fsopen", "fsconfig", "fsmount",
        "fspick", "open_tree", "move_mount", "mount_setattr",
        /* namespaces: no nested user namespace (CVE-2022-0185 and kin), no setns */
        "unshare", "setns",
        /* kernel code and state: modules, kexec, reboot, swap, time, accounting */
        "init_module", "finit_module", "delete_module", "create_module", "kexec_load",
        "kexec_file_load", "reboot", "swapon", "swapoff", "acct", "settimeofday",
        "clock_settime", "clock_adjtime", "adjtimex", "stime", "syslog", "quotactl",
        "quotactl_fd", "nfsservctl", "lookup_dcookie", "uselib", "ustat", "sysfs", "_sysctl",
        "vhangup", "iopl", "ioperm", "vm86", "vm86old", "sethostname", "setdomainname",
        /* attack surface: eBPF, perf, keyrings, userfaultfd (CVE-2016-5195-style races),
         * io_uring (bypasses this filter's view of syscalls) */
        "bpf", "perf_event_open", "keyctl", "add_key", "request_key", "userfaultfd",
        "io_uring_setup", "io_uring_enter", "io_uring_register",
        /* other processes' memory and handles: ptrace (a profile may allow it later) */
        "ptrace", "process_vm_readv", "process_vm_writev", "kcmp", "pidfd_getfd",
        /* file handles bypass path checks (CVE-2014-3519, "shocker") */
        "open_by_handle_at", "name_to_handle_at",
        /* NUMA placement: host-wide effects, Docker gates these too */
        "mbind", "set_mempolicy", "migrate_pages", "move_pages", "get_mempolicy",
        "set_mempolicy_home_node", "fanotify_init", "lsm_set_self_attr",
};

/* Whose mode argument may not carry the setuid/setgid bits (a file the host might
 * later run with privilege).  Index of the mode argument. */
static const struct {
        const char *name;
        unsigned arg;
} mode_calls[] = {
        { "chmod", 1 }, { "fchmod", 1 }, { "fchmodat", 2 }, { "fchmodat2", 2 },
        { "open", 2 },  { "openat", 3 }, { "creat", 1 },    { "mknod", 1 },
        { "mknodat", 2 },
};

/* personality(2) bits that weaken the process (ASLR off, executable data). */
static const unsigned long personality_bits[] = {
        0x0040000 /* ADDR_NO_RANDOMIZE */, 0x0080000 /* FDPIC_FUNCPTRS */,
        0x0100000 /* MMAP_PAGE_ZERO */,    0x0200000 /* ADDR_COMPAT_LAYOUT */,
        0x0400000 /* READ_IMPLIES_EXEC */, 0x0800000 /* ADDR_LIMIT_32BIT */,
        0x1000000 /* SHORT_INODE */,       0x2000000 /* WHOLE_SECONDS */,
        0x4000000 /* STICKY_TIMEOUTS */,   0x8000000 /* ADDR_LIMIT_3GB */,
};

static const unsigned long ns_flags[] = {
        CLONE_NEWNS, CLONE_NEWUTS, CLONE_NEWIPC, CLONE_NEWUSER, CLONE_NEWPID, CLONE_NEWNET,
        CLONE_NEWCGROUP,
};

/* The socket families a network namespace isolates, and that tools use. */
static const int allowed_families[] = { AF_UNIX, AF_INET, AF_INET6, AF_NETLINK };

/* Highest syscall number we scan for ones this libseccomp does not know. */
#define SYSCALL_SCAN_MAX 1024

static bool listed(char *const *names, size_t n, const char *name);

/* Adds one rule, unless the profile (@x) denies @name whole: that rule stands alone. */
static int add(const struct sbx_seccomp_extra *x, scmp_filter_ctx c, uint32_t action, int nr, unsigned n,
               const struct scmp_arg_cmp *cmp, const char *name, struct sbx_error *e)
{
        int r;

        if (x && listed(x->deny, x->n_deny, name))
                return 0;
        r = seccomp_rule_add_array(c, action, nr, n, cmp);

        if (r < 0)
                return sbx_error_set(e, "seccomp", r, "seccomp_rule_add", "", "cannot add a rule for '%s'", name);
        return 0;
}

static bool listed(char *const *names, size_t n, const char *name)
{
        for (size_t i = 0; i < n; i++)
                if (strcmp(names[i], name) == 0)
                        return true;
        return false;
}

static int add_denied(scmp_filter_ctx c, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        for (size_t i = 0; i < ELEMENTSOF(denied); i++) {
                int nr = seccomp_syscall_resolve_name(denied[i]);
                int r;

                /* Names this architecture lacks (vm86 on x86-64) are simply absent. */
                if (nr == __NR_SCMP_ERROR || nr < 0)
                        continue;
                if (x && listed(x->allow, x->n_allow, denied[i]))
                        continue;
                r = add(x, c, SCMP_ACT_ERRNO(EPERM), nr, 0, NULL, denied[i], e);
                if (r < 0)
                        return r;
        }
        return 0;
}

/* A profile's own denials: EPERM, or the kill it asked for.  A name that already has
 * argument rules (socket, clone…) is denied whole, which overrides them. */
static int add_extra(scmp_filter_ctx c, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        for (size_t i = 0; x && i < x->n_deny; i++) {
                int nr = seccomp_syscall_resolve_name(x->deny[i]);
                int r;

                if (nr == __NR_SCMP_ERROR || nr < 0)
                        return sbx_error_set(e, "seccomp", EINVAL, "", "", "unknown system call '%s'", x->deny[i]);
                r = add(NULL, c, x->kill ? SCMP_ACT_KILL_PROCESS : SCMP_ACT_ERRNO(EPERM), nr, 0, NULL, x->deny[i], e);
                if (r < 0)
                        return r;
        }
        return 0;
}

bool sbx_seccomp_denied_by_default(const char *name)
{
        for (size_t i = 0; i < ELEMENTSOF(denied); i++)
                if (strcmp(denied[i], name) == 0)
                        return true;
        return false;
}

bool sbx_seccomp_known(const char *name, char *near, size_t size)
{
        unsigned best = 3;
        int nr = seccomp_syscall_resolve_name(name);

        near[0] = '\0';
        if (nr != __NR_SCMP_ERROR && nr >= 0)
                return true;
        for (int i = 0; i < SYSCALL_SCAN_MAX; i++) {
                char *known = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, i);
                unsigned d;

                if (!known)
                        continue;
                d = sbx_edit_distance(name, known);
                if (d < best) {
                        best = d;
                        snprintf(near, size, "%s", known);
                }
                free(known);
        }
        return false;
}

static int add_mode_rules(scmp_filter_ctx c, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        for (size_t i = 0; i < ELEMENTSOF(mode_calls); i++) {
                int nr = seccomp_syscall_resolve_name(mode_calls[i].name);
                if (nr == __NR_SCMP_ERROR || nr < 0)
                        continue;
                for (unsigned long bit = S_ISGID; bit <= S_ISUID; bit <<= 1) {
                        struct scmp_arg_cmp cmp = SCMP_CMP(mode_calls[i].arg, SCMP_CMP_MASKED_EQ, bit, bit);
                        int r = add(x, c, SCMP_ACT_ERRNO(EPERM), nr, 1, &cmp, mode_calls[i].name, e);
                        if (r < 0)
                                return r;
                }
        }
        return 0;
}

static int add_arg_rules(scmp_filter_ctx c, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        struct scmp_arg_cmp cmp[2];
        int r;

        /* No namespace from clone() either; clone3 hides its flags in memory the filter
         * cannot read, so it is "not implemented" and libc falls back to clone(). */
        for (size_t i = 0; i < ELEMENTSOF(ns_flags); i++) {
                cmp[0] = SCMP_CMP(0, SCMP_CMP_MASKED_EQ, ns_flags[i], ns_flags[i]);
                if ((r = add(x, c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1, cmp, "clone", e)) < 0)
                        return r;
        }
        if ((r = add(x, c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0, NULL, "clone3", e)) < 0)
                return r;
        /* openat2 carries its mode in a struct too: ENOSYS makes callers use openat. */
        if ((r = add(x, c, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(openat2), 0, NULL, "openat2", e)) < 0)
                return r;

        /* Pushing input into the terminal (TIOCSTI) or driving the console (TIOCLINUX):
         * the classic escape from a sandbox that shares the caller's tty. */
        static const unsigned long ioctls[] = { TIOCSTI, TIOCLINUX };
        for (size_t i = 0; i < ELEMENTSOF(ioctls); i++) {
                cmp[0] = SCMP_CMP(1, SCMP_CMP_MASKED_EQ, 0xffffffffu, ioctls[i]);
                if ((r = add(x, c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1, cmp, "ioctl", e)) < 0)
                        return r;
        }

        for (size_t i = 0; i < ELEMENTSOF(personality_bits); i++) {
                cmp[0] = SCMP_CMP(0, SCMP_CMP_MASKED_EQ, personality_bits[i], personality_bits[i]);
                if ((r = add(x, c, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(personality), 1, cmp, "personality", e)) < 0)
                        return r;
        }

        /* Socket families: every family but the allowed ones, and any number past
         * those the kernel knows today, answer "not supported" (AF_VSOCK, AF_PACKET… are
         * not isolated by, or reach past, the network namespace). */
        for (int fam = 0; fam < AF_MAX; fam++) {
                bool ok = false;
                for (size_t j = 0; j < ELEMENTSOF(allowed_families); j++)
                        ok |= allowed_families[j] == fam;
                if (ok)
                        continue;
                cmp[0] = SCMP_CMP(0, SCMP_CMP_EQ, (scmp_datum_t)fam, 0);
                if ((r = add(x, c, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, cmp, "socket", e)) < 0)
                        return r;
        }
        cmp[0] = SCMP_CMP(0, SCMP_CMP_GE, AF_MAX, 0);
        if ((r = add(x, c, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 1, cmp, "socket", e)) < 0)
                return r;
        /* Netlink: only NETLINK_ROUTE (ip, getaddrinfo); audit and uevents are host-wide. */
        cmp[0] = SCMP_CMP(0, SCMP_CMP_EQ, AF_NETLINK, 0);
        cmp[1] = SCMP_CMP(2, SCMP_CMP_NE, NETLINK_ROUTE, 0);
        return add(x, c, SCMP_ACT_ERRNO(EAFNOSUPPORT), SCMP_SYS(socket), 2, cmp, "socket", e);
}

/* The first syscall number past every one this libseccomp can name: anything from
 * there on is newer than this filter's review. */
static unsigned first_unknown_syscall(void)
{
        for (int nr = SYSCALL_SCAN_MAX; nr > 0; nr--) {
                char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, nr - 1);
                if (name) {
                        free(name);
                        return (unsigned)nr;
                }
        }
        return SYSCALL_SCAN_MAX;
}

/* A prologue before libseccomp's program: native-ABI syscall numbers past the known
 * ones answer ENOSYS, as an older kernel would (open_tree_attr, listmount…), without
 * one rule per number.  x32 numbers (bit 30) fall through to libseccomp's bad-arch
 * check. */
static int add_prologue(struct sbx_seccomp *s, unsigned first_unknown, struct sbx_error *e)
{
        const struct sock_filter prologue[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, seccomp_arch_native(), 0, 4),
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
                BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 2, 0),
                BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, first_unknown, 0, 1),
                BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA)),
        };
        size_t n = ELEMENTSOF(prologue);
        struct sock_filter *insns;

        if (s->len + n > BPF_MAXINSNS)
                return sbx_error_set(e, "seccomp", E2BIG, "", "", "filter too long");
        insns = malloc((s->len + n) * sizeof(*insns));
        if (!insns)
                return sbx_error_set(e, "seccomp", ENOMEM, "", "", "out of memory");
        memcpy(insns, prologue, sizeof(prologue));
        memcpy(insns + n, s->insns, s->len * sizeof(*insns));
        free(s->insns);
        s->insns = insns;
        s->len = (unsigned short)(s->len + n);
        return 0;
}

static int export_bpf(scmp_filter_ctx c, struct sbx_seccomp *s, struct sbx_error *e)
{
        _cleanup_close_ int fd = memfd_create("sbx-seccomp", MFD_CLOEXEC);
        struct stat st;
        ssize_t n;
        int r;

        if (fd < 0)
                return sbx_error_set(e, "seccomp", errno, "memfd_create", "", "cannot hold the filter");
        r = seccomp_export_bpf(c, fd);
        if (r < 0)
                return sbx_error_set(e, "seccomp", r, "seccomp_export_bpf", "", "cannot compile the filter");
        if (fstat(fd, &st) < 0)
                return sbx_error_set(e, "seccomp", errno, "fstat", "", "cannot size the filter");
        if (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter) != 0 ||
            st.st_size / sizeof(struct sock_filter) > BPF_MAXINSNS)
                return sbx_error_set(e, "seccomp", E2BIG, "", "", "compiled filter has a bad size (%lld bytes)",
                                     (long long)st.st_size);
        s->insns = malloc((size_t)st.st_size);
        if (!s->insns)
                return sbx_error_set(e, "seccomp", ENOMEM, "", "", "out of memory");
        n = pread(fd, s->insns, (size_t)st.st_size, 0);
        if (n != st.st_size)
                return sbx_error_set(e, "seccomp", n < 0 ? errno : EIO, "pread", "", "cannot read the compiled filter");
        s->len = (unsigned short)(st.st_size / sizeof(struct sock_filter));
        return 0;
}

int sbx_seccomp_prepare(struct sbx_seccomp *s, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        _cleanup_seccomp_ scmp_filter_ctx c = seccomp_init(SCMP_ACT_ALLOW);
        int r;

        *s = (struct sbx_seccomp){ 0 };
        if (!c)
                return sbx_error_set(e, "seccomp", ENOMEM, "seccomp_init", "", "cannot start a filter");
        /* Only the native ABI: x32 and i386 syscalls (int 0x80) would skip every
         * rule written for x86-64 numbers.  Wrong arch: EPERM, not a kill. */
        r = seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(EPERM));
        if (r < 0)
                return sbx_error_set(e, "seccomp", r, "seccomp_attr_set", "", "cannot set the bad-arch action");
        /* The filter runs on every syscall of the jail: a binary tree, not a list. */
        (void)seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2);
        if ((r = add_extra(c, x, e)) < 0 || (r = add_denied(c, x, e)) < 0 || (r = add_mode_rules(c, x, e)) < 0 ||
            (r = add_arg_rules(c, x, e)) < 0 ||
            (r = export_bpf(c, s, e)) < 0)
                return r;
        return add_prologue(s, first_unknown_syscall(), e);
}

