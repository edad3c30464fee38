/* SPDX-License-Identifier: MIT */
/* The default filter, an allowlist: a system call runs only when a table below names
 * it, and anything else fails with EPERM, a clean error a program can report, never a
 * kill.  The list is Docker's default profile for a container without capabilities,
 * less what that profile allows and a tool call has no use for (ptrace, the clock,
 * file handles, modify_ldt...), with argument checks where Docker has none (TIOCSTI,
 * setuid bits, socket families, personas).  tests/unit/test_seccomp.c compares the
 * compiled filter with Docker's profile syscall by syscall.
 *
 * Three layers, in the order the kernel meets them:
 *   1. a hand-written prologue (add_prologue): native system calls newer than this
 *      libseccomp answer ENOSYS, as an older kernel would; then the argument denials
 *      libseccomp cannot put next to an allow of the same call (raw_denials);
 *   2. libseccomp's program: the architecture check (x32 and i386 numbers are a bad
 *      architecture), the allowlist (allowed[]) and the calls allowed or refused by
 *      their arguments (arg_rules[], socket_rules(), wx_rules[]);
 *   3. the default action, EPERM.
 * A call is either in allowed[] or has rules in the tables, never both: libseccomp
 * lets an unconditional rule silently replace the conditional ones of the same call.
 * Conditional rules of one call must not overlap with different actions either (their
 * order in the program is libseccomp's), so each table's rules for a call partition
 * its arguments. */
#include "seccomp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/sched.h>
#include <seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup-seccomp.h"
#include "parse.h"

/* Allowed outright.  Names another architecture has and this one lacks (mmap2,
 * arch_prctl...) are skipped.  Left out on purpose, though Docker allows them: ptrace,
 * process_vm_readv and process_vm_writev (another process's memory; a profile may allow
 * them), adjtimex and clock_adjtime (the clock), name_to_handle_at (file handles,
 * CVE-2014-3519), modify_ldt (16-bit segments, CVE-2015-5157, CVE-2017-17053),
 * socketcall and ipc (32-bit multiplexers that would carry socket() and shmat() past
 * their argument checks), openat2 and clone3 (ENOSYS, see arg_rules[]). */
static const char *const allowed[] = {
        /* processes and threads */
        "fork", "vfork", "execve", "execveat", "exit", "exit_group", "wait4", "waitid", "waitpid", "kill",
        "tkill", "tgkill", "getpid", "getppid", "gettid", "getpgid", "getpgrp", "setpgid", "getsid", "setsid",
        "set_tid_address", "set_robust_list", "get_robust_list", "rseq", "futex", "futex_time64",
        "futex_waitv", "futex_wake", "futex_wait", "futex_requeue", "membarrier", "prctl", "arch_prctl",
        "capget", "capset", "pidfd_open", "pidfd_send_signal", "process_mrelease", "seccomp",
        "landlock_create_ruleset", "landlock_add_rule", "landlock_restrict_self", "restart_syscall",
        "get_thread_area", "set_thread_area", "set_tls", "cacheflush", "breakpoint", "riscv_flush_icache",
        "riscv_hwprobe", "s390_runtime_instr", "s390_pci_mmio_read", "s390_pci_mmio_write",
        /* credentials: without capabilities they can only be given up */
        "getuid", "geteuid", "getgid", "getegid", "getresuid", "getresgid", "getgroups", "setuid", "setgid",
        "setreuid", "setregid", "setresuid", "setresgid", "setgroups", "setfsuid", "setfsgid", "getuid32",
        "geteuid32", "getgid32", "getegid32", "getresuid32", "getresgid32", "getgroups32", "setuid32",
        "setgid32", "setreuid32", "setregid32", "setresuid32", "setresgid32", "setgroups32", "setfsuid32",
        "setfsgid32",
        /* signals */
        "rt_sigaction", "rt_sigprocmask", "rt_sigpending", "rt_sigreturn", "rt_sigsuspend", "rt_sigtimedwait",
        "rt_sigtimedwait_time64", "rt_sigqueueinfo", "rt_tgsigqueueinfo", "sigaltstack", "sigreturn",
        "sigprocmask", "signalfd", "signalfd4", "pause", "alarm", "getitimer", "setitimer",
        /* time, read only */
        "clock_gettime", "clock_gettime64", "clock_getres", "clock_getres_time64", "clock_nanosleep",
        "clock_nanosleep_time64", "gettimeofday", "time", "nanosleep", "times", "timer_create",
        "timer_delete", "timer_getoverrun", "timer_gettime", "timer_gettime64", "timer_settime",
        "timer_settime64", "timerfd_create", "timerfd_gettime", "timerfd_gettime64", "timerfd_settime",
        "timerfd_settime64",
        /* scheduling, limits, the system's description */
        "sched_yield", "sched_getaffinity", "sched_setaffinity", "sched_getattr", "sched_setattr",
        "sched_getparam", "sched_setparam", "sched_getscheduler", "sched_setscheduler",
        "sched_get_priority_max", "sched_get_priority_min", "sched_rr_get_interval",
        "sched_rr_get_interval_time64", "getpriority", "setpriority", "ioprio_get", "ioprio_set",
        "getrlimit", "setrlimit", "prlimit64", "ugetrlimit", "getrusage", "sysinfo", "uname", "getcpu",
        "getrandom",
        /* memory (mmap, mprotect, pkey_mprotect: wx_rules[] when W^X is asked for) */
        "brk", "mmap", "mmap2", "munmap", "mremap", "mprotect", "pkey_mprotect", "madvise", "mincore", "msync",
        "mlock", "mlock2", "mlockall", "munlock", "munlockall", "remap_file_pages", "pkey_alloc", "pkey_free",
        "memfd_create", "memfd_secret", "map_shadow_stack", "mseal", "cachestat",
        /* files (open, openat, creat, chmod, mknod: by their mode, in arg_rules[]) */
        "close", "close_range", "read", "write", "readv", "writev", "pread64", "pwrite64", "preadv", "pwritev",
        "preadv2", "pwritev2", "lseek", "_llseek", "dup", "dup2", "dup3", "fcntl", "fcntl64", "flock", "fsync",
        "fdatasync", "sync", "syncfs", "sync_file_range", "sync_file_range2", "arm_sync_file_range",
        "fallocate", "fadvise64", "fadvise64_64", "arm_fadvise64_64", "readahead", "truncate", "truncate64",
        "ftruncate", "ftruncate64", "copy_file_range", "sendfile", "sendfile64", "splice", "tee", "vmsplice",
        "stat", "stat64", "fstat", "fstat64", "lstat", "lstat64", "newfstatat", "fstatat64", "statx", "statfs",
        "statfs64", "fstatfs", "fstatfs64", "statmount", "listmount", "access", "faccessat", "faccessat2",
        "getcwd", "chdir", "fchdir", "mkdir", "mkdirat", "rmdir", "unlink", "unlinkat", "rename", "renameat",
        "renameat2", "link", "linkat", "symlink", "symlinkat", "readlink", "readlinkat", "chown", "chown32",
        "fchown", "fchown32", "fchownat", "lchown", "lchown32", "umask", "utime", "utimes", "utimensat",
        "utimensat_time64", "futimesat", "getdents", "getdents64", "getxattr", "lgetxattr", "fgetxattr",
        "getxattrat", "setxattr", "lsetxattr", "fsetxattr", "setxattrat", "listxattr", "llistxattr",
        "flistxattr", "listxattrat", "removexattr", "lremovexattr", "fremovexattr", "removexattrat",
        "inotify_init", "inotify_init1", "inotify_add_watch", "inotify_rm_watch", "fanotify_mark",
        /* TIOCSTI and TIOCLINUX are refused before this list is consulted (raw_denials[]) */
        "ioctl",
        /* waiting on fds */
        "poll", "ppoll", "ppoll_time64", "select", "_newselect", "pselect6", "pselect6_time64", "epoll_create",
        "epoll_create1", "epoll_ctl", "epoll_ctl_old", "epoll_wait", "epoll_wait_old", "epoll_pwait",
        "epoll_pwait2", "eventfd", "eventfd2", "pipe", "pipe2",
        /* asynchronous I/O (not io_uring, whose requests this filter never sees) */
        "io_setup", "io_destroy", "io_submit", "io_cancel", "io_getevents", "io_pgetevents",
        "io_pgetevents_time64",
        /* sockets (socket itself: socket_rules()) */
        "bind", "listen", "accept", "accept4", "getsockname", "getpeername",
        "getsockopt", "setsockopt", "send", "sendto", "sendmsg", "sendmmsg", "recv", "recvfrom", "recvmsg",
        "recvmmsg", "recvmmsg_time64", "shutdown",
        /* System V and POSIX IPC: the jail's own IPC namespace (shmat: wx_rules[]) */
        "msgget", "msgsnd", "msgrcv", "msgctl", "semget", "semop", "semtimedop", "semtimedop_time64", "semctl",
        "shmget", "shmat", "shmdt", "shmctl", "mq_open", "mq_unlink", "mq_timedsend", "mq_timedsend_time64",
        "mq_timedreceive", "mq_timedreceive_time64", "mq_notify", "mq_getsetattr",
};

/* A call allowed, or refused with its own errno, by its arguments.  err 0: allowed.
 * An err equal to the default action (EPERM) is no rule at all: libseccomp refuses
 * those, and the default answers the same. */
struct arg_rule {
        const char *name;
        int err;
        unsigned n;
        struct scmp_arg_cmp cmp[2];
};

#define ALLOW 0
#define NOTIFY (-1) /* answered by the connect broker in the jail's PID 1 (lib/broker.h) */
#define ARG(i, cmp_op, a, b) { .arg = (i), .op = (cmp_op), .datum_a = (a), .datum_b = (b) }
#define EQ(i, v) ARG(i, SCMP_CMP_EQ, v, 0)
#define NE(i, v) ARG(i, SCMP_CMP_NE, v, 0)
#define GE(i, v) ARG(i, SCMP_CMP_GE, v, 0)
#define BITS_CLEAR(i, mask) ARG(i, SCMP_CMP_MASKED_EQ, mask, 0)
#define BITS_SET(i, mask) ARG(i, SCMP_CMP_MASKED_EQ, mask, mask)

#define NS_FLAGS                                                                                   \
        (CLONE_NEWNS | CLONE_NEWUTS | CLONE_NEWIPC | CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET | \
         CLONE_NEWCGROUP)
#define SETID_BITS (S_ISUID | S_ISGID)

static const struct arg_rule arg_rules[] = {
        /* No namespace from clone() (CVE-2022-0185 and kin).  clone3 hides its flags in
         * memory the filter cannot read, so it is "not implemented" and libc falls back
         * to clone(); openat2 carries its mode in a struct too: ENOSYS makes callers use
         * openat. */
        { "clone", ALLOW, 1, { BITS_CLEAR(0, NS_FLAGS) } },
        { "clone3", ENOSYS, 0, { { 0 } } },
        { "openat2", ENOSYS, 0, { { 0 } } },
        /* No setuid or setgid file for the host to run later. */
        { "chmod", ALLOW, 1, { BITS_CLEAR(1, SETID_BITS) } },
        { "fchmod", ALLOW, 1, { BITS_CLEAR(1, SETID_BITS) } },
        { "fchmodat", ALLOW, 1, { BITS_CLEAR(2, SETID_BITS) } },
        { "fchmodat2", ALLOW, 1, { BITS_CLEAR(2, SETID_BITS) } },
        { "open", ALLOW, 1, { BITS_CLEAR(2, SETID_BITS) } },
        { "openat", ALLOW, 1, { BITS_CLEAR(3, SETID_BITS) } },
        { "creat", ALLOW, 1, { BITS_CLEAR(1, SETID_BITS) } },
        { "mknod", ALLOW, 1, { BITS_CLEAR(1, SETID_BITS) } },
        { "mknodat", ALLOW, 1, { BITS_CLEAR(2, SETID_BITS) } },
        /* Personas: the query and the harmless ones, as Docker (PER_LINUX, PER_LINUX32,
         * UNAME26 with either); never ADDR_NO_RANDOMIZE, READ_IMPLIES_EXEC... */
        { "personality", ALLOW, 1, { EQ(0, 0x0) } },
        { "personality", ALLOW, 1, { EQ(0, 0x8) } },
        { "personality", ALLOW, 1, { EQ(0, 0x20000) } },
        { "personality", ALLOW, 1, { EQ(0, 0x20008) } },
        { "personality", ALLOW, 1, { EQ(0, 0xffffffff) } },
        /* Netlink: only NETLINK_ROUTE (ip, getaddrinfo); audit and uevents are host-wide.
         * AF_UNIX: unix_rules[] below. */
        { "socket", ALLOW, 1, { EQ(0, AF_INET) } },
        { "socket", ALLOW, 1, { EQ(0, AF_INET6) } },
        { "socket", ALLOW, 2, { EQ(0, AF_NETLINK), EQ(2, NETLINK_ROUTE) } },
        { "socket", EAFNOSUPPORT, 2, { EQ(0, AF_NETLINK), NE(2, NETLINK_ROUTE) } },
        { "socket", EAFNOSUPPORT, 1, { GE(0, AF_MAX) } },
};

/* Unix sockets: no host socket is reachable from the jail (lib/broker.h).  Stream and
 * seqpacket sockets connect only through the broker, which connects only to sockets
 * the jail made; a datagram socket (and SOCK_RAW, which is one) names its peer in
 * every sendto/sendmsg, where no broker looks, so there is none: EPERM.  A socketpair
 * of stream or seqpacket sockets is connected already and cannot be pointed
 * elsewhere. */
#define SOCK_TYPE(i, t) ARG(i, SCMP_CMP_MASKED_EQ, 0xf, t)
static const struct arg_rule unix_rules[] = {
        { "socket", ALLOW, 2, { EQ(0, AF_UNIX), SOCK_TYPE(1, SOCK_STREAM) } },
        { "socket", ALLOW, 2, { EQ(0, AF_UNIX), SOCK_TYPE(1, SOCK_SEQPACKET) } },
        { "socketpair", ALLOW, 2, { EQ(0, AF_UNIX), SOCK_TYPE(1, SOCK_STREAM) } },
        { "socketpair", ALLOW, 2, { EQ(0, AF_UNIX), SOCK_TYPE(1, SOCK_SEQPACKET) } },
        { "connect", NOTIFY, 0, { { 0 } } },
};
/* Where there is no broker (lib/broker.h, sbx_broker_usable): no unix socket that could
 * connect at all, only the pairs. */
static const struct arg_rule unix_none_rules[] = {
        { "socket", EAFNOSUPPORT, 1, { EQ(0, AF_UNIX) } },
        { "socketpair", ALLOW, 2, { EQ(0, AF_UNIX), SOCK_TYPE(1, SOCK_STREAM) } },
        { "socketpair", ALLOW, 2, { EQ(0, AF_UNIX), SOCK_TYPE(1, SOCK_SEQPACKET) } },
        { "connect", ALLOW, 0, { { 0 } } },
};

/* The socket families above; every other one below AF_MAX answers "not supported"
 * (AF_VSOCK, AF_PACKET... are not isolated by, or reach past, the network namespace). */
static const int socket_families[] = { AF_UNIX, AF_INET, AF_INET6, AF_NETLINK };

/* Memory that is never writable and executable at once (the profile key
 * memory_deny_write_execute; PR_SET_MDWE in lib/jail.c does the rest: no mapping made
 * executable after it was written).  EACCES, as the kernel's own MDWE answers. */
static const struct arg_rule wx_rules[] = {
        { "mmap", ALLOW, 1, { BITS_CLEAR(2, PROT_WRITE) } },
        { "mmap", ALLOW, 1, { BITS_CLEAR(2, PROT_EXEC) } },
        { "mmap", EACCES, 1, { BITS_SET(2, PROT_WRITE | PROT_EXEC) } },
        { "mmap2", ALLOW, 1, { BITS_CLEAR(2, PROT_WRITE) } },
        { "mmap2", ALLOW, 1, { BITS_CLEAR(2, PROT_EXEC) } },
        { "mmap2", EACCES, 1, { BITS_SET(2, PROT_WRITE | PROT_EXEC) } },
        { "mprotect", ALLOW, 1, { BITS_CLEAR(2, PROT_WRITE) } },
        { "mprotect", ALLOW, 1, { BITS_CLEAR(2, PROT_EXEC) } },
        { "mprotect", EACCES, 1, { BITS_SET(2, PROT_WRITE | PROT_EXEC) } },
        { "pkey_mprotect", ALLOW, 1, { BITS_CLEAR(2, PROT_WRITE) } },
        { "pkey_mprotect", ALLOW, 1, { BITS_CLEAR(2, PROT_EXEC) } },
        { "pkey_mprotect", EACCES, 1, { BITS_SET(2, PROT_WRITE | PROT_EXEC) } },
        /* A System V segment attached executable is shmem the jail wrote through
         * another attach: MDWE does not see it (a new mapping, not writable). */
        { "shmat", ALLOW, 1, { BITS_CLEAR(2, SHM_EXEC) } },
        { "shmat", EACCES, 1, { BITS_SET(2, SHM_EXEC) } },
};

/* Denied by the low 32 bits of an argument, before libseccomp's program, which allows
 * the call: libseccomp compares whole 64-bit arguments and cannot hold a denial next
 * to an allow of the same call, and the kernel ignores the high bits of these
 * (CVE-2019-10063's TIOCSTI | 1 << 32). */
static const struct raw_denial {
        const char *name;
        unsigned arg;
        uint32_t value;
        int err;
} raw_denials[] = {
        /* Pushing input into the terminal (TIOCSTI) or driving the console (TIOCLINUX):
         * the classic escape from a sandbox that shares the caller's tty. */
        { "ioctl", 1, TIOCSTI, EPERM },
        { "ioctl", 1, TIOCLINUX, EPERM },
};

/* Highest syscall number we scan for ones this libseccomp does not know. */
#define SYSCALL_SCAN_MAX 1024

static int resolve(const char *name)
{
        int nr = seccomp_syscall_resolve_name(name);

        return nr == __NR_SCMP_ERROR ? -1 : nr;
}

static bool listed(char *const *names, size_t n, const char *name)
{
        for (size_t i = 0; i < n; i++)
                if (strcmp(names[i], name) == 0)
                        return true;
        return false;
}

static bool in_table(const struct arg_rule *t, size_t n, const char *name)
{
        for (size_t i = 0; i < n; i++)
                if (strcmp(t[i].name, name) == 0)
                        return true;
        return false;
}

static bool denied_by_profile(const struct sbx_seccomp_extra *x, const char *name)
{
        return x && listed(x->deny, x->n_deny, name);
}

static bool wx(const struct sbx_seccomp_extra *x)
{
        return x && x->wx;
}

/* The unix table of this filter. */
static const struct arg_rule *unix_table(const struct sbx_seccomp_extra *x, size_t *n)
{
        *n = x && x->no_unix ? ELEMENTSOF(unix_none_rules) : ELEMENTSOF(unix_rules);
        return x && x->no_unix ? unix_none_rules : unix_rules;
}

/* @name has conditional rules in this filter, and so no unconditional one. */
static bool conditional(const struct sbx_seccomp_extra *x, const char *name)
{
        size_t n;
        const struct arg_rule *u = unix_table(x, &n);

        return in_table(arg_rules, ELEMENTSOF(arg_rules), name) || in_table(u, n, name) ||
               (wx(x) && in_table(wx_rules, ELEMENTSOF(wx_rules), name));
}

static bool in_allowed(const char *name)
{
        for (size_t i = 0; i < ELEMENTSOF(allowed); i++)
                if (strcmp(allowed[i], name) == 0)
                        return true;
        return false;
}

static int add_rule(scmp_filter_ctx c, int err, const char *name, unsigned n, const struct scmp_arg_cmp *cmp,
                    struct sbx_error *e)
{
        int nr = resolve(name), r;

        /* Names this architecture lacks (mmap2 on x86-64) are simply absent. */
        if (nr < 0 || err == EPERM)
                return 0;
        r = seccomp_rule_add_array(c, err == NOTIFY ? SCMP_ACT_NOTIFY : err ? SCMP_ACT_ERRNO((unsigned)err) : SCMP_ACT_ALLOW, nr,
                                   n, cmp);
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, r, "seccomp_rule_add", "", "cannot add a rule for '%s'", name);
        return 0;
}

static int add_table(scmp_filter_ctx c, const struct arg_rule *t, size_t n, const struct sbx_seccomp_extra *x,
                     struct sbx_error *e)
{
        for (size_t i = 0; i < n; i++) {
                int r;

                if (denied_by_profile(x, t[i].name))
                        continue;
                if ((r = add_rule(c, t[i].err, t[i].name, t[i].n, t[i].cmp, e)) < 0)
                        return r;
        }
        return 0;
}

static int add_allowed(scmp_filter_ctx c, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        for (size_t i = 0; i < ELEMENTSOF(allowed); i++) {
                int r;

                if (denied_by_profile(x, allowed[i]) || conditional(x, allowed[i]))
                        continue;
                if ((r = add_rule(c, ALLOW, allowed[i], 0, NULL, e)) < 0)
                        return r;
        }
        return 0;
}

/* Every family below AF_MAX that socket_families[] does not name: EAFNOSUPPORT. */
static int add_socket_families(scmp_filter_ctx c, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        if (denied_by_profile(x, "socket"))
                return 0;
        for (int fam = 0; fam < AF_MAX; fam++) {
                struct scmp_arg_cmp cmp = EQ(0, (scmp_datum_t)fam);
                bool ok = false;
                int r;

                for (size_t j = 0; j < ELEMENTSOF(socket_families); j++)
                        ok |= socket_families[j] == fam;
                if (!ok && (r = add_rule(c, EAFNOSUPPORT, "socket", 1, &cmp, e)) < 0)
                        return r;
        }
        return 0;
}

/* A profile's additions.  allow: names the default denies (schema.c has checked that
 * they have no argument rules).  deny: nothing to add for EPERM, which the default
 * answers once the name's own rules were left out; a kill is a rule of its own. */
static int add_profile(scmp_filter_ctx c, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        for (size_t i = 0; x && i < x->n_allow; i++) {
                int r;

                if (denied_by_profile(x, x->allow[i]) || in_allowed(x->allow[i]))
                        continue;
                if (resolve(x->allow[i]) < 0 || conditional(x, x->allow[i]))
                        return sbx_error_set(e, SBX_STAGE_SECCOMP, EINVAL, "", "", "'%s' cannot be allowed whole", x->allow[i]);
                if ((r = add_rule(c, ALLOW, x->allow[i], 0, NULL, e)) < 0)
                        return r;
        }
        for (size_t i = 0; x && i < x->n_deny; i++) {
                int nr = resolve(x->deny[i]), r;

                if (nr < 0)
                        return sbx_error_set(e, SBX_STAGE_SECCOMP, EINVAL, "", "", "unknown system call '%s'", x->deny[i]);
                if (!x->kill)
                        continue;
                r = seccomp_rule_add_array(c, SCMP_ACT_KILL_PROCESS, nr, 0, NULL);
                if (r < 0)
                        return sbx_error_set(e, SBX_STAGE_SECCOMP, r, "seccomp_rule_add", "", "cannot add a rule for '%s'", x->deny[i]);
        }
        return 0;
}

/* Allowlist mode's denials (policy/resolve.c): a memfd lives on an internal file
 * system that neither Landlock nor noexec covers. */
static char *const memfd_calls[] = { "memfd_create", "memfd_secret" };

void sbx_seccomp_variant(unsigned v, struct sbx_seccomp_extra *x)
{
        *x = (struct sbx_seccomp_extra){ .wx = v & SBX_SECCOMP_WX, .no_unix = v & SBX_SECCOMP_NO_UNIX };
        if (v & SBX_SECCOMP_NO_MEMFD) {
                x->deny = memfd_calls;
                x->n_deny = ELEMENTSOF(memfd_calls);
        }
}

int sbx_seccomp_variant_of(const struct sbx_seccomp_extra *x)
{
        bool memfd = x->n_deny == ELEMENTSOF(memfd_calls);

        if (x->n_allow || (x->n_deny && x->kill))
                return -1;
        for (size_t i = 0; memfd && i < ELEMENTSOF(memfd_calls); i++)
                memfd = listed(x->deny, x->n_deny, memfd_calls[i]);
        if (x->n_deny && !memfd)
                return -1;
        return (x->wx ? SBX_SECCOMP_WX : 0) | (memfd ? SBX_SECCOMP_NO_MEMFD : 0) | (x->no_unix ? SBX_SECCOMP_NO_UNIX : 0);
}

bool sbx_seccomp_denied_by_default(const char *name)
{
        return resolve(name) >= 0 && !in_allowed(name) && !conditional(NULL, name);
}

bool sbx_seccomp_checks_arguments(const char *name)
{
        return conditional(NULL, name) || in_table(wx_rules, ELEMENTSOF(wx_rules), name);
}

bool sbx_seccomp_known(const char *name, char *near, size_t size)
{
        unsigned best = 3;

        near[0] = '\0';
        if (resolve(name) >= 0)
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

/* The first syscall number past every one this libseccomp can name: anything from
 * there on is newer than this filter's review. */
unsigned sbx_seccomp_first_unknown(void)
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

/* Where the low 32 bits of argument @i lie in struct seccomp_data. */
static uint32_t arg_low(unsigned i)
{
        return (uint32_t)(offsetof(struct seccomp_data, args) + i * sizeof(uint64_t) +
                          (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : sizeof(uint32_t)));
}

/* The prologue before libseccomp's program: native-ABI syscall numbers past the
 * known ones answer ENOSYS, as an older kernel would (open_tree_attr, listmount…),
 * without one rule per number; then raw_denials[].  x32 numbers (bit 30) go straight
 * to libseccomp's bad-arch check.  Every jump lands inside the prologue or on the
 * first instruction after it. */
static int add_prologue(struct sbx_seccomp *s, const struct sbx_seccomp_extra *x, unsigned first_unknown,
                        struct sbx_error *e)
{
        struct sock_filter p[8 + 5 * ELEMENTSOF(raw_denials)];
        size_t n = 0, skip_arch, skip_x32;
        struct sock_filter *insns;

        p[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch));
        skip_arch = n;
        p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, seccomp_arch_native(), 0, 0);
        p[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
        skip_x32 = n;
        p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, 0x40000000u, 0, 0);
        p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JGE | BPF_K, first_unknown, 0, 1);
        p[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | (ENOSYS & SECCOMP_RET_DATA));
        for (size_t i = 0; i < ELEMENTSOF(raw_denials); i++) {
                const struct raw_denial *d = &raw_denials[i];
                int nr = resolve(d->name);

                if (nr < 0 || denied_by_profile(x, d->name))
                        continue;
                /* A holds the number here: jump over this denial for any other call. */
                p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (uint32_t)nr, 0, 4);
                p[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, arg_low(d->arg));
                p[n++] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, d->value, 0, 1);
                p[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | ((uint32_t)d->err & SECCOMP_RET_DATA));
                p[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr));
        }
        p[skip_arch].jf = (uint8_t)(n - skip_arch - 1);
        p[skip_x32].jt = (uint8_t)(n - skip_x32 - 1);

        if (s->len + n > BPF_MAXINSNS)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, E2BIG, "", "", "filter too long (%zu instructions)", s->len + n);
        insns = malloc((s->len + n) * sizeof(*insns));
        if (!insns)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, ENOMEM, "", "", "out of memory");
        memcpy(insns, p, n * sizeof(*insns));
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
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "memfd_create", "", "cannot hold the filter");
        r = seccomp_export_bpf(c, fd);
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, r, "seccomp_export_bpf", "", "cannot compile the filter");
        if (fstat(fd, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "fstat", "", "cannot size the filter");
        if (st.st_size <= 0 || st.st_size % sizeof(struct sock_filter) != 0 ||
            st.st_size / sizeof(struct sock_filter) > BPF_MAXINSNS)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, E2BIG, "", "", "compiled filter has a bad size (%lld bytes)",
                                     (long long)st.st_size);
        s->insns = malloc((size_t)st.st_size);
        if (!s->insns)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, ENOMEM, "", "", "out of memory");
        n = pread(fd, s->insns, (size_t)st.st_size, 0);
        if (n != st.st_size)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, n < 0 ? errno : EIO, "pread", "", "cannot read the compiled filter");
        s->len = (unsigned short)(st.st_size / sizeof(struct sock_filter));
        return 0;
}

int sbx_seccomp_prepare(struct sbx_seccomp *s, const struct sbx_seccomp_extra *x, struct sbx_error *e)
{
        _cleanup_seccomp_ scmp_filter_ctx c = seccomp_init(SCMP_ACT_ERRNO(EPERM));
        int r;

        *s = (struct sbx_seccomp){ 0 };
        if (!c)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, ENOMEM, "seccomp_init", "", "cannot start a filter");
        /* Only the native ABI: x32 and i386 syscalls (int 0x80) would skip every
         * rule written for x86-64 numbers.  Wrong arch: EPERM, not a kill. */
        r = seccomp_attr_set(c, SCMP_FLTATR_ACT_BADARCH, SCMP_ACT_ERRNO(EPERM));
        if (r < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, r, "seccomp_attr_set", "", "cannot set the bad-arch action");
        /* The filter runs on every syscall of the jail: a binary tree, not a list. */
        (void)seccomp_attr_set(c, SCMP_FLTATR_CTL_OPTIMIZE, 2);
        size_t n_unix;
        const struct arg_rule *u = unix_table(x, &n_unix);

        if ((r = add_allowed(c, x, e)) < 0 || (r = add_table(c, arg_rules, ELEMENTSOF(arg_rules), x, e)) < 0 ||
            (r = add_table(c, u, n_unix, x, e)) < 0 ||
            (r = add_socket_families(c, x, e)) < 0 ||
            (wx(x) && (r = add_table(c, wx_rules, ELEMENTSOF(wx_rules), x, e)) < 0) || (r = add_profile(c, x, e)) < 0 ||
            (r = export_bpf(c, s, e)) < 0)
                return r;
        return add_prologue(s, x, sbx_seccomp_first_unknown(), e);
}
