/* SPDX-License-Identifier: MIT */
/* Stage 4c, privileges: the drop order, written once.  Child (the command's process,
 * PID 2), after the file system view is final; full capabilities (as root, or in the
 * jail's user namespace) on entry, none on return. */
#pragma once

#include <sys/resource.h>

#include "applied.h"
#include "error.h"
#include "plan.h"

/* close fds -> rlimits -> bounding set -> ambient -> uid/gid -> capabilities to zero
 * -> no_new_privs.  Memory W^X, Landlock and seccomp follow (sbx_privs_mdwe below,
 * landlock.h, seccomp.h).  Sets SBX_APPLIED_NO_NEW_PRIVS, and _CAPS_DROPPED when the
 * plan keeps none, in @applied once done. */
int sbx_privs_drop(const struct sbx_plan *p, unsigned *applied, struct sbx_error *e);

/* After sbx_privs_drop(), when the plan asks for it: PR_SET_MDWE.  1 when the kernel
 * lacks it and the plan lets that pass (@what says so), 0 when set (SBX_APPLIED_MDWE
 * in @applied) or not asked for, or -errno. */
int sbx_privs_mdwe(const struct sbx_plan *p, char *what, size_t size, unsigned *applied, struct sbx_error *e);

/* sandboxd: the caller's groups, gid and uid, all three ids of each, so that no
 * saved id lets the command switch back.  Within sbx_privs_drop(), or before it where
 * the command enters a user namespace (identity.h), which freezes the groups. */
int sbx_privs_switch_ids(const struct sbx_plan *p, struct sbx_error *e);

/* The launcher, before anything is decided: its soft RLIMIT_NOFILE up to the hard one
 * (validation and the root's binds hold an fd per mount at once, and a workspace of
 * many repositories has hundreds), while the command gets @inherit back in
 * sbx_privs_drop() when no limit names one: the caller's own (sbx-run), or the one
 * sandboxd was started with. */
void sbx_privs_nofile_room(rlim_t inherit);

/* For the jail's PID 1 itself: no capabilities, no_new_privs (it keeps its fds). */
int sbx_privs_drop_init(const struct sbx_plan *p, struct sbx_error *e);
