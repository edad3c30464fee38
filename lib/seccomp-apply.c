/* SPDX-License-Identifier: MIT */
/* The child half of the seccomp stage: installs raw BPF, no libseccomp. */
#include "seccomp.h"

#include <errno.h>
#include <linux/fiemap.h>
#include <linux/fs.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"

int sbx_seccomp_apply(const struct sbx_seccomp *s, int *listener, struct sbx_error *e)
{
        struct sock_fprog prog = { .len = s->len, .filter = s->insns };
        long fd;

        if (!listener) {
                /* SPEC_ALLOW not set: keep the kernel's speculative-store-bypass mitigation. */
                if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                        return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the seccomp filter");
                return 0;
        }
        /* Once the broker has taken a connect, only a fatal signal interrupts the wait
         * (5.19+): a signal in between would otherwise restart a connect the broker
         * may already have made. */
        fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
                     &prog);
        if (fd < 0 && errno == EINVAL)
                fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "seccomp", "", "cannot install the seccomp filter with its listener");
        *listener = (int)fd;
        return 0;
}

/* Where the low 32 bits of argument @i lie (uid_t and gid_t are 32 bits: the kernel
 * reads no more). */
#define ARG_LOW(i) \
        ((uint32_t)(offsetof(struct seccomp_data, args) + (i) * sizeof(uint64_t) + \
                    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? 0 : sizeof(uint32_t))))
/* ... and its high 32 bits (a pointer's other half). */
#define ARG_HIGH(i) \
        ((uint32_t)(offsetof(struct seccomp_data, args) + (i) * sizeof(uint64_t) + \
                    (__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__ ? sizeof(uint32_t) : 0)))
#define RET(v) BPF_STMT(BPF_RET | BPF_K, (v))
#define EPERM_RET (SECCOMP_RET_ERRNO | (EPERM & SECCOMP_RET_DATA))

int sbx_seccomp_apply_ids(uint32_t uid, uint32_t gid, struct sbx_error *e)
{
        /* Blocks of 8: the owner at argument U, the group at U+1, each -1 or ours. */
#define CHOWN_AT(u)                                                                    \
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(u)),                                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, uid, 1, 0),                                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UINT32_MAX, 0, 4),                         \
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW((u) + 1)),                          \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, gid, 1, 0),                                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, UINT32_MAX, 0, 1),                         \
        RET(SECCOMP_RET_ALLOW), RET(EPERM_RET)
        /* Only the native numbers: a foreign ABI's are all denied by the main filter,
         * whatever this one answers. */
        struct sock_filter insns[] = {
                BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
#ifdef __NR_chown
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_chown, 4, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_lchown, 3, 0),
#else
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchown, 4, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchown, 3, 0),
#endif
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchown, 2, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fchownat, 9, 0),
                RET(SECCOMP_RET_ALLOW),
                CHOWN_AT(1), /* chown, lchown, fchown (path or fd, owner, group) */
                CHOWN_AT(2), /* fchownat (dirfd, path, owner, group, flags) */
        };
        struct sock_fprog prog = { .len = ELEMENTSOF(insns), .filter = insns };

        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the ownership filter");
        return 0;
}

void sbx_seccomp_done(struct sbx_seccomp *s)
{
        free(s->insns);
        *s = (struct sbx_seccomp){ 0 };
}

#define ERR_RET(err) (SECCOMP_RET_ERRNO | ((err) & SECCOMP_RET_DATA))
#define LD_NR BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr))
#define LD_ARG(i) BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_LOW(i))
/* One call refused whole: the next instruction when not it. */
#define DENY_NR(nr, err) BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 1), RET(ERR_RET(err))
/* A send with MSG_FASTOPEN in argument @i: a TCP connect that no connect() hook sees. */
#define NO_FASTOPEN(nr, i)                                              \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4),                \
        LD_ARG(i),                                                      \
        BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MSG_FASTOPEN, 0, 1),       \
        RET(EPERM_RET), RET(SECCOMP_RET_ALLOW)

/* A call on process (or thread) @i: only 0, the caller itself. */
#define SELF_ONLY(nr, i)                                                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 4),                \
        LD_ARG(i),                                                      \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),                   \
        RET(EPERM_RET), RET(SECCOMP_RET_ALLOW)
/* (which, who, ...): only which @process (not a group, not a user) and who 0. */
#define SELF_ONLY_WHO(nr, process)                                      \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 6),                \
        LD_ARG(0),                                                      \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (process), 0, 2),           \
        LD_ARG(1),                                                      \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),                   \
        RET(EPERM_RET), RET(SECCOMP_RET_ALLOW)

/* System calls newer than some kernel headers: since 4.20 one number on every
 * architecture (asm-generic's), but for alpha's offset and mips' ABI base.  A kernel
 * without them answers ENOSYS, which the filter's EPERM only replaces. */
#if defined(__alpha__)
#define NR_UNIFIED(n) ((n) + 110)
#elif defined(__mips__)
#define NR_UNIFIED(n) ((n) + __NR_Linux)
#else
#define NR_UNIFIED(n) (n)
#endif
#ifdef __NR_fchmodat2
#define NR_FCHMODAT2 __NR_fchmodat2
#else
#define NR_FCHMODAT2 NR_UNIFIED(452)
#endif
#ifdef __NR_setxattrat
#define NR_SETXATTRAT __NR_setxattrat
#else
#define NR_SETXATTRAT NR_UNIFIED(463)
#endif
#ifdef __NR_removexattrat
#define NR_REMOVEXATTRAT __NR_removexattrat
#else
#define NR_REMOVEXATTRAT NR_UNIFIED(466)
#endif
#ifndef FS_IOC32_SETFLAGS
#define FS_IOC32_SETFLAGS _IOW('f', 2, int)
#endif
#ifndef FS_IOC32_SETVERSION
#define FS_IOC32_SETVERSION _IOW('v', 2, int)
#endif

/* utimensat (and its time64 twin) with a path: refused; with NULL, futimens(fd):
 * the next instruction. */
#define UTIMENSAT_PATH(nr)                                              \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, (nr), 0, 6),                \
        LD_ARG(1),                                                      \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 2),                   \
        BPF_STMT(BPF_LD | BPF_W | BPF_ABS, ARG_HIGH(1)),                \
        BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 0),                   \
        RET(EPERM_RET), RET(SECCOMP_RET_ALLOW)

#ifndef FS_IOC32_GETFLAGS
#define FS_IOC32_GETFLAGS _IOR('f', 1, int)
#endif

/* Landlock sees opens, creations, renames and removals; an ioctl on a directory fd
 * the jail may read is none of these: btrfs makes subvolumes and snapshots that way
 * (BTRFS_IOC_SUBVOL_CREATE, SNAP_CREATE: new directories inside .claude or .git,
 * where Landlock gives no MAKE_DIR), other file systems enable verity, set encryption
 * policies or swap extents.  So only terminal and FIO* ioctls (type 'T': termios,
 * window size, FIONREAD, FIONBIO, FIOCLEX; TIOCSTI and TIOCLINUX the main filter
 * refuses) and the file-flag reads (lsattr, cp's FIEMAP) pass; any other is ENOTTY,
 * "not supported here", which tools (cp --reflink=auto) take as such. */
static int apply_ioctls(struct sbx_error *e)
{
        struct sock_filter insns[] = {
                LD_NR,
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 8),
                LD_ARG(1),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_GETFLAGS, 6, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC32_GETFLAGS, 5, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_FIEMAP, 4, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_FSGETXATTR, 3, 0),
                BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xff00),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 'T' << 8, 1, 0),
                RET(ERR_RET(ENOTTY)),
                RET(SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = { .len = ELEMENTSOF(insns), .filter = insns };

        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the ioctl filter");
        return 0;
}

/* Landlock governs what a file holds and where it is, not its metadata: without a
 * read-only mount, chmod, chown, utimes and the xattr calls succeed on any file the
 * caller owns, anywhere (~/.ssh/authorized_keys 0666, a chgrp to another of its
 * groups, mtimes that make's decisions read, user.* xattrs).  By path they are refused
 * whole, in the workspace too (metadata=fd-only): seccomp cannot see where a path
 * leads.  AT_EMPTY_PATH on an O_PATH fd (which any path gives, Landlock or not) is
 * a path call, refused with them; the fd calls fchmod, fchown, futimens, fsetxattr
 * and fremovexattr need a real fd, which the kernel never takes from O_PATH, and so
 * one Landlock let the jail open: for writing (the workspace, the private TMPDIR)
 * or for reading (root's system view). */
static int apply_metadata(bool no_fd, struct sbx_error *e)
{
        struct sock_filter by_path[] = {
                LD_NR,
#ifdef __NR_chmod
                DENY_NR(__NR_chmod, EPERM),
#endif
#ifdef __NR_chown
                DENY_NR(__NR_chown, EPERM),
#endif
#ifdef __NR_lchown
                DENY_NR(__NR_lchown, EPERM),
#endif
#ifdef __NR_chown32
                DENY_NR(__NR_chown32, EPERM),
#endif
#ifdef __NR_lchown32
                DENY_NR(__NR_lchown32, EPERM),
#endif
#ifdef __NR_utime
                DENY_NR(__NR_utime, EPERM),
#endif
#ifdef __NR_utimes
                DENY_NR(__NR_utimes, EPERM),
#endif
#ifdef __NR_futimesat
                DENY_NR(__NR_futimesat, EPERM), /* (whole: NULL is an fd form no libc uses) */
#endif
                DENY_NR(__NR_fchmodat, EPERM),
                DENY_NR(NR_FCHMODAT2, EPERM),
                DENY_NR(__NR_fchownat, EPERM),
                DENY_NR(__NR_setxattr, EPERM),
                DENY_NR(__NR_lsetxattr, EPERM),
                DENY_NR(__NR_removexattr, EPERM),
                DENY_NR(__NR_lremovexattr, EPERM),
                DENY_NR(NR_SETXATTRAT, EPERM),
                DENY_NR(NR_REMOVEXATTRAT, EPERM),
#ifdef __NR_utimensat_time64
                UTIMENSAT_PATH(__NR_utimensat_time64),
                LD_NR,
#endif
                UTIMENSAT_PATH(__NR_utimensat),
                RET(SECCOMP_RET_ALLOW),
        };
        /* Where the jail may read a file the caller owns and may not write (a
         * read-only bind, a read-only workspace; root and its system view), an fd
         * for reading is enough for these: refused too (metadata=none), and the
         * inode-flag ioctls (chattr's noatime, nodump, sync...) with them. */
        struct sock_filter by_fd[] = {
                LD_NR,
                DENY_NR(__NR_fchmod, EPERM),
                DENY_NR(__NR_fchown, EPERM),
#ifdef __NR_fchown32
                DENY_NR(__NR_fchown32, EPERM),
#endif
                DENY_NR(__NR_fsetxattr, EPERM),
                DENY_NR(__NR_fremovexattr, EPERM),
                DENY_NR(__NR_utimensat, EPERM),
#ifdef __NR_utimensat_time64
                DENY_NR(__NR_utimensat_time64, EPERM),
#endif
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_ioctl, 0, 8),
                LD_ARG(1),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_SETFLAGS, 5, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC32_SETFLAGS, 4, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_FSSETXATTR, 3, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC_SETVERSION, 2, 0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, FS_IOC32_SETVERSION, 1, 0),
                RET(SECCOMP_RET_ALLOW),
                RET(EPERM_RET),
                RET(SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = { .len = ELEMENTSOF(by_path), .filter = by_path };

        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the file-metadata filter");
        prog = (struct sock_fprog){ .len = ELEMENTSOF(by_fd), .filter = by_fd };
        if (no_fd && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the fd-metadata filter");
        return 0;
}

int sbx_seccomp_apply_nons(bool no_net, bool no_fd_metadata, struct sbx_error *e)
{
        /* The caller's other processes share this PID space (pid=shared), and
         * Landlock's scopes stop signals and ptrace only: no call that changes another
         * process without either, its resource limits (RLIMIT_CPU 0 kills it), nice
         * value, CPU set, scheduling policy or I/O priority; on itself, all of them
         * (pid 0; another thread of its own by its TID is refused too). */
        struct sock_filter procs[] = {
                LD_NR,
                SELF_ONLY(__NR_prlimit64, 0),
                LD_NR,
                SELF_ONLY(__NR_sched_setaffinity, 0),
                LD_NR,
                SELF_ONLY(__NR_sched_setscheduler, 0),
                LD_NR,
                SELF_ONLY(__NR_sched_setparam, 0),
                LD_NR,
                SELF_ONLY(__NR_sched_setattr, 0),
                LD_NR,
                SELF_ONLY_WHO(__NR_setpriority, 0 /* PRIO_PROCESS */),
                LD_NR,
                SELF_ONLY_WHO(__NR_ioprio_set, 1 /* IOPRIO_WHO_PROCESS */),
                RET(SECCOMP_RET_ALLOW),
        };
        /* IPC that no namespace separates here: SysV objects and POSIX message queues
         * are the container's (ipc=none). */
        struct sock_filter ipc[] = {
                LD_NR,
                DENY_NR(__NR_shmget, EPERM), DENY_NR(__NR_shmat, EPERM), DENY_NR(__NR_shmctl, EPERM),
                DENY_NR(__NR_msgget, EPERM), DENY_NR(__NR_msgsnd, EPERM), DENY_NR(__NR_msgrcv, EPERM),
                DENY_NR(__NR_msgctl, EPERM), DENY_NR(__NR_semget, EPERM), DENY_NR(__NR_semop, EPERM),
                DENY_NR(__NR_semtimedop, EPERM), DENY_NR(__NR_semctl, EPERM), DENY_NR(__NR_mq_open, EPERM),
                DENY_NR(__NR_mq_unlink, EPERM),
                RET(SECCOMP_RET_ALLOW),
        };
        /* network: none without a network namespace: Landlock refuses TCP bind and
         * connect; everything else inet is refused here (UDP, ICMP, raw, SCTP, MPTCP:
         * only SOCK_STREAM with protocol 0 or TCP), netlink and packet sockets too,
         * listen() (it would bind an ephemeral port without bind()), and fast-open
         * sends (a connect without connect()). */
        struct sock_filter net[] = {
                LD_NR,
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_socket, 0, 15), /* -> not socket */
                LD_ARG(0),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET, 5, 0),      /* -> inet */
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_INET6, 4, 0),     /* -> inet */
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_NETLINK, 2, 0),   /* -> EAFNOSUPPORT */
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AF_PACKET, 1, 0),    /* -> EAFNOSUPPORT */
                RET(SECCOMP_RET_ALLOW), /* (the main filter's rules) */
                RET(ERR_RET(EAFNOSUPPORT)),
                /* inet: */
                LD_ARG(1),
                BPF_STMT(BPF_ALU | BPF_AND | BPF_K, 0xf), /* SOCK_TYPE_MASK */
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SOCK_STREAM, 0, 3), /* -> EPERM */
                LD_ARG(2),
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 2, 0),           /* -> allow */
                BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, IPPROTO_TCP, 1, 0), /* -> allow */
                RET(EPERM_RET),
                RET(SECCOMP_RET_ALLOW),
                /* not socket: */
                DENY_NR(__NR_listen, EPERM),
                NO_FASTOPEN(__NR_sendto, 3),
                LD_NR,
                NO_FASTOPEN(__NR_sendmsg, 2),
                LD_NR,
                NO_FASTOPEN(__NR_sendmmsg, 3),
                RET(SECCOMP_RET_ALLOW),
        };
        struct sock_fprog prog = { .len = ELEMENTSOF(ipc), .filter = ipc };

        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the IPC filter");
        prog = (struct sock_fprog){ .len = ELEMENTSOF(procs), .filter = procs };
        if (prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the other-process filter");
        prog = (struct sock_fprog){ .len = ELEMENTSOF(net), .filter = net };
        if (no_net && prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_SECCOMP, errno, "prctl", "", "cannot install the network filter");
        /* (the ioctls first: metadata=none's EPERM for FS_IOC_SETFLAGS, installed
         * after, is the one a caller sees) */
        if (apply_ioctls(e) < 0)
                return -e->errnum;
        return apply_metadata(no_fd_metadata, e);
}
