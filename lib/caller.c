/* SPDX-License-Identifier: MIT */
/* The caller's file operations done in this process: sbx-run's own (it is the caller),
 * and those of sandboxd's helper once it has become the caller. */
#include "caller.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/sendfile.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "cleanup.h"
#include "gitobjects.h"
#include "path.h"

void sbx_file_id_of(const struct stat *st, struct sbx_file_id *id)
{
        *id = (struct sbx_file_id){
                .exists = true,
                .dev = st->st_dev,
                .ino = st->st_ino,
                .size = st->st_size,
                .mtime_ns = (int64_t)st->st_mtim.tv_sec * 1000000000 + st->st_mtim.tv_nsec,
                .ctime_ns = (int64_t)st->st_ctim.tv_sec * 1000000000 + st->st_ctim.tv_nsec,
        };
}

static bool same_file(const struct sbx_file_id *a, const struct sbx_file_id *b)
{
        if (!a->exists || !b->exists)
                return a->exists == b->exists;
        return a->dev == b->dev && a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns &&
               a->ctime_ns == b->ctime_ns;
}

static int self_open(struct sbx_caller *c, const char *path, int flags, enum sbx_access access, int *ret_fd,
                     struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        struct stat st;
        int mode = access == SBX_ACCESS_WRITE ? R_OK | W_OK : access == SBX_ACCESS_READ ? R_OK : 0;
        int r;

        (void)c;
        if ((r = sbx_path_open(path, flags, &fd, NULL, 0, e)) < 0)
                return r;
        if (fstat(fd, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fstat", path, "cannot inspect '%s'", path);
        if (mode && S_ISDIR(st.st_mode))
                mode |= X_OK;
        /* AT_EACCESS: the effective ids, which are the caller's. */
        if (mode && faccessat(fd, "", mode, AT_EMPTY_PATH | AT_EACCESS) < 0) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "access", path, "uid %u may not %s '%s'", (unsigned)geteuid(),
                                  access == SBX_ACCESS_WRITE ? "write" : "read", path);
                sbx_error_hint(e, "use only what you may %s yourself", access == SBX_ACCESS_WRITE ? "write" : "read");
                return r;
        }
        *ret_fd = TAKE_FD(fd);
        return 0;
}

static int open_dir(const char *dir, int *fd, struct sbx_error *e)
{
        return sbx_path_open(dir, O_PATH | O_DIRECTORY, fd, NULL, 0, e);
}

static int self_mkdir(struct sbx_caller *c, const char *dir, const char *name, mode_t mode, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        struct stat st;
        int r;

        (void)c;
        if ((r = open_dir(dir, &fd, e)) < 0)
                return r;
        if (mkdirat(fd, name, mode & 0777) == 0)
                return 1;
        if (errno == EEXIST && fstatat(fd, name, &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISDIR(st.st_mode))
                return 0;
        return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "mkdirat", name, "cannot make '%s' in '%s'", name, dir);
}

/* Marks a mount point as sbx's, so that whichever run holds it last removes it. */
#define MARK "user.sbx.mountpoint"

static bool same_inode(int dirfd, const char *name, int fd)
{
        struct stat a, b;

        return fstatat(dirfd, name, &a, AT_SYMLINK_NOFOLLOW) == 0 && fstat(fd, &b) == 0 && a.st_dev == b.st_dev &&
               a.st_ino == b.st_ino && S_ISDIR(a.st_mode);
}

static int self_hold(struct sbx_caller *c, const char *dir, const char *name, int *ret_fd, struct sbx_error *e)
{
        _cleanup_close_ int dirfd = -1;
        int r;

        (void)c;
        *ret_fd = -1;
        if ((r = open_dir(dir, &dirfd, e)) < 0)
                return r;
        /* A run that is removing it holds it exclusively; when it has, the name names
         * nothing, or something new: try again. */
        for (int attempt = 0; attempt < 16; attempt++) {
                bool made = mkdirat(dirfd, name, 0755) == 0;
                int fd;

                if (!made && errno != EEXIST)
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "mkdirat", name, "cannot make '%s' in '%s'", name, dir);
                fd = openat(dirfd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (fd < 0 && errno != ENOENT)
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "openat", name, "cannot open '%s' in '%s'", name, dir);
                if (fd < 0)
                        continue;
                if (made)
                        (void)fsetxattr(fd, MARK, "1", 1, 0); /* best effort: `made` stands in */
                if (flock(fd, LOCK_SH) == 0 && same_inode(dirfd, name, fd)) {
                        *ret_fd = fd;
                        return made;
                }
                close(fd);
        }
        return sbx_error_set(e, SBX_STAGE_VALIDATE, EBUSY, "", name, "'%s' in '%s' keeps changing", name, dir);
}

static int self_release(struct sbx_caller *c, const char *dir, const char *name, int fd, bool made, struct sbx_error *e)
{
        _cleanup_close_ int dirfd = -1;
        char v;

        (void)c;
        if (open_dir(dir, &dirfd, e) < 0) {
                *e = (struct sbx_error){ 0 };
                return 0; /* gone with its parent */
        }
        /* Another run holds it: that one removes it when done. */
        if (flock(fd, LOCK_EX | LOCK_NB) < 0)
                return 0;
        if ((made || fgetxattr(fd, MARK, &v, 1) == 1) && same_inode(dirfd, name, fd))
                (void)unlinkat(dirfd, name, AT_REMOVEDIR); /* ENOTEMPTY: the caller's now */
        (void)flock(fd, LOCK_UN);
        return 0;
}

static int copy_fd(int from, int to)
{
        struct stat st;
        off_t at = 0;

        if (fstat(from, &st) < 0)
                return -errno;
        while (at < st.st_size) {
                ssize_t n = sendfile(to, from, &at, (size_t)(st.st_size - at));

                if (n <= 0)
                        return n < 0 ? -errno : -EIO;
        }
        return 0;
}

/* The file as it is now, not following a symlink: a symlink or anything but a regular
 * file is never replaced. */
static int current(int dirfd, const char *name, struct sbx_file_id *id, mode_t *mode)
{
        struct stat st;

        if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
                *id = (struct sbx_file_id){ .exists = false };
                return errno == ENOENT ? 0 : -errno;
        }
        if (!S_ISREG(st.st_mode))
                return -EPERM;
        sbx_file_id_of(&st, id);
        *mode = st.st_mode & 07777;
        return 0;
}

static int self_replace(struct sbx_caller *c, const char *dir, const char *name, int src, const struct sbx_file_id *expect,
                        struct sbx_error *e)
{
        _cleanup_close_ int dirfd = -1, tmp = -1;
        struct sbx_file_id now;
        mode_t mode = 0644;
        char tmpname[NAME_MAX + 1];
        int r;

        (void)c;
        if ((r = open_dir(dir, &dirfd, e)) < 0)
                return r;
        if ((r = current(dirfd, name, &now, &mode)) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, r, "fstatat", name, "'%s' in '%s' is not a regular file", name, dir);
        if (!same_file(&now, expect))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ESTALE, "", name, "'%s' in '%s' changed while the jail ran", name, dir);
        if (src < 0) {
                if (now.exists && unlinkat(dirfd, name, 0) < 0 && errno != ENOENT)
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "unlinkat", name, "cannot remove '%s' in '%s'", name, dir);
                return 0;
        }
        snprintf(tmpname, sizeof(tmpname), ".sbx-%.200s.%d", name, (int)getpid());
        tmp = openat(dirfd, tmpname, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode & 0777);
        if (tmp < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "openat", tmpname, "cannot write in '%s'", dir);
        if ((r = copy_fd(src, tmp)) < 0 || fchmod(tmp, mode & 0777) < 0 || renameat(dirfd, tmpname, dirfd, name) < 0) {
                r = r < 0 ? r : -errno;
                (void)unlinkat(dirfd, tmpname, 0);
                return sbx_error_set(e, SBX_STAGE_VALIDATE, r, "renameat", name, "cannot replace '%s' in '%s'", name, dir);
        }
        return 0;
}

/* What git never makes under refs/ and logs/ and would write or block through: symlinks
 * (a reflog is appended to through one), FIFOs (a ref read blocks), sockets, devices. */
static bool stray(mode_t m)
{
        return !S_ISREG(m) && !S_ISDIR(m);
}

struct sweep {
        bool remove;
        char *found;
        size_t size;
        int n;
        int err;
};

/* The names in the directory @fd, read whole before anything below is visited. */
static char **names_of(int fd, size_t *n)
{
        int dup = fcntl(fd, F_DUPFD_CLOEXEC, 0);
        DIR *d = dup >= 0 ? fdopendir(dup) : NULL;
        char **v = NULL;
        struct dirent *de;

        *n = 0;
        if (!d) {
                if (dup >= 0)
                        close(dup);
                return NULL;
        }
        while ((de = readdir(d))) {
                char **nv;

                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (!(nv = realloc(v, (*n + 1) * sizeof(char *))) || !(nv[*n] = strdup(de->d_name))) {
                        if (nv)
                                v = nv;
                        break;
                }
                v = nv;
                (*n)++;
        }
        closedir(d);
        return v;
}

/* Walks the directory @fd (owned; the fd of the same directory is returned, maybe
 * reopened): one fd at a time however deep, the parent reopened through "..", which
 * the caller's own tree, no longer written by any jail, keeps in place.  Nothing is
 * given up on: a directory the caller made unreadable is made readable (it owns it),
 * a tree of any size is walked to its end; what cannot be opened at all is said. */
static int sweep_dir(int fd, const char *path, struct sweep *s)
{
        size_t n = 0;
        char **names = names_of(fd, &n);

        for (size_t i = 0; i < n; i++) {
                struct stat st;
                int child;

                if (fstatat(fd, names[i], &st, AT_SYMLINK_NOFOLLOW) < 0)
                        continue;
                if (stray(st.st_mode)) {
                        if (!s->n++)
                                snprintf(s->found, s->size, "%s/%s", path, names[i]);
                        if (s->remove && unlinkat(fd, names[i], 0) < 0 && !s->err)
                                s->err = -errno;
                        continue;
                }
                if (!S_ISDIR(st.st_mode))
                        continue;
                child = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (child < 0 && errno == EACCES && fchmodat(fd, names[i], 0700, 0) == 0)
                        child = openat(fd, names[i], O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
                if (child < 0) {
                        if (!s->err)
                                s->err = -errno;
                        continue;
                }
                close(fd);
                child = sweep_dir(child, path, s);
                fd = child < 0 ? -1 : openat(child, "..", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
                if (child >= 0)
                        close(child);
                if (fd < 0) {
                        s->err = s->err ? s->err : -ENOENT;
                        break;
                }
        }
        for (size_t i = 0; i < n; i++)
                free(names[i]);
        free(names);
        return fd;
}

static int self_strays(struct sbx_caller *c, const char *dir, bool remove, char *found, size_t size, struct sbx_error *e)
{
        struct sweep s = { .remove = remove, .found = found, .size = size };
        int fd, r;

        (void)c;
        found[0] = '\0';
        if ((r = sbx_path_open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, &fd, NULL, 0, e)) < 0)
                return r;
        fd = sweep_dir(fd, dir, &s);
        if (fd >= 0)
                close(fd);
        if (s.err)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, s.err, "", dir, "cannot walk all of '%s' (%d found so far)", dir, s.n);
        return s.n;
}

static int self_realpath(struct sbx_caller *c, const char *path, char *buf, size_t size, struct sbx_error *e)
{
        _cleanup_free_ char *real = realpath(path, NULL);

        (void)c;
        if (!real)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "realpath", path, "cannot resolve '%s'", path);
        if (snprintf(buf, size, "%s", real) >= (int)size)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENAMETOOLONG, "", path, "path too long");
        return 0;
}

static int self_objects(struct sbx_caller *c, const char *dir, int64_t since_ns, size_t hash_len, char *found, size_t size,
                        struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        int r;

        (void)c;
        if ((r = sbx_path_open(dir, O_RDONLY | O_DIRECTORY | O_NOFOLLOW, &fd, NULL, 0, e)) < 0)
                return r;
        return sbx_objects_check(fd, dir, since_ns, hash_len, found, size, e);
}

struct sbx_caller sbx_caller_self = {
        .open = self_open,
        .mkdir = self_mkdir,
        .hold = self_hold,
        .release = self_release,
        .replace = self_replace,
        .strays = self_strays,
        .realpath = self_realpath,
        .objects = self_objects,
};
