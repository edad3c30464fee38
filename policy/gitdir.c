/* SPDX-License-Identifier: MIT */
/* filesystem.git: the workspace's git directory as git needs it and no more.
 *
 * A plain repository ({workspace}/.git is a directory): .git is bound onto itself (a
 * mount point cannot be renamed away and replaced) with config, hooks and info bound
 * read-only over it: commits work, a hook or a config alias cannot be planted for the
 * host's next git command to run.
 *
 * A linked worktree ({workspace}/.git is a file "gitdir: <common>/worktrees/NAME"): the
 * common directory is bound read-only at its own path, and its objects, refs, logs and
 * worktrees/NAME read-write over it.  The .git file is the workspace's, so what it
 * names is checked: a worktrees/NAME directory whose own gitdir file points back at
 * this workspace, in a directory that is a git directory; and the binds are the
 * caller's, held to the profile's bind roots by validation. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../lib/cleanup.h"
#include "resolve.h"

/* The first line of a small file, without its newline; -errno. */
static int read_line(const char *path, char *buf, size_t size)
{
        _cleanup_close_ int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK);
        struct stat st;
        ssize_t n;

        if (fd < 0)
                return -errno;
        if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode))
                return -EINVAL;
        n = read(fd, buf, size - 1);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        buf[strcspn(buf, "\n")] = '\0';
        return 0;
}

static int bind(struct sbx_plan *p, enum sbx_mount_kind kind, const char *path, bool caller, struct sbx_error *e)
{
        struct stat st;
        int r;

        if (lstat(path, &st) < 0 || S_ISLNK(st.st_mode))
                return 0; /* what the repository lacks needs no bind */
        if ((r = sbx_plan_add_mount(p, kind, path, path, 0, e)) < 0)
                return r;
        p->mounts[p->n_mounts - 1].caller = caller;
        return 0;
}

static int refuse(struct sbx_error *e, const char *path, const char *why);

/* hooks/ and info/ are made (empty, as git init makes them) where the repository lacks
 * them: a directory that is not there could be created by the jail, a mount point
 * cannot.  Submodules' git directories (modules/) are read-only too: their hooks are
 * hooks. */
static int plain_repo(struct sbx_plan *p, const char *git, struct sbx_error *e)
{
        static const char *const ro[] = { "config", "hooks", "info", "modules" };
        char path[PATH_MAX + 16];
        int r;

        snprintf(path, sizeof(path), "%s/config", git);
        if (access(path, F_OK) < 0)
                return refuse(e, git, "'.git' has no config: not a git directory");
        for (size_t i = 1; i < 3; i++) {
                snprintf(path, sizeof(path), "%s/%s", git, ro[i]);
                if (mkdir(path, 0755) < 0 && errno != EEXIST)
                        return sbx_error_set(e, "profile", errno, "mkdir", path, "filesystem.git: cannot make the directory to protect");
        }
        if ((r = bind(p, p->workspace_mode == SBX_WS_RO ? SBX_MOUNT_RO : SBX_MOUNT_RW, git, false, e)) < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(ro); i++) {
                snprintf(path, sizeof(path), "%s/%s", git, ro[i]);
                if ((r = bind(p, SBX_MOUNT_RO, path, false, e)) < 0)
                        return r;
        }
        return 0;
}

static int refuse(struct sbx_error *e, const char *path, const char *why)
{
        int r = sbx_error_set(e, "profile", EPERM, "", path, "filesystem.git: %s", why);

        sbx_error_hint(e, "run `git worktree repair` in the main working tree, or use a profile without filesystem.git");
        return r;
}

static int linked_worktree(struct sbx_plan *p, const char *workspace, const char *dotgit, struct sbx_error *e)
{
        static const char *const rw[] = { "objects", "refs", "logs" };
        char line[PATH_MAX + 16] = "", gitdir[PATH_MAX], common[PATH_MAX], back[PATH_MAX], path[PATH_MAX + 32];
        const char *slash;
        int r;

        if (read_line(dotgit, line, sizeof(line)) < 0 || strncmp(line, "gitdir: ", 8) != 0)
                return refuse(e, dotgit, "'.git' is a file but not a 'gitdir: PATH' line");
        if (line[8] == '/')
                snprintf(path, sizeof(path), "%s", line + 8);
        else
                snprintf(path, sizeof(path), "%s/%s", workspace, line + 8);
        if (!realpath(path, gitdir))
                return refuse(e, dotgit, "the gitdir it names does not exist");
        /* <common>/worktrees/NAME, and NAME's gitdir names this workspace's .git. */
        slash = strrchr(gitdir, '/');
        if (!slash || slash - gitdir < 10 || strncmp(slash - 10, "/worktrees", 10) != 0)
                return refuse(e, gitdir, "the gitdir is not a <git dir>/worktrees/NAME directory");
        snprintf(common, sizeof(common), "%.*s", (int)(slash - 10 - gitdir), gitdir);
        snprintf(path, sizeof(path), "%s/gitdir", gitdir);
        if (read_line(path, line, sizeof(line)) < 0 || !realpath(line, back) || strcmp(back, dotgit) != 0)
                return refuse(e, gitdir, "the worktree's gitdir file does not point back at this workspace");
        snprintf(path, sizeof(path), "%s/objects", common);
        if (access(path, F_OK) < 0)
                return refuse(e, common, "the common directory is not a git directory (no objects/)");

        if ((r = bind(p, SBX_MOUNT_RO, common, true, e)) < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(rw); i++) {
                snprintf(path, sizeof(path), "%s/%s", common, rw[i]);
                if ((r = bind(p, SBX_MOUNT_RW, path, true, e)) < 0)
                        return r;
        }
        return bind(p, SBX_MOUNT_RW, gitdir, true, e);
}

int sbx_git_binds(struct sbx_profile *pr, const char *workspace, struct sbx_error *e)
{
        char dotgit[PATH_MAX];
        struct stat st;

        snprintf(dotgit, sizeof(dotgit), "%s/.git", workspace);
        if (lstat(dotgit, &st) < 0)
                return 0; /* not a git working tree: nothing to bind */
        if (S_ISDIR(st.st_mode))
                return plain_repo(&pr->plan, dotgit, e);
        if (S_ISREG(st.st_mode))
                return linked_worktree(&pr->plan, workspace, dotgit, e);
        return refuse(e, dotgit, "'.git' is neither a directory nor a file");
}
