/* SPDX-License-Identifier: MIT */
/* Seccomp: compiled with libseccomp in the launcher (prepare), installed as raw BPF in
 * the child as the very last step before execve (apply), so the filter never has to
 * allow what the earlier privilege steps need. */
#pragma once

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

struct sbx_seccomp {
        struct sock_filter *insns;
        unsigned short len;
};

/* What a profile changes in the default filter. */
struct sbx_seccomp_extra {
        char *const *allow; /* names the default denies, allowed */
        size_t n_allow;
        char *const *deny;  /* names denied whole, whatever the default says of them */
        size_t n_deny;
        bool kill;          /* the denied names kill the process instead of failing with EPERM */
        bool wx;            /* no mapping both writable and executable, no shmat(SHM_EXEC) */
        bool no_unix;       /* no connect broker: no unix socket but stream/seqpacket pairs */
};

/* Compiles the default filter, with @x's changes when not NULL. */
int sbx_seccomp_prepare(struct sbx_seccomp *s, const struct sbx_seccomp_extra *x, struct sbx_error *e);
/* @name is a system call of this architecture; when not, @near gets the closest one. */
bool sbx_seccomp_known(const char *name, char *near, size_t size);
/* The default filter denies @name whole, so a profile may allow it. */
bool sbx_seccomp_denied_by_default(const char *name);
/* The filter allows or denies @name by its arguments (a profile cannot lift that). */
bool sbx_seccomp_checks_arguments(const char *name);
/* The first native syscall number this libseccomp does not know: from there on, ENOSYS. */
unsigned sbx_seccomp_first_unknown(void);
/* Child: only syscalls; requires no_new_privs already set.  With @listener, the
 * filter's user notifications (connect) go to a new listener fd, *@listener. */
int sbx_seccomp_apply(const struct sbx_seccomp *s, int *listener, struct sbx_error *e);
void sbx_seccomp_done(struct sbx_seccomp *s);

/* Child, in a user namespace that maps only @uid and @gid: a second, hand-written
 * filter under which chown(2) and its kin to any other owner or group fail with
 * EPERM, as they do for a user outside, and not with the EINVAL an unmapped id gets
 * from the kernel (tools and test suites expect EPERM).  Nothing else changes. */
int sbx_seccomp_apply_ids(uint32_t uid, uint32_t gid, struct sbx_error *e);

/* Child, the landlock tier (no namespace): a further hand-written filter refusing
 * SysV IPC and POSIX message queues (EPERM), and with @no_net every socket but TCP
 * streams for inet (EPERM), netlink and packet sockets (EAFNOSUPPORT), listen() and
 * MSG_FASTOPEN sends (EPERM): Landlock refuses TCP bind and connect.  File metadata,
 * which Landlock does not govern: chmod, chown, utimes and the xattr calls by path
 * (EPERM), and with @no_fd_metadata their fd forms and the inode-flag ioctls too. */
int sbx_seccomp_apply_nons(bool no_net, bool no_fd_metadata, struct sbx_error *e);

/* The default filter and its common variants, compiled by sbx_seccomp_prepare() at
 * build time (tools/gen-seccomp.c) and embedded: launching costs no compilation. */
enum {
        SBX_SECCOMP_WX = 1u << 0,       /* memory_deny_write_execute */
        SBX_SECCOMP_NO_MEMFD = 1u << 1, /* allowlist mode: memfd_create, memfd_secret denied */
        SBX_SECCOMP_NO_UNIX = 1u << 2,  /* no connect broker (lib/broker.h) */
        SBX_SECCOMP_VARIANTS = 8,
};
/* The changes variant @v (a set of the bits above) makes; @deny holds their names. */
void sbx_seccomp_variant(unsigned v, struct sbx_seccomp_extra *x);
/* The variant that makes exactly @x's changes, or -1 when @x needs its own filter. */
int sbx_seccomp_variant_of(const struct sbx_seccomp_extra *x);
const struct sbx_seccomp *sbx_seccomp_builtin(unsigned variant);
