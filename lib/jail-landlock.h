/* SPDX-License-Identifier: MIT */
/* The landlock isolation tier's jail (lib/tier.h), for environments that refuse every
 * namespace: no clone into namespaces, the command forked as it is.  Launcher side:
 * a private TMPDIR (0700, the caller's, removed after) and PR_SET_CHILD_SUBREAPER, so
 * that whatever the command leaves behind, however it detaches (setsid, double fork),
 * is the launcher's child once its parent is gone, and is killed and reaped at the
 * end.  Child side: a session of its own, capabilities dropped, no_new_privs, Landlock
 * (sbx_landlock_apply_nons), the tier's seccomp filter (sbx_seccomp_apply_nons), the
 * plan's filter without the connect broker, execve.  Called from sbx_jail_run_ctl()
 * when the plan says no_namespaces. */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <sys/types.h>

#include "cgroup.h"
#include "error.h"
#include "plan.h"
#include "seccomp.h"

#define SBX_NONS_MAX_BEFORE 64

struct sbx_nons {
        char tmpdir[PATH_MAX]; /* "" until made */
        /* The launcher's children before the command (sandboxd's helper acting as the
         * caller): never the command's, never swept.  pid and start time. */
        pid_t before[SBX_NONS_MAX_BEFORE];
        unsigned long long before_start[SBX_NONS_MAX_BEFORE];
        size_t n_before;
        /* sandboxd: the private TMPDIR is the caller's, and removed with the
         * caller's rights (whatever they moved into it stays theirs to delete). */
        bool as_caller;
        uid_t uid;
        gid_t gid;
        gid_t groups[SBX_MAX_GROUPS];
        size_t n_groups;
};

/* Launcher, before the fork: the private TMPDIR, the subreaper flag, the children
 * that are not the command's. */
int sbx_nons_prepare(struct sbx_nons *n, const struct sbx_plan *p, struct sbx_error *e);

/* The child: everything from the session to execve; failures go home on @sync_fd. */
_Noreturn void sbx_nons_child(const struct sbx_plan *p, const struct sbx_seccomp *filter, const struct sbx_cgroup *cg,
                              const struct sbx_nons *n, int sync_fd, int parent_pidfd);

/* Launcher, once the command has been reaped: every process it left is killed and
 * reaped, the TMPDIR removed.  Returns how many were killed; @weak names what could
 * not be cleaned up ("" when all was). */
size_t sbx_nons_finish(struct sbx_nons *n, char *weak, size_t size);
