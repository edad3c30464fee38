/* SPDX-License-Identifier: MIT */
/* Stage 4a, the file system view.  Child, after clone: own mount and PID namespaces,
 * full capabilities (as root, or in the new user namespace). */
#pragma once

#include "error.h"
#include "plan.h"

/* Builds the new root from the plan (binds by the fds validation opened), /dev and
 * /proc, then pivot_root()s into it and detaches the old root.  Only syscalls. */
#include <sys/types.h>

#define SBX_MAX_PRIVATE 16

/* What the mount stage made that later stages need. */
struct sbx_mount_out {
        int state_fds[SBX_MAX_STATE]; /* each SBX_MOUNT_STATE tmpfs's mount fd, plan order */
        /* The devices of the tmpfs it made (the plan's, the git tops', /dev/shm), as
         * made: the jail's own file systems, whatever is later mounted on top. */
        dev_t private_devs[SBX_MAX_PRIVATE];
        size_t n_private;
        char weak[128]; /* what could not be idmapped (identity.h), "" when all was */
};

/* @idmap: lib/identity.h's user namespace, through which the system view is mounted
 * (-1: as it is). */
int sbx_mount_apply(const struct sbx_plan *p, int idmap, struct sbx_mount_out *out, struct sbx_error *e);

/* The character devices of every jail's /dev (the minimal set apply_dev makes), by
 * name: @i from 0 until NULL.  For --dry-run. */
const char *sbx_mount_dev_node(size_t i);
