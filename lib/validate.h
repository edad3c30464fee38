/* SPDX-License-Identifier: MIT */
/* Stage 2, validate: launcher side, before clone, as the caller.  Every host path of
 * the plan is opened (O_PATH) as the caller and resolved to its canonical path,
 * checked against what may be bound; its identity (dev, ino) is kept so the child
 * binds exactly what was checked. */
#pragma once

#include "caller.h"
#include "error.h"
#include "plan.h"

/* Every path the caller named is opened through @caller: with the caller's rights, and
 * following only symlinks no jail can have planted (lib/path.h). */
int sbx_validate(struct sbx_plan *p, struct sbx_caller *caller, struct sbx_error *e);

/* Every mount point that lies in a host bind is there, reached as the caller, without a
 * symlink; missing directories are made by the caller.  lib/mountpoint.c. */
int sbx_check_mount_points(const struct sbx_plan *p, struct sbx_caller *caller, struct sbx_error *e);
