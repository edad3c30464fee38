/* SPDX-License-Identifier: MIT */
/* Launcher side, before clone, as the caller (sandboxd: in a helper that has become
 * the caller).  See path.h for the rule; this file walks a path one component at a
 * time with O_PATH|O_NOFOLLOW, so that every symlink on the way is seen and judged
 * before anything behind it is reached. */
#include "path.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cleanup.h"

const char *const sbx_system_trees[] = { "/usr", "/etc", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/boot" };
const size_t sbx_n_system_trees = ELEMENTSOF(sbx_system_trees);

#define MAX_LINKS 40 /* the kernel's own limit on symlinks in one lookup */

bool sbx_path_is_under(const char *path, const char *root)
{
        size_t n = strlen(root);

        if (strcmp(root, "/") == 0)
                return path[0] == '/';
        return strncmp(path, root, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

int sbx_fd_path(int fd, char *buf, size_t size, const char *shown, struct sbx_error *e)
{
        char link[64];
        ssize_t n;

        snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
        n = readlink(link, buf, size - 1);
        if (n < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "readlink", link, "cannot resolve '%s' (is /proc mounted?)", shown);
        buf[n] = '\0';
        if (buf[0] != '/')
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EXDEV, "", shown, "'%s' resolves outside the file system tree ('%s')",
                                     shown, buf);
        return 0;
}

/* A directory no jail can write: one of the system's own, root's alone. */
static bool trusted_dir(const char *dir, int dirfd)
{
        bool system = strcmp(dir, "/") == 0;
        struct stat st;

        for (size_t i = 0; !system && i < sbx_n_system_trees; i++)
                system = sbx_path_is_under(dir, sbx_system_trees[i]);
        return system && fstat(dirfd, &st) == 0 && st.st_uid == 0 && !(st.st_mode & (S_IWGRP | S_IWOTH));
}

/* "@dir/@name" into @out, with "/" not doubled; false when it does not fit. */
static bool join(char *out, size_t size, const char *dir, const char *name)
{
        int n = snprintf(out, size, "%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/", name);

        return n >= 0 && (size_t)n < size;
}

/* The path the caller could name instead of one through the symlink @at (in @dir,
 * pointing at @target), with the components not yet walked (@rest) after it. */
static void instead(char *out, size_t size, const char *dir, const char *target, const char *rest)
{
        char t[PATH_MAX];

        if (target[0] == '/' || !join(t, sizeof(t), dir, target))
                snprintf(t, sizeof(t), "%s", target);
        if (snprintf(out, size, "%s%s%s", t, rest[0] ? "/" : "", rest) < 0)
                out[0] = '\0';
}

static int refuse_link(const char *path, const char *link, const char *target, const char *suggest, struct sbx_error *e)
{
        int r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", path,
                              "'%s' goes through the symlink '%s' (to '%s'), which sbx does not follow outside the system's own "
                              "directories: a jail may have planted it",
                              path, link, target);

        sbx_error_hint(e, "name the target '%s' itself if that is what you mean", suggest);
        return r;
}

/* Where the walk is: an O_PATH fd on a directory, and its path as walked so far. */
struct walk {
        int fd;
        char dir[PATH_MAX];
        char rest[PATH_MAX]; /* the components still to walk, '/'-separated */
        unsigned links;
};

static int walk_to_root(struct walk *w, struct sbx_error *e)
{
        closep(&w->fd);
        w->fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC);
        snprintf(w->dir, sizeof(w->dir), "/");
        return w->fd < 0 ? sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "open", "/", "cannot open the root directory") : 0;
}

/* Splits the next component off w->rest into @name. */
static void next_component(struct walk *w, char *name, size_t size)
{
        char *s = w->rest;
        size_t len;

        while (*s == '/')
                s++;
        len = strcspn(s, "/");
        snprintf(name, size, "%.*s", (int)len, s);
        s += len;
        while (*s == '/')
                s++;
        memmove(w->rest, s, strlen(s) + 1);
}

/* w->dir's parent, lexically: the walk only ever holds canonical directories. */
static int walk_up(struct walk *w, struct sbx_error *e)
{
        int fd = openat(w->fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
        char *slash;

        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "openat", w->dir, "cannot reach the parent directory");
        closep(&w->fd);
        w->fd = fd;
        slash = strrchr(w->dir, '/');
        if (slash && slash != w->dir)
                *slash = '\0';
        else
                snprintf(w->dir, sizeof(w->dir), "/");
        return 0;
}

/* A symlink at w->dir/@name: followed when trusted, its target put in front of the
 * rest of the walk; else refused. */
static int follow(struct walk *w, const char *path, const char *name, int linkfd, const struct stat *st, struct sbx_error *e)
{
        char target[PATH_MAX], at[PATH_MAX], suggest[PATH_MAX], rest[PATH_MAX];
        ssize_t n = readlinkat(linkfd, "", target, sizeof(target) - 1);

        if (!join(at, sizeof(at), w->dir, name))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", path, "'%s' is too long", path);
        if (n < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "readlink", at, "cannot read the symlink");
        target[n] = '\0';
        if (st->st_uid != 0 || !trusted_dir(w->dir, w->fd)) {
                instead(suggest, sizeof(suggest), w->dir, target, w->rest);
                return refuse_link(path, at, target, suggest, e);
        }
        if (++w->links > MAX_LINKS)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ELOOP, "", path, "too many symlinks in '%s'", path);
        if (snprintf(rest, sizeof(rest), "%s/%s", target, w->rest) >= (int)sizeof(rest))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", path, "'%s' is too long once its symlinks are followed", path);
        snprintf(w->rest, sizeof(w->rest), "%s", rest);
        return target[0] == '/' ? walk_to_root(w, e) : 0;
}

/* The last component, opened as asked: a second open of the same name, checked to be
 * the inode the O_PATH walk saw. */
static int open_final(struct walk *w, const char *name, int flags, const struct stat *seen, int *ret_fd, struct sbx_error *e)
{
        struct stat st;
        int fd;

        fd = openat(w->fd, name, (flags & ~O_PATH) | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "openat", name, "cannot open '%s' in '%s'", name, w->dir);
        if (fstat(fd, &st) < 0 || st.st_dev != seen->st_dev || st.st_ino != seen->st_ino) {
                close(fd);
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EXDEV, "", name, "'%s' in '%s' changed while it was opened", name, w->dir);
        }
        *ret_fd = fd;
        return 0;
}

int sbx_path_open(const char *path, int flags, int *ret_fd, char *canon, size_t size, struct sbx_error *e)
{
        struct walk w = { .fd = -1 };
        char name[NAME_MAX + 1];
        int r;

        *ret_fd = -1;
        if (!path[0])
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOENT, "", "", "an empty path names nothing");
        if (path[0] == '/') {
                snprintf(w.rest, sizeof(w.rest), "%s", path);
                r = walk_to_root(&w, e);
        } else {
                /* The working directory is the kernel's, already canonical. */
                if (!getcwd(w.dir, sizeof(w.dir)))
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "getcwd", path, "cannot find the current directory");
                snprintf(w.rest, sizeof(w.rest), "%s", path);
                w.fd = open(".", O_PATH | O_DIRECTORY | O_CLOEXEC);
                r = w.fd < 0 ? sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "open", ".", "cannot open the current directory") : 0;
        }
        while (r >= 0 && w.rest[0]) {
                _cleanup_close_ int fd = -1;
                struct stat st;
                bool last;

                next_component(&w, name, sizeof(name));
                last = !w.rest[0];
                if (!name[0] || strcmp(name, ".") == 0)
                        continue;
                if (strcmp(name, "..") == 0) {
                        r = walk_up(&w, e);
                        continue;
                }
                fd = openat(w.fd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0 || fstat(fd, &st) < 0) {
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "openat", path, "cannot open '%s' ('%s' in '%s')", path, name, w.dir);
                        break;
                }
                if (S_ISLNK(st.st_mode) && !(last && (flags & O_NOFOLLOW))) {
                        r = follow(&w, path, name, fd, &st, e);
                        continue;
                }
                if (!last) {
                        if (!S_ISDIR(st.st_mode)) {
                                r = sbx_error_set(e, SBX_STAGE_VALIDATE, ENOTDIR, "", path, "'%s': '%s' in '%s' is not a directory", path,
                                                  name, w.dir);
                                break;
                        }
                        char below[PATH_MAX];

                        if (!join(below, sizeof(below), w.dir, name)) {
                                r = sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", path, "'%s' is too long", path);
                                break;
                        }
                        memcpy(w.dir, below, sizeof(w.dir));
                        closep(&w.fd);
                        w.fd = TAKE_FD(fd);
                        continue;
                }
                if ((flags & O_DIRECTORY) && !S_ISDIR(st.st_mode)) {
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, ENOTDIR, "", path, "'%s' is not a directory", path);
                        break;
                }
                if (flags & O_PATH)
                        *ret_fd = TAKE_FD(fd);
                else
                        r = open_final(&w, name, flags & ~O_NOFOLLOW, &st, ret_fd, e);
        }
        /* A path that ends at a directory ("/", "a/..", "dir/."): the walk's own fd. */
        if (r >= 0 && *ret_fd < 0) {
                if (flags & O_PATH)
                        *ret_fd = TAKE_FD(w.fd);
                else if ((*ret_fd = openat(w.fd, ".", (flags & ~(O_PATH | O_NOFOLLOW)) | O_CLOEXEC)) < 0)
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "openat", w.dir, "cannot open '%s'", path);
        }
        closep(&w.fd);
        if (r >= 0 && canon && (r = sbx_fd_path(*ret_fd, canon, size, path, e)) < 0)
                closep(ret_fd);
        return r < 0 ? r : 0;
}
