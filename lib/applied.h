/* SPDX-License-Identifier: MIT */
/* What a jail had: a mask of hardening steps, each bit set by the step that did it
 * (clone for the namespaces it was given, Landlock once landlock_restrict_self took
 * its rules, seccomp once installed...), the jail's PID 1 and command sending theirs
 * home over the sync socket.  --json's "applied" and sandboxd's summary print the
 * names, in this order. */
#pragma once

#include <stddef.h>

enum sbx_applied {
        SBX_APPLIED_PIDNS = 1u << 0,
        SBX_APPLIED_UTSNS = 1u << 1,
        SBX_APPLIED_IPCNS = 1u << 2,
        SBX_APPLIED_MNTNS = 1u << 3,
        SBX_APPLIED_CGROUPNS = 1u << 4,
        SBX_APPLIED_NETNS = 1u << 5,
        SBX_APPLIED_USERNS = 1u << 6,
        SBX_APPLIED_PIVOT_ROOT = 1u << 7,
        SBX_APPLIED_RO_SYSTEM = 1u << 8,
        SBX_APPLIED_CAPS_DROPPED = 1u << 9,
        SBX_APPLIED_NO_NEW_PRIVS = 1u << 10,
        SBX_APPLIED_LANDLOCK = 1u << 11,
        SBX_APPLIED_SECCOMP = 1u << 12,
        SBX_APPLIED_UNIX_BROKER = 1u << 13,     /* the broker answers the jail's own connects */
        SBX_APPLIED_UNIX_PAIRS_ONLY = 1u << 14, /* no broker: only socketpairs */
        SBX_APPLIED_MDWE = 1u << 15,
        SBX_APPLIED_CGROUP_V2 = 1u << 16,
        SBX_APPLIED_CGROUP_V1 = 1u << 17,
        SBX_APPLIED_MEMORY_LIMIT = 1u << 18,
        SBX_APPLIED_PIDS_LIMIT = 1u << 19,
};
#define SBX_APPLIED_COUNT 20
#define SBX_APPLIED_ALL ((1u << SBX_APPLIED_COUNT) - 1)

/* The name of bit number @i ("pidns"), NULL past the last. */
const char *sbx_applied_name(unsigned i);
/* The bit named @name, 0 for a name not in the table. */
unsigned sbx_applied_from_name(const char *name);
