/* SPDX-License-Identifier: MIT */
/* Stage 4c, privileges: the drop order, written once.  Child (the command's process,
 * PID 2), after the file system view is final; full capabilities (as root, or in the
 * jail's user namespace) on entry, none on return. */
#pragma once

#include "error.h"
#include "plan.h"

/* close fds -> rlimits -> bounding set -> ambient -> uid/gid -> capabilities to zero
 * -> no_new_privs.  Landlock and seccomp follow (landlock.h, seccomp.h). */
int sbx_privs_drop(const struct sbx_plan *p, struct sbx_error *e);

/* For the jail's PID 1 itself: no capabilities, no_new_privs (it keeps its fds). */
int sbx_privs_drop_init(const struct sbx_plan *p, struct sbx_error *e);
