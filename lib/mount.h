/* SPDX-License-Identifier: MIT */
/* Stage 4a, the file system view.  Child, after clone: own mount and PID namespaces,
 * full capabilities (as root, or in the new user namespace). */
#pragma once

#include "error.h"
#include "plan.h"

/* Builds the new root from the plan (binds by the fds validation opened), /dev and
 * /proc, then pivot_root()s into it and detaches the old root.  Only syscalls. */
/* @state_fds (SBX_MAX_STATE slots) gets the mount fd of each SBX_MOUNT_STATE tmpfs, in
 * plan order, for the launcher. */
int sbx_mount_apply(const struct sbx_plan *p, int *state_fds, struct sbx_error *e);
