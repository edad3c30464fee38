/* SPDX-License-Identifier: MIT */
/* Why this shape (issue 14): Debian keeps the configuration of programs under /usr in
 * /etc, often behind /usr -> /etc symlinks (a JDK's conf/security/java.security ->
 * /etc/java-17-openjdk/..., Maven's bin/m2.conf -> /etc/maven/m2.conf) or at a path the
 * program has compiled in (/etc/fonts/fonts.conf, /etc/manpath.config).  A fixed list
 * of /etc paths misses whatever is installed next, and finding the /usr -> /etc links
 * means walking /usr: half a second warm, ten cold, per launch.  dpkg already records
 * which /etc files each installed package ships (its conffiles, in one status file read
 * in about a millisecond), so the system view carries the top-level /etc entries that
 * hold them: found from the system, current after every apt run, with no cache for
 * anyone to write.  Read-only like the rest of the system view.
 *
 * What it carries must never be a secret, and the jail's root keeps the host root's
 * uid (no capabilities, but the owner's permission bits still apply to root's files):
 * an entry that is on the denylist or not world-readable is left out, and inside a
 * carried directory every such descendant is masked, as are sockets (connect() works
 * through a read-only mount), fifos and devices.  The walk is bounded; a directory
 * with more to mask than a jail should carry is left out whole (fail closed). */
#include "etcview.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"

#define DPKG_STATUS "/var/lib/dpkg/status"
#define STATUS_MAX (64L * 1024 * 1024)
#define MAX_ADDED 128      /* packaged top-level entries per plan */
#define MAX_WALK 8192      /* entries looked at under one carried directory */
#define MAX_DEPTH 16
#define MAX_MASKS 32       /* masks per carried directory */

/* Secrets by name, relative to /etc, whatever their mode: password hashes, sudo's rules,
 * ssh's keys and configuration, TLS private keys, PAM's old passwords and limits,
 * Kerberos keys. */
static const char *const secrets[] = {
        "shadow", "shadow-", "gshadow", "gshadow-", "sudoers", "sudoers.d", "ssh",
        "ssl/private", "security", "krb5.keytab",
};

static bool is_secret(const char *rel)
{
        for (size_t i = 0; i < sizeof(secrets) / sizeof(secrets[0]); i++)
                if (strcmp(rel, secrets[i]) == 0)
                        return true;
        return false;
}

/* Others may read it, and search it when a directory; a symlink resolves inside the
 * jail, so only what the jail has can be reached through it. */
static bool world_readable(const struct stat *st)
{
        if (S_ISLNK(st->st_mode))
                return true;
        if (S_ISDIR(st->st_mode))
                return (st->st_mode & (S_IROTH | S_IXOTH)) == (S_IROTH | S_IXOTH);
        return S_ISREG(st->st_mode) && (st->st_mode & S_IROTH);
}

static bool in_plan(const struct sbx_plan *p, const char *dest)
{
        for (size_t i = 0; i < p->n_mounts; i++)
                if (strcmp(p->mounts[i].dest, dest) == 0)
                        return true;
        return false;
}

static bool has_system_view(const struct sbx_plan *p)
{
        for (size_t i = 0; i < p->n_mounts; i++)
                if (p->mounts[i].system && strcmp(p->mounts[i].dest, "/usr") == 0)
                        return true;
        return false;
}

/* One conffile line of the status file: " /etc/NAME/... MD5 [obsolete]": its top-level
 * /etc entry in @top, or false. */
static bool conffile_top(const char *line, char *top, size_t size)
{
        size_t n;

        if (line[0] != ' ' || strncmp(line + 1, "/etc/", 5) != 0)
                return false;
        line += 6;
        n = strcspn(line, "/ \n");
        if (n == 0 || n >= size - 5 || line[n] == '\n' || line[n] == '\0')
                return false;
        if ((n == 1 && line[0] == '.') || (n == 2 && line[0] == '.' && line[1] == '.'))
                return false;
        memcpy(top, "/etc/", 5);
        memcpy(top + 5, line, n);
        top[5 + n] = '\0';
        return true;
}

int sbx_etc_view_add_packaged(struct sbx_plan *p, struct sbx_error *e)
{
        _cleanup_free_ char *line = NULL;
        size_t cap = 0, added = 0;
        bool in_conffiles = false;
        struct stat st;
        FILE *f;
        int r = 0;

        if (!has_system_view(p))
                return 0;
        f = fopen(DPKG_STATUS, "re");
        if (!f)
                return 0; /* not a dpkg system: the fixed minimum only */
        if (fstat(fileno(f), &st) < 0 || !S_ISREG(st.st_mode) || st.st_uid != 0 ||
            (st.st_mode & (S_IWGRP | S_IWOTH)) || st.st_size > STATUS_MAX) {
                fclose(f); /* only root's own record is trusted to name what to carry */
                return 0;
        }
        while (getline(&line, &cap, f) > 0) {
                char top[NAME_MAX + 6];

                if (line[0] != ' ') {
                        in_conffiles = strncmp(line, "Conffiles:", 10) == 0;
                        continue;
                }
                if (!in_conffiles || !conffile_top(line, top, sizeof(top)))
                        continue;
                if (is_secret(top + 5) || in_plan(p, top))
                        continue;
                if (added++ >= MAX_ADDED)
                        break;
                if ((r = sbx_plan_add_system_entry(p, top, e)) < 0)
                        break;
        }
        fclose(f);
        return r;
}

struct walk {
        char masks[MAX_MASKS][PATH_MAX];
        size_t n_masks;
        size_t seen;
        bool overflow;
};

static void note_mask(struct walk *w, const char *path)
{
        if (w->n_masks >= MAX_MASKS) {
                w->overflow = true;
                return;
        }
        snprintf(w->masks[w->n_masks++], PATH_MAX, "%s", path);
}

/* @dfd is the directory at @path (under /etc); never follows a symlink. */
static void walk_dir(int dfd, const char *path, int depth, struct walk *w)
{
        DIR *d;
        struct dirent *de;

        if (depth > MAX_DEPTH) {
                w->overflow = true;
                return;
        }
        d = fdopendir(dfd);
        if (!d) {
                close(dfd);
                w->overflow = true;
                return;
        }
        while (!w->overflow && (de = readdir(d))) {
                char child[PATH_MAX];
                struct stat st;
                int fd;

                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (++w->seen > MAX_WALK || snprintf(child, sizeof(child), "%s/%s", path, de->d_name) >= (int)sizeof(child)) {
                        w->overflow = true;
                        break;
                }
                /* A symlink needs no look: it resolves inside the jail.  /etc/alternatives
                 * and /etc/ssl/certs are mostly symlinks, so this halves the walk. */
                if (de->d_type == DT_LNK)
                        continue;
                if (fstatat(dirfd(d), de->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                        if (errno != ENOENT)
                                note_mask(w, child);
                        continue;
                }
                if (is_secret(child + 5) || !world_readable(&st)) {
                        note_mask(w, child);
                        continue;
                }
                if (!S_ISDIR(st.st_mode))
                        continue;
                fd = openat(dirfd(d), de->d_name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0) {
                        note_mask(w, child);
                        continue;
                }
                walk_dir(fd, child, depth + 1, w);
        }
        closedir(d);
}

int sbx_etc_view_screen(struct sbx_plan *p, size_t i, bool *drop, struct sbx_error *e)
{
        const struct sbx_mount *m = &p->mounts[i];
        _cleanup_free_ struct walk *w = NULL;
        struct stat st;
        int fd, r;

        if (!m->system || strncmp(m->dest, "/etc/", 5) != 0 || m->kind == SBX_MOUNT_SYMLINK || m->kind == SBX_MOUNT_MASK ||
            m->kind == SBX_MOUNT_TEXT)
                return 0;
        if (is_secret(m->dest + 5) || lstat(m->source, &st) < 0 || !world_readable(&st)) {
                *drop = true;
                return 0;
        }
        if (!S_ISDIR(st.st_mode))
                return 0;
        w = calloc(1, sizeof(*w));
        if (!w)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", m->source, "out of memory");
        fd = open(m->source, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0) {
                *drop = true;
                return 0;
        }
        walk_dir(fd, m->source, 0, w);
        if (w->overflow) {
                *drop = true;
                return 0;
        }
        for (size_t k = 0; k < w->n_masks; k++) {
                /* At the same place in the jail: system entries are bound at their own path. */
                if ((r = sbx_plan_add_mount(p, SBX_MOUNT_MASK, NULL, w->masks[k], 0, e)) < 0)
                        return r;
                p->mounts[p->n_mounts - 1].system = true;
        }
        return 0;
}
