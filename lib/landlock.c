/* SPDX-License-Identifier: MIT */
#include "landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/landlock.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"
#include "path.h"

/* Rights newer than the build host's headers (Debian 12 ships 6.1's). */
#ifndef LANDLOCK_ACCESS_FS_REFER
#define LANDLOCK_ACCESS_FS_REFER (1ULL << 13)
#endif
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14)
#endif
#define SBX_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0)
#define SBX_LANDLOCK_SCOPE_SIGNAL (1ULL << 1)

/* The ABI 6 attribute layout, whatever the headers say. */
struct sbx_ruleset_attr {
        uint64_t handled_access_fs;
        uint64_t handled_access_net;
        uint64_t scoped;
};

/* What Landlock governs: the whole tree's shape (making, removing, renaming,
 * linking), listing, executing, and reading and writing file contents.  Everything
 * the view shows may be read and executed; only the plan's read-write places may be
 * written.  The point of handling file contents is /proc/self/fd/N: a magic link
 * reopens what it points to even outside the jail's tree (the caller's stdin file,
 * or a directory passed as stdin), and Landlock checks the path that is reopened. */
#define TREE_V1                                                                                     \
        (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE |  \
         LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE | \
         LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR | LANDLOCK_ACCESS_FS_MAKE_REG |    \
         LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |  \
         LANDLOCK_ACCESS_FS_MAKE_SYM)
#define READ_EXEC (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_EXECUTE)
/* Devices are never made, even where writing is allowed. */
#define WRITE_TREE                                                                                  \
        ((TREE_V1 & ~(LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_BLOCK)) |               \
         LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE)
/* /dev's nodes and the jail's own pts: written, never truncated or made. */
#define DEV_FILES (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE)

int sbx_landlock_abi(void)
{
        long abi = syscall(SYS_landlock_create_ruleset, NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
        return abi < 0 ? 0 : (int)abi;
}

/* A rule on the inode behind @fd; -errno, so a caller may tolerate a refusal. */
static int rule_beneath(int ruleset, int fd, uint64_t access)
{
        struct landlock_path_beneath_attr pb = { .allowed_access = access, .parent_fd = fd };

        return syscall(SYS_landlock_add_rule, ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0 ? -errno : 0;
}

/* The rights a rule on a file that is not a directory may hold (the kernel refuses a
 * directory right on one with EINVAL): a read-write bind of one file (--rw FILE). */
#define FILE_RIGHTS \
        (LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE)

static int add_rule(int ruleset, const char *path, uint64_t access, uint64_t handled, struct sbx_error *e)
{
        _cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC);
        struct stat st;
        int r;

        if (fd < 0 || fstat(fd, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "open", path, "cannot open path for a rule");
        if (!S_ISDIR(st.st_mode))
                access &= FILE_RIGHTS;
        r = rule_beneath(ruleset, fd, access & handled);
        return r < 0 ? sbx_error_set(e, SBX_STAGE_LANDLOCK, r, "landlock_add_rule", path, "cannot add rule") : 0;
}

static bool access_path_missing(const char *path)
{
        struct stat st;
        return stat(path, &st) < 0 && errno == ENOENT;
}

/* The caller's stdio may be files or ttys outside the jail's tree.  Reopening them
 * through /dev/stdout (scripts do) stays possible, but only as they were opened: a
 * read-only stdin cannot be reopened for writing, an append-only log cannot be
 * truncated, and a directory passed as stdin opens nothing beneath it. */
static int add_stdio_rules(int ruleset, uint64_t handled, struct sbx_error *e)
{
        for (int fd = 0; fd < 3; fd++) {
                struct stat st;
                uint64_t access = 0;
                int flags = fcntl(fd, F_GETFL);

                if (flags < 0 || fstat(fd, &st) < 0 || !(S_ISREG(st.st_mode) || S_ISCHR(st.st_mode)))
                        continue;
                if ((flags & O_ACCMODE) != O_WRONLY)
                        access |= LANDLOCK_ACCESS_FS_READ_FILE;
                if ((flags & O_ACCMODE) != O_RDONLY) {
                        access |= LANDLOCK_ACCESS_FS_WRITE_FILE;
                        if (!(flags & O_APPEND) && S_ISREG(st.st_mode))
                                access |= LANDLOCK_ACCESS_FS_TRUNCATE;
                }
                /* A rule on the very inode behind the fd, whatever its path.  A memfd
                 * or other file of an internal mount takes none (EBADFD) and needs
                 * none: Landlock lets internal file systems through. */
                int r = rule_beneath(ruleset, fd, access & handled);
                if (r < 0 && r != -EBADFD)
                        return sbx_error_set(e, SBX_STAGE_LANDLOCK, r, "landlock_add_rule", "stdio", "cannot add a rule for fd %d", fd);
        }
        return 0;
}

int sbx_landlock_scope(struct sbx_error *e)
{
        /* REFER is handled, and granted everywhere: a layer that leaves it unhandled
         * forbids every rename or link across directories, for every domain nested in
         * it (Landlock's rule for REFER), and the command's layer decides those. */
        struct sbx_ruleset_attr attr = {
                .handled_access_fs = LANDLOCK_ACCESS_FS_REFER,
                .scoped = SBX_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | SBX_LANDLOCK_SCOPE_SIGNAL,
        };
        _cleanup_close_ int ruleset = -1;
        int r;

        /* Before ABI 6 there are no scopes; the command's own domain says so. */
        if (sbx_landlock_abi() < 6)
                return 0;
        ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
        if (ruleset < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_create_ruleset", "", "cannot create the broker's scope");
        if ((r = add_rule(ruleset, "/", LANDLOCK_ACCESS_FS_REFER, attr.handled_access_fs, e)) < 0)
                return r;
        if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_restrict_self", "", "cannot scope the broker");
        return 0;
}

int sbx_landlock_apply(const struct sbx_plan *p, char *what, size_t size, unsigned *applied, struct sbx_error *e)
{
        struct sbx_ruleset_attr attr = { 0 };
        _cleanup_close_ int ruleset = -1;
        int abi = sbx_landlock_abi();
        size_t attr_size;
        int r;

        what[0] = '\0';
        if (abi < 1) {
                if (!(p->optional & SBX_HARDEN_LANDLOCK)) {
                        r = sbx_error_set(e, SBX_STAGE_LANDLOCK, EOPNOTSUPP, "landlock_create_ruleset", "", "this kernel has no Landlock");
                        sbx_error_hint(e, "boot with lsm=landlock,... or mark landlock optional in the profile");
                        return r;
                }
                snprintf(what, size, p->exec_restricted ? "landlock: not in this kernel; the execute allowlist rests on noexec mounts alone"
                                                        : "landlock: not in this kernel");
                return 1;
        }
        attr.handled_access_fs = TREE_V1 | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0) |
                                 (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
        attr_size = offsetof(struct sbx_ruleset_attr, handled_access_net);
        if (abi >= 6) {
                /* No abstract unix socket outside the jail (they live per network
                 * namespace: with --net host, the host's D-Bus, X11…), no signals to
                 * processes outside it. */
                attr.scoped = SBX_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | SBX_LANDLOCK_SCOPE_SIGNAL;
                attr_size = sizeof(attr);
        } else if (!sbx_plan_own_netns(p)) {
                snprintf(what, size, "landlock: ABI %d has no abstract-socket scoping (host network)", abi);
        }

        ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, attr_size, 0);
        if (ruleset < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_create_ruleset", "", "cannot create ruleset");
        /* Under an execute allowlist, execute is granted file by file below and
         * nowhere else: not on the system tree, never where the jail may write. */
        uint64_t no_exec = p->exec_restricted ? LANDLOCK_ACCESS_FS_EXECUTE : 0;
        if ((r = add_rule(ruleset, "/", READ_EXEC & ~no_exec, attr.handled_access_fs, e)) < 0)
                return r;
        for (size_t i = 0; i < p->exec_allow.n; i++)
                if ((r = add_rule(ruleset, p->exec_allow.v[i], LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE,
                                  attr.handled_access_fs, e)) < 0)
                        return r;
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];
                if (m->kind != SBX_MOUNT_RW && m->kind != SBX_MOUNT_TMPFS && m->kind != SBX_MOUNT_STATE)
                        continue;
                if ((r = add_rule(ruleset, m->dest, WRITE_TREE & ~no_exec, attr.handled_access_fs, e)) < 0)
                        return r;
        }
        if ((r = add_rule(ruleset, "/dev/shm", WRITE_TREE & ~no_exec, attr.handled_access_fs, e)) < 0 ||
            (r = add_rule(ruleset, "/dev", DEV_FILES, attr.handled_access_fs, e)) < 0 ||
            (r = add_stdio_rules(ruleset, attr.handled_access_fs, e)) < 0)
                return r;
        if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_restrict_self", "", "cannot enforce ruleset");
        *applied |= SBX_APPLIED_LANDLOCK; /* enforced, with its rules: weakened or not, in force */
        return what[0] ? 1 : 0;
}

/* ---- the landlock tier (lib/tier.h): no mount namespace, the host's tree --------- */

#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0)
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif

/* A guard: what the plan holds read-only or empty inside a writable place (a
 * harness's configuration, a repository's hooks and config: policy/gitguard.c), as
 * any mount but a read-write one whose path is @dir or lies beneath it. */
static bool guarded(const struct sbx_plan *p, const char *dir, bool exact)
{
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];

                if (m->kind != SBX_MOUNT_RW && m->dest && sbx_path_is_under(m->dest, dir) &&
                    (exact ? strcmp(m->dest, dir) == 0 : strcmp(m->dest, dir) != 0))
                        return true;
        }
        return false;
}

#define SBX_GUARD_DEPTH 8

/* @path lies strictly beneath a read-write bind of the plan's. */
static bool under_writable(const struct sbx_plan *p, const char *path)
{
        for (size_t i = 0; i < p->n_mounts; i++)
                if (p->mounts[i].kind == SBX_MOUNT_RW && p->mounts[i].dest && sbx_path_is_under(path, p->mounts[i].dest) &&
                    strcmp(path, p->mounts[i].dest) != 0)
                        return true;
        return false;
}

static void closedirp(DIR **d)
{
        if (*d)
                closedir(*d);
}

/* Write on @dir, a read-write bind of the plan's, in the landlock tier.  A rule adds
 * rights to everything beneath it and nothing can take them away there, so a place
 * that holds guards gets write entry by entry: an entry that holds none, whole; one
 * that holds some, the same way one level down; a guard, nothing (read through the
 * place's own rule, as everything).  The directories on the way get no write of their
 * own: nothing can be made, removed or renamed in them, a guard that does not exist
 * yet (held empty under the other tiers) included.  Symbolic links and special files
 * get no rule; each entry is opened without following one. */
static int grant_write(int ruleset, const struct sbx_plan *p, int dirfd, const char *dir, uint64_t access, uint64_t handled,
                       int depth, struct sbx_error *e)
{
        _cleanup_(closedirp) DIR *d = NULL;
        struct dirent *de;
        int fd, r = 0;

        if (!guarded(p, dir, false))
                return (r = rule_beneath(ruleset, dirfd, access & handled)) < 0
                               ? sbx_error_set(e, SBX_STAGE_LANDLOCK, -r, "landlock_add_rule", dir, "cannot add rule")
                               : 0;
        if (depth >= SBX_GUARD_DEPTH)
                return 0; /* read-only, whole */
        fd = openat(dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fd < 0 || !(d = fdopendir(fd))) {
                r = sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "opendir", dir, "cannot list a writable place that holds guards");
                if (fd >= 0)
                        close(fd);
                return r;
        }
        while (r >= 0 && (de = readdir(d))) {
                char path[PATH_MAX];
                _cleanup_close_ int child = -1;
                struct stat st;

                if (strcmp(de->d_name, ".") == 0 || strcmp(de->d_name, "..") == 0)
                        continue;
                if (snprintf(path, sizeof(path), "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, de->d_name) >= (int)sizeof(path) ||
                    guarded(p, path, true))
                        continue;
                child = openat(dirfd, de->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
                if (child < 0 || fstat(child, &st) < 0)
                        continue; /* gone meanwhile: nothing to write */
                if (S_ISDIR(st.st_mode))
                        r = grant_write(ruleset, p, child, path, access, handled, depth + 1, e);
                else if (S_ISREG(st.st_mode) && (r = rule_beneath(ruleset, child, access & FILE_RIGHTS & handled)) < 0)
                        r = sbx_error_set(e, SBX_STAGE_LANDLOCK, -r, "landlock_add_rule", path, "cannot add rule");
        }
        return r;
}

/* The device nodes a command needs, nothing else of the host's /dev (other ttys). */
static const char *const nons_devices[] = { "/dev/null", "/dev/zero", "/dev/full", "/dev/random", "/dev/urandom" };

int sbx_landlock_apply_nons(const struct sbx_plan *p, const char *tmpdir, unsigned *applied, struct sbx_error *e)
{
        struct sbx_ruleset_attr attr = {
                .handled_access_fs = TREE_V1 | LANDLOCK_ACCESS_FS_REFER | LANDLOCK_ACCESS_FS_TRUNCATE,
                .handled_access_net = LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP,
                .scoped = SBX_LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | SBX_LANDLOCK_SCOPE_SIGNAL,
        };
        _cleanup_close_ int ruleset = -1;
        uint64_t no_exec = p->exec_restricted ? LANDLOCK_ACCESS_FS_EXECUTE : 0;
        int r;

        /* Scopes are ABI 6: without them this tier is not one (tier.c never picks it). */
        if (sbx_landlock_abi() < 6)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, EOPNOTSUPP, "landlock_create_ruleset", "",
                                     "the landlock tier needs Landlock ABI 6 (this kernel has %d)", sbx_landlock_abi());
        /* network: none only: TCP handled with no port allowed, bind or connect. */
        if (p->net != SBX_NET_NONE)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, EPERM, "", "", "the landlock tier serves network: none only");
        ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
        if (ruleset < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_create_ruleset", "", "cannot create ruleset");
        /* What the plan hides inside a writable place (a profile's mask or tmpfs over
         * the workspace's .env) Landlock cannot: the place's read reaches it.  Held
         * empty where there is nothing (a harness's absent .claude) it can: nothing
         * can be made there (grant_write). */
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];
                struct stat st;

                if ((m->kind == SBX_MOUNT_MASK || m->kind == SBX_MOUNT_TMPFS) && m->dest &&
                    under_writable(p, m->dest) && lstat(m->dest, &st) == 0)
                        return sbx_error_set(e, SBX_STAGE_LANDLOCK, EPERM, "", m->dest,
                                             "the landlock tier cannot hide '%s' inside a writable place (a Landlock rule "
                                             "cannot take read away beneath it)",
                                             m->dest);
        }
        /* The plan's binds at their host paths (tier.c took only plans whose binds
         * are at the same path, and nothing protected beneath a writable one). */
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];
                uint64_t access;

                if (m->kind == SBX_MOUNT_RO || m->kind == SBX_MOUNT_COPY)
                        access = READ_EXEC & ~no_exec;
                else if (m->kind == SBX_MOUNT_RW)
                        access = (READ_EXEC | WRITE_TREE) & ~no_exec;
                else
                        continue;
                if (!m->source || strcmp(m->source, m->dest) != 0)
                        continue;
                if (m->optional && access_path_missing(m->source))
                        continue;
                if (m->kind == SBX_MOUNT_RW && guarded(p, m->source, false)) {
                        _cleanup_close_ int fd = open(m->source, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);

                        if (fd < 0)
                                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "open", m->source, "cannot open path for a rule");
                        if ((r = add_rule(ruleset, m->source, READ_EXEC & ~no_exec, attr.handled_access_fs, e)) < 0 ||
                            (r = grant_write(ruleset, p, fd, m->source, (READ_EXEC | WRITE_TREE) & ~no_exec,
                                             attr.handled_access_fs, 0, e)) < 0)
                                return r;
                        continue;
                }
                if ((r = add_rule(ruleset, m->source, access, attr.handled_access_fs, e)) < 0)
                        return r;
        }
        for (size_t i = 0; i < p->exec_allow.n; i++)
                if ((r = add_rule(ruleset, p->exec_allow.v[i], LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_EXECUTE,
                                  attr.handled_access_fs, e)) < 0)
                        return r;
        if ((r = add_rule(ruleset, tmpdir, (READ_EXEC | WRITE_TREE) & ~no_exec, attr.handled_access_fs, e)) < 0)
                return r;
        /* /proc: read, the container's (proc=host): Landlock's ptrace rule keeps the
         * other processes' mem, environ and fds closed. */
        if ((r = add_rule(ruleset, "/proc", LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR, attr.handled_access_fs, e)) < 0)
                return r;
        for (size_t i = 0; i < ELEMENTSOF(nons_devices); i++)
                if (!access_path_missing(nons_devices[i]) &&
                    (r = add_rule(ruleset, nons_devices[i], DEV_FILES, attr.handled_access_fs, e)) < 0)
                        return r;
        if ((r = add_stdio_rules(ruleset, attr.handled_access_fs, e)) < 0)
                return r;
        if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_restrict_self", "", "cannot enforce ruleset");
        *applied |= SBX_APPLIED_LANDLOCK;
        return 0;
}

int sbx_landlock_read_only(const char *const *paths, size_t n, struct sbx_error *e)
{
        struct sbx_ruleset_attr attr = { 0 };
        _cleanup_close_ int ruleset = -1;
        int abi = sbx_landlock_abi();

        if (abi < 1)
                return 1;
        attr.handled_access_fs = TREE_V1 | (abi >= 2 ? LANDLOCK_ACCESS_FS_REFER : 0) |
                                 (abi >= 3 ? LANDLOCK_ACCESS_FS_TRUNCATE : 0);
        ruleset = (int)syscall(SYS_landlock_create_ruleset, &attr, offsetof(struct sbx_ruleset_attr, handled_access_net), 0);
        if (ruleset < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_create_ruleset", "", "cannot create ruleset");
        for (size_t i = 0; i < n; i++) {
                struct sbx_error ignored = { 0 };
                int r = add_rule(ruleset, paths[i], LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR,
                                 attr.handled_access_fs, &ignored);

                /* A path this host does not have needs no rule. */
                if (r < 0 && r != -ENOENT)
                        return sbx_error_set(e, SBX_STAGE_LANDLOCK, -r, "landlock_add_rule", paths[i], "cannot add rule");
        }
        if (syscall(SYS_landlock_restrict_self, ruleset, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_LANDLOCK, errno, "landlock_restrict_self", "", "cannot enforce ruleset");
        return 0;
}
