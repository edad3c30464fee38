/* SPDX-License-Identifier: MIT */
/* Stage 3 (cgroup half): a cgroup per sandbox, for the memory and pids limits and for
 * accounting.  cgroup v2 where its memory and pids controllers are, v1 otherwise. */
#pragma once

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "applied.h"
#include "error.h"
#include "plan.h"

struct sbx_cgroup {
        int version;           /* 0: none, 1 or 2 */
        char dir[2][PATH_MAX]; /* v2: dir[0]; v1: memory, pids */
        int ndirs;
        int clone_fd;          /* v2: for CLONE_INTO_CGROUP, else -1 */
        int procs_fd[2];       /* v1: cgroup.procs files the child writes itself into */
        unsigned applied;      /* SBX_APPLIED_CGROUP_V* and the limits written, once the
                                * cgroup is whole; the jail has them once it is inside */
};

/* Launcher, before clone.  Creates the cgroup and sets the plan's limits.  When none
 * can be had: an error if the limits were asked for explicitly or cgroups are not
 * optional, else version 0 and *weakened set. */
int sbx_cgroup_prepare(struct sbx_cgroup *cg, const struct sbx_plan *p, bool *weakened, struct sbx_error *e);
/* What sbx_cgroup_prepare() would do for @p in this process, creating nothing (for
 * --dry-run): the version it would use (0: none) and which of the plan's limits
 * would hold.  On v1 a cgroup is made only for limits asked for explicitly; either
 * way only where this process may create one (root, or a delegated cgroup). */
struct sbx_cgroup_forecast {
        int version;
        bool memory, pids;
};
void sbx_cgroup_forecast(const struct sbx_plan *p, struct sbx_cgroup_forecast *f);
/* Whether this process can make a cgroup for the memory and pids limits here: the
 * hierarchy's version (2 or 1), or -errno with @dir the directory it cannot write
 * (-EROFS: a container's read-only cgroup mount; -ENOENT: no hierarchy with both
 * controllers).  Checked, not tried: creates nothing.  The probe's P9. */
int sbx_cgroup_usable(char *dir, size_t size);
/* Child, before its cgroup namespace is made: joins the v1 cgroups. */
int sbx_cgroup_join(const struct sbx_cgroup *cg, struct sbx_error *e);
/* Launcher, after the jail is gone. */
void sbx_cgroup_stats(const struct sbx_cgroup *cg, uint64_t *peak_memory, bool *oom_killed);
/* Kills whatever is left and removes the cgroup. */
void sbx_cgroup_destroy(struct sbx_cgroup *cg);
/* Removes the empty sbx-PID-* cgroups of launchers that are gone (SIGKILLed, they
 * could not clean up): sandboxd at start and after reaping a killed launcher. */
void sbx_cgroup_collect_stale(void);
