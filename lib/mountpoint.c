/* SPDX-License-Identifier: MIT */
/* Mount points that lie inside a host bind are entries in the host's directories.  The
 * jail's child makes missing ones itself, and in sandboxd it is root: it would create
 * them in directories the caller may not even read (another user's 0700 directory under
 * a --rw /var/tmp), and its errors would tell the caller what lies there.  So validation
 * walks every such mount point as the caller: each component must be reachable by the
 * caller and not a symlink; a missing directory is made by the caller (0755) in a
 * read-write bind; anything else that is missing is refused.  The child then finds every
 * point in place and reaches it without following a symlink (lib/mount.c). */
#include "validate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cleanup.h"
#include "path.h"

/* The bind whose tree holds the mount point of mounts[@i]: the deepest earlier mount
 * whose destination holds it (mounts are ordered parents first).  NULL: the jail's own
 * root. */
static const struct sbx_mount *holder_of(const struct sbx_plan *p, size_t i)
{
        for (size_t j = i; j-- > 0;)
                if (sbx_path_is_under(p->mounts[i].dest, p->mounts[j].dest))
                        return &p->mounts[j];
        return NULL;
}

static bool wants_directory(const struct sbx_mount *m)
{
        return m->kind == SBX_MOUNT_TMPFS || m->kind == SBX_MOUNT_STATE || ((m->kind == SBX_MOUNT_RO || m->kind == SBX_MOUNT_RW) && m->is_dir);
}

static int refuse(const struct sbx_mount *m, const char *host, int err, const char *why, const char *hint, struct sbx_error *e)
{
        int r = sbx_error_set(e, SBX_STAGE_VALIDATE, err, "", m->dest, "mount point '%s' (host '%s') %s", m->dest, host, why);

        sbx_error_hint(e, "%s", hint);
        return r;
}

/* One component, @host (its parent already checked): there, of the right type, or made. */
static int check_component(struct sbx_caller *caller, const struct sbx_mount *m, const struct sbx_mount *h, char *host,
                           bool last, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        bool want_dir = !last || wants_directory(m);
        struct sbx_error err = { 0 };
        struct stat st;
        int r;

        r = caller->open(caller, host, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &err);
        if (r == -ENOENT) {
                char *slash = strrchr(host, '/');

                if (!want_dir || h->kind != SBX_MOUNT_RW)
                        return refuse(m, host, ENOENT, "does not exist in the bind that holds it", "create it there first", e);
                *slash = '\0';
                r = caller->mkdir(caller, slash == host ? "/" : host, slash + 1, 0755, e);
                *slash = '/';
                if (r < 0)
                        return r;
                r = caller->open(caller, host, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &err);
        }
        if (r < 0) {
                *e = err;
                sbx_error_hint(e, "mount only where you may reach yourself");
                return r;
        }
        if (fstat(fd, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fstat", host, "cannot inspect mount point");
        if (S_ISLNK(st.st_mode))
                return refuse(m, host, ELOOP, "passes through a symlink", "name the real path", e);
        if (want_dir != S_ISDIR(st.st_mode))
                return refuse(m, host, want_dir ? ENOTDIR : EISDIR, want_dir ? "is not a directory" : "is a directory",
                              "mount a directory on a directory and a file on a file", e);
        return 0;
}

static int check_one(const struct sbx_plan *p, size_t i, struct sbx_caller *caller, struct sbx_error *e)
{
        const struct sbx_mount *m = &p->mounts[i], *h = holder_of(p, i);
        const char *rest, *base;
        char host[PATH_MAX];

        /* A mask makes nothing; a point in the system view's read-only binds cannot be
         * made and is root's to reach; a second mount on a bind's own top is its top. */
        if (m->kind == SBX_MOUNT_MASK || m->system || !h || h->system || (h->kind != SBX_MOUNT_RO && h->kind != SBX_MOUNT_RW) ||
            strcmp(h->dest, m->dest) == 0)
                return 0;
        rest = m->dest + (strcmp(h->dest, "/") == 0 ? 0 : strlen(h->dest));
        base = strcmp(h->source, "/") == 0 ? "" : h->source;
        if (snprintf(host, sizeof(host), "%s%s", base, rest) >= (int)sizeof(host))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", m->dest, "mount point path too long");
        /* Component by component below the bind's source. */
        for (char *c = host + strlen(base) + 1;; c++) {
                if (*c != '/' && *c != '\0')
                        continue;
                char saved = *c;
                int r;

                *c = '\0';
                r = check_component(caller, m, h, host, saved == '\0', e);
                *c = saved;
                if (r < 0 || saved == '\0')
                        return r;
        }
}

int sbx_check_mount_points(const struct sbx_plan *p, struct sbx_caller *caller, struct sbx_error *e)
{
        int r;

        for (size_t i = 0; i < p->n_mounts; i++)
                if ((r = check_one(p, i, caller, e)) < 0)
                        return r;
        return 0;
}
