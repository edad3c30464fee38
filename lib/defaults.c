/* SPDX-License-Identifier: MIT */
/* The system view a profile's `filesystem.system: true` gives: the system trees seen
 * read-only and a minimal /etc.  Everything else a plan holds comes from its profile. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "plan.h"

/* System trees: bound read-only, or recreated as the symlink they are on the host
 * (merged /usr: /bin -> usr/bin), or skipped where the host has none. */
static const char *const system_paths[] = {
        "/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32",
};

/* The /etc that programs need to run: users and groups (no passwords: those are in
 * shadow), name resolution, the dynamic loader, time zone, alternatives (Debian's
 * /usr/bin/cc, awk, editor… are symlinks through it), TLS roots, locale and shell
 * defaults.  Never shadow, gshadow, sudoers, ssh, or anything with credentials.  What
 * installed packages ship under /etc is added at validation (lib/etcview.c). */
static const char *const etc_paths[] = {
        "/etc/passwd", "/etc/group", "/etc/hosts", "/etc/nsswitch.conf", "/etc/host.conf",
        "/etc/gai.conf", "/etc/resolv.conf", "/etc/services", "/etc/protocols",
        "/etc/networks", "/etc/ld.so.cache", "/etc/ld.so.conf", "/etc/ld.so.conf.d",
        "/etc/localtime", "/etc/timezone", "/etc/alternatives", "/etc/os-release",
        "/etc/debian_version", "/etc/ssl", "/etc/ca-certificates", "/etc/mime.types",
        "/etc/locale.alias", "/etc/inputrc", "/etc/bash.bashrc", "/etc/profile",
        "/etc/shells", "/etc/mtab", "/etc/terminfo", "/etc/magic", "/etc/perl",
};


/* Only recorded here; validation opens each, turns host symlinks into symlinks and
 * drops what the host lacks, so that the plan itself does no I/O. */
int sbx_plan_add_system_entry(struct sbx_plan *p, const char *path, struct sbx_error *e)
{
        int r = sbx_plan_add_mount(p, SBX_MOUNT_RO, path, path, 0, e);

        if (r < 0)
                return r;
        p->mounts[p->n_mounts - 1].system = true;
        p->mounts[p->n_mounts - 1].optional = true;
        return 0;
}

/* TERM, LANG and LC_* are read by terminfo and locale code inside the jail: passed
 * from the caller only when they look like what they are. */
bool sbx_env_value_is_tame(const char *v)
{
        if (!v || !*v || strlen(v) > 64)
                return false;
        for (; *v; v++)
                if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._+-@", *v))
                        return false;
        return true;
}

uint64_t sbx_physical_memory(void)
{
        long pages = sysconf(_SC_PHYS_PAGES);
        long size = sysconf(_SC_PAGESIZE);

        if (pages <= 0 || size <= 0)
                return 0;
        return (uint64_t)pages * (uint64_t)size;
}

int sbx_plan_add_system_view(struct sbx_plan *p, struct sbx_error *e)
{
        int r;

        for (size_t i = 0; i < sizeof(system_paths) / sizeof(system_paths[0]); i++)
                if ((r = sbx_plan_add_system_entry(p, system_paths[i], e)) < 0)
                        return r;
        for (size_t i = 0; i < sizeof(etc_paths) / sizeof(etc_paths[0]); i++)
                if ((r = sbx_plan_add_system_entry(p, etc_paths[i], e)) < 0)
                        return r;
        return 0;
}
