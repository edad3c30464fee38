/* SPDX-License-Identifier: MIT */
/* Identity: who a command launched by root is inside, and what root's files are to it.
 *
 * Not root: the jail's uid 0 has no capability, so tools that believe they are root
 * half-fail (tar and Python's tarfile chown each member, are refused, and leave modes
 * and times unrestored).  One user namespace, made by the launcher before the jail,
 * maps nobody (SBX_ROOT_INSIDE_ID) to root outside and nothing else:
 *  - the command enters it: it runs as nobody, what it creates is root's on the host
 *    as outside, it holds no capability anywhere and knows it is not root;
 *  - the system view is mounted idmapped through it, so that the files root owns there
 *    are nobody's to the command: their "other" bits decide, live, also for a file
 *    made or replaced while the jail runs (its uid is still root's on the host, so
 *    without this, owner-only modes would let root's command read root's secrets).
 * The jail's PID 1 and every mount are made as root (device nodes, a fresh /proc), and
 * the jail's namespaces stay owned by the host's user namespace, where the command has
 * no power at all. */
#pragma once

#include <stddef.h>

#include "error.h"
#include "plan.h"

/* The launcher, before the jail is cloned: the namespace, as an fd (close-on-exec)
 * that the jail inherits; -1 when the plan needs none (the command is not uid 0),
 * or when it cannot be made (no CAP_SETFCAP, user namespaces refused), and then
 * @what says what that leaves. */
int sbx_identity_userns(const struct sbx_plan *p, char *what, size_t size);

/* The command's process, before sbx_privs_drop(): sandboxd's caller ids, then into
 * the namespace @ns (from sbx_identity_userns(), -1: none), when the plan asks.  Sets
 * SBX_APPLIED_USERNS in @applied once in it; 0, or -errno. */
int sbx_identity_enter(const struct sbx_plan *p, int ns, unsigned *applied, struct sbx_error *e);
