/* SPDX-License-Identifier: MIT */
#include "applied.h"

#include <string.h>

/* The contract's names (--json "applied", sandboxd's summary), by bit number. */
static const char *const names[SBX_APPLIED_COUNT] = {
        "pidns", "utsns", "ipcns", "mntns", "cgroupns", "netns", "userns", "pivot_root", "ro-system", "caps-dropped",
        "no_new_privs", "landlock", "seccomp", "unix-broker", "unix-pairs-only", "mdwe", "cgroup-v2", "cgroup-v1",
        "memory-limit", "pids-limit",
};
_Static_assert(SBX_APPLIED_PIDS_LIMIT == 1u << (SBX_APPLIED_COUNT - 1), "a row per bit");

const char *sbx_applied_name(unsigned i)
{
        return i < SBX_APPLIED_COUNT ? names[i] : NULL;
}

unsigned sbx_applied_from_name(const char *name)
{
        for (unsigned i = 0; i < SBX_APPLIED_COUNT; i++)
                if (strcmp(names[i], name) == 0)
                        return 1u << i;
        return 0;
}
