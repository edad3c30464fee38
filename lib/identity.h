/* SPDX-License-Identifier: MIT */
/* Stage 4b, identity: who a command launched by root is inside.  Not root: the jail's
 * uid 0 has no capability, so tools that believe they are root half-fail (tar and
 * Python's tarfile chown each member, are refused, and leave modes and times
 * unrestored).  It runs as nobody (SBX_ROOT_INSIDE_ID) in a user namespace of its own
 * whose one mapped id stands for root outside: what it creates is root's on the host,
 * as outside; it holds no capability anywhere and knows it is not root, so it extracts,
 * builds and tests as a user does.  Only the command enters it: the jail's PID 1 and
 * every mount were made as root (device nodes, a fresh /proc), and the namespaces stay
 * owned by the host's user namespace, where the command has no power at all. */
#pragma once

#include <stddef.h>

#include "error.h"
#include "plan.h"

/* PID 1, before the command is forked: a proc instance of the jail's PID namespace,
 * attached nowhere and writable (the jail's /proc is read-only), through which the
 * command writes its own id maps; it closes on exec.  -1 when the plan needs none,
 * -errno when none could be made (the command then says so and stays uid 0). */
int sbx_identity_prepare(const struct sbx_plan *p);

/* The command's process, before sbx_privs_drop(): sandboxd's caller ids, then the user
 * namespace and its maps.  0 once in it (SBX_APPLIED_USERNS in @applied) or when the
 * plan asks for none; 1 when the kernel refuses a user namespace (a container's
 * seccomp, user.max_user_namespaces=0) and the command stays uid 0 without
 * capabilities, as @what says; -errno on failure. */
int sbx_identity_enter(const struct sbx_plan *p, int proc, char *what, size_t size, unsigned *applied,
                       struct sbx_error *e);
