/* SPDX-License-Identifier: MIT */
/* Stage 4d, Landlock: the command's process, after no_new_privs, before seccomp,
 * inside the final root.  Rules mirror the plan: read and execute everywhere the view
 * shows (it holds only the plan's binds), write only where the plan binds read-write,
 * the caller's stdio only as it was opened; abstract unix sockets and signals scoped
 * to the jail where the ABI has it. */
#pragma once

#include <stdbool.h>

#include "applied.h"
#include "error.h"
#include "plan.h"

/* Returns 0 when applied in full; 1 when the kernel lacks Landlock (or a part of it)
 * and the plan lets it be optional, with @what naming what was weakened.  Sets
 * SBX_APPLIED_LANDLOCK in @applied only once landlock_restrict_self took the rules. */
int sbx_landlock_apply(const struct sbx_plan *p, char *what, size_t size, unsigned *applied, struct sbx_error *e);

/* PID 1, before it forks the command: the scopes alone (abstract unix sockets,
 * signals), so that the connect broker reaches what the command may and no more.
 * Nothing before ABI 6. */
int sbx_landlock_scope(struct sbx_error *e);

/* The landlock tier's command (lib/jail-landlock.c), no mount namespace: read and
 * execute on the plan's read-only binds at their host paths, read and write on its
 * read-write binds and on @tmpdir, read on /proc, the harmless /dev nodes and the
 * caller's stdio as opened; no TCP bind or connect at all; signals and abstract unix
 * sockets scoped.  Needs ABI 6 and network: none (else an error, never less). */
int sbx_landlock_apply_nons(const struct sbx_plan *p, const char *tmpdir, unsigned *applied, struct sbx_error *e);

/* The kernel's Landlock ABI version, 0 when it has none. */
int sbx_landlock_abi(void);

/* The calling process and what it starts from now on: every path read-only below
 * @paths (those missing are skipped), nothing written, made or executed anywhere
 * (the egress broker, outside the jail).  0, 1 when the kernel has no Landlock, or
 * -errno with @e.  Needs no_new_privs (or CAP_SYS_ADMIN). */
int sbx_landlock_read_only(const char *const *paths, size_t n, struct sbx_error *e);
