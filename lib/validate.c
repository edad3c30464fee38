/* SPDX-License-Identifier: MIT */
#include "validate.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "caller.h"
#include "cleanup.h"
#include "etcview.h"
#include "path.h"
#include "probe.h"

#define SYSTEM_COPY_MAX (256L * 1024)

/* Kernel interfaces: a bind of these would hand the jail the host's knobs; and /run,
 * the host's sockets (a read-only mount does not stop connect(): systemd's and
 * D-Bus's sockets would answer the jail's uid 0). */
static const char *const kernel_trees[] = { "/proc", "/sys", "/dev", "/run" };
/* A workspace is bound read-write: never the system or its state (besides
 * sbx_system_trees). */
static const char *const state_trees[] = { "/var/lib", "/var/log", "/run" };

static bool path_is_under(const char *path, const char *root)
{
        return sbx_path_is_under(path, root);
}

static bool path_is_under_any(const char *path, const char *const *roots, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (path_is_under(path, roots[i]))
                        return true;
        return false;
}

/* @path lies in one of @roots, or holds one: binding "/", "/var" or "/run" would carry
 * the trees beneath along (a recursive bind), kernel knobs and host sockets with them. */
static bool path_overlaps_any(const char *path, const char *const *roots, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (path_is_under(path, roots[i]) || path_is_under(roots[i], path) || strcmp(path, "/") == 0)
                        return true;
        return false;
}

/* File systems that are the kernel's interfaces, or the host's IPC: never inside a
 * bind, wherever they are mounted (a container's own /proc under /var/lib/…, a
 * cgroupfs, a devpts with the host's terminals, an mqueue with its queues). */
static const char *const kernel_fstypes[] = {
        "proc",   "sysfs",    "cgroup",      "cgroup2", "debugfs", "tracefs", "securityfs",
        "bpf",    "configfs", "binfmt_misc", "efivarfs", "pstore", "fusectl", "devtmpfs",
        "devpts", "mqueue",   "rpc_pipefs",  "nfsd",
};

/* Undoes mountinfo's octal escapes (\040 for a space) in place. */
static void unescape(char *s)
{
        char *out = s;

        for (; *s; s++) {
                if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
                        *out++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 + (s[3] - '0'));
                        s += 3;
                } else {
                        *out++ = *s;
                }
        }
        *out = '\0';
}

static bool is_kernel_fstype(const char *fstype)
{
        for (size_t i = 0; i < ELEMENTSOF(kernel_fstypes); i++)
                if (strcmp(fstype, kernel_fstypes[i]) == 0)
                        return true;
        return false;
}

/* Refuses every bind of the caller's (the workspace among them) with a kernel file
 * system mounted at or below it: one pass over the host's mount table. */
static int check_submounts(const struct sbx_plan *p, struct sbx_error *e)
{
        _cleanup_(fclosep) FILE *f = fopen("/proc/self/mountinfo", "re");
        _cleanup_free_ char *line = NULL;
        size_t size = 0;

        if (!f)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "open", "/proc/self/mountinfo", "cannot list mounts to check the binds");
        while (getline(&line, &size, f) > 0) {
                char mp[4096], fstype[64];
                const char *sep = strstr(line, " - ");

                /* id parent maj:min root MOUNTPOINT opts... - FSTYPE source superopts */
                if (!sep || sscanf(sep + 3, "%63s", fstype) != 1 || !is_kernel_fstype(fstype) ||
                    sscanf(line, "%*s %*s %*s %*s %4095s", mp) != 1)
                        continue;
                unescape(mp);
                for (size_t i = 0; i < p->n_mounts; i++) {
                        const struct sbx_mount *m = &p->mounts[i];
                        int r;

                        if (m->system || (m->kind != SBX_MOUNT_RO && m->kind != SBX_MOUNT_RW) || !path_is_under(mp, m->source))
                                continue;
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", m->source,
                                          "'%s' holds a %s mount at '%s', a kernel interface", m->source, fstype, mp);
                        sbx_error_hint(e, "bind a directory below it that holds no such mount");
                        return r;
                }
        }
        return 0;
}

/* System entries: looked at without following, so a host symlink (/bin -> usr/bin)
 * becomes the same symlink in the jail; an entry the host lacks is dropped.  They
 * are root's, so the child may bind them by path. */
static int stat_system_entry(struct sbx_mount *m, bool *drop, struct sbx_error *e)
{
        char target[PATH_MAX];
        struct stat st;
        ssize_t n;

        if (lstat(m->source, &st) < 0) {
                if (errno == ENOENT || errno == EACCES || errno == ENOTDIR) {
                        *drop = true;
                        return 0;
                }
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "lstat", m->source, "cannot inspect system path");
        }
        if (S_ISLNK(st.st_mode)) {
                n = readlink(m->source, target, sizeof(target) - 1);
                if (n < 0)
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "readlink", m->source, "cannot read symlink");
                target[n] = '\0';
                free(m->source);
                m->source = strdup(target);
                if (!m->source)
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", m->dest, "out of memory");
                m->kind = SBX_MOUNT_SYMLINK;
                return 0;
        }
        if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode)) {
                *drop = true;
                return 0;
        }
        m->dev = st.st_dev;
        m->ino = st.st_ino;
        m->is_dir = S_ISDIR(st.st_mode);
        /* A small file is cheaper to copy into the read-only root than to bind (a
         * mount costs at setup and at teardown); the jail sees a snapshot. */
        if (S_ISREG(st.st_mode) && st.st_size <= SYSTEM_COPY_MAX)
                m->kind = SBX_MOUNT_COPY;
        return 0;
}

/* A filtered jail asks the egress broker for every name (lib/egress.h): its resolver
 * is the broker's listener, whatever the host's says. */
static int filtered_resolver(struct sbx_plan *p, struct sbx_error *e)
{
        static const char text[] = "# sbx: names are answered by the egress broker (network: filtered)\n"
                                   "nameserver 127.0.0.1\n";
        struct sbx_mount *m = NULL;
        int r;

        if (p->net != SBX_NET_FILTERED)
                return 0;
        for (size_t i = 0; i < p->n_mounts && !m; i++)
                if (p->mounts[i].system && strcmp(p->mounts[i].dest, "/etc/resolv.conf") == 0)
                        m = &p->mounts[i];
        if (!m) {
                if ((r = sbx_plan_add_mount(p, SBX_MOUNT_TEXT, text, "/etc/resolv.conf", 0, e)) < 0)
                        return r;
                m = &p->mounts[p->n_mounts - 1];
                m->system = true;
                return 0;
        }
        free(m->source);
        if (!(m->source = strdup(text)))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", m->dest, "out of memory");
        m->kind = SBX_MOUNT_TEXT;
        m->optional = false;
        return 0;
}

/* Binds the caller asked for: followed and canonicalized, then refused if they land in
 * the kernel's trees.  Opened as the caller (we run as the caller), so nothing the
 * caller could not reach is bound. */
/* The roots a caller's bind of @kind may come from, as one line for messages. */
static void roots_text(const struct sbx_plan *p, enum sbx_mount_kind kind, char *buf, size_t size)
{
        size_t o = 0;

        buf[0] = '\0';
        for (int pass = 0; pass < 2; pass++) {
                const struct sbx_strv *l = pass == 0 ? &p->roots_rw : &p->roots_ro;

                if (pass == 1 && kind == SBX_MOUNT_RW)
                        break;
                for (size_t i = 0; i < l->n && o < size; i++)
                        o += (size_t)snprintf(buf + o, size - o, "%s'%s'", o ? ", " : "", l->v[i]);
        }
        if (!buf[0])
                snprintf(buf, size, "none");
}

static bool under_roots(const struct sbx_strv *l, const char *path)
{
        for (size_t i = 0; i < l->n; i++)
                if (path_is_under(path, l->v[i]) || strcmp(l->v[i], "/") == 0)
                        return true;
        return false;
}

/* A bind the caller asked for must resolve under the profile's roots for its kind (a
 * read-only bind may also come from a read-write root). */
static int check_roots(const struct sbx_plan *p, const struct sbx_mount *m, const char *real, struct sbx_error *e)
{
        char roots[512];
        int r;

        if (!m->caller || under_roots(&p->roots_rw, real) || (m->kind == SBX_MOUNT_RO && under_roots(&p->roots_ro, real)))
                return 0;
        roots_text(p, m->kind, roots, sizeof(roots));
        r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", m->source, "profile '%s' does not allow --%s '%s' (it resolves to '%s'); allowed roots: %s",
                          p->name ? p->name : "?", m->kind == SBX_MOUNT_RW ? "rw" : "ro", m->source, real, roots);
        sbx_error_hint(e, "bind a path under an allowed root, or use a profile whose filesystem.bind_roots_%s allows it",
                       m->kind == SBX_MOUNT_RW ? "rw" : "ro");
        return r;
}

/* @dir looks like a git directory: a HEAD file, objects/ and refs/ (git's own test). */
static bool is_git_directory(struct sbx_caller *caller, const char *dir)
{
        static const struct {
                const char *name;
                bool dir;
        } parts[] = { { "HEAD", false }, { "objects", true }, { "refs", true } };
        char path[PATH_MAX];

        for (size_t i = 0; i < ELEMENTSOF(parts); i++) {
                _cleanup_close_ int fd = -1;
                struct sbx_error ignored = { 0 };
                struct stat st;

                if (snprintf(path, sizeof(path), "%s/%s", strcmp(dir, "/") == 0 ? "" : dir, parts[i].name) >= (int)sizeof(path) ||
                    caller->open(caller, path, O_PATH | O_NOFOLLOW, SBX_ACCESS_NONE, &fd, &ignored) < 0 || fstat(fd, &st) < 0 ||
                    (parts[i].dir ? !S_ISDIR(st.st_mode) : !S_ISREG(st.st_mode)))
                        return false;
        }
        return true;
}

/* A git directory is the host's git's own: config, hooks, commondir live there.  Never
 * written through a read-write bind or a workspace (filesystem.git says how the
 * workspace's own is seen): not a .git, not anything in one, not a bare repository. */
static int check_not_git(struct sbx_caller *caller, const char *real, const char *what, struct sbx_error *e)
{
        char dir[PATH_MAX];
        int r;

        snprintf(dir, sizeof(dir), "%s", real);
        for (;;) {
                const char *base = strrchr(dir, '/');

                if ((base && strcmp(base + 1, ".git") == 0) || is_git_directory(caller, dir)) {
                        r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", real,
                                          "refusing %s '%s': it is or lies in the git directory '%s', whose config and hooks the "
                                          "host's git runs",
                                          what, real, dir);
                        sbx_error_hint(e, "use the working tree instead, with the git profile to commit (filesystem.git: commit)");
                        return r;
                }
                if (!base || base == dir)
                        return 0;
                dir[base - dir] = '\0';
        }
}

/* Not @home itself or a directory above it (its dotfiles would be in reach), nor a
 * dot-directory of it (~/.ssh, ~/.config, ~/.local/bin...). */
static int check_home(const char *home, const char *real, const char *what, struct sbx_error *e)
{
        int r;

        if (!home || strcmp(home, "/") == 0 || home[0] != '/')
                return 0;
        if (path_is_under(home, real)) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", real,
                                  "refusing %s '%s': it is or holds your home directory '%s', whose dotfiles your shell and tools run",
                                  what, real, home);
                sbx_error_hint(e, "run from, or name, a project directory below your home");
                return r;
        }
        /* ~/.cache/sbx is sbx's own: caches that only jails use (the build profile's). */
        char own[PATH_MAX];

        snprintf(own, sizeof(own), "%s/.cache/sbx", home);
        if (path_is_under(real, home) && real[strlen(home) + 1] == '.' && !path_is_under(real, own)) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", real,
                                  "refusing %s '%s': it lies in a dot-directory of your home, where tools keep configuration and code they run",
                                  what, real);
                sbx_error_hint(e, "use a directory that is not configuration, or bind it read-only");
                return r;
        }
        return 0;
}

/* What the jail may write the host later reads as configuration or runs: never the
 * system, never the caller's home (under either spelling), never a git directory. */
static int check_writable_place(const struct sbx_plan *p, struct sbx_caller *caller, const char *real, const char *what,
                                struct sbx_error *e)
{
        int r;

        if (path_overlaps_any(real, sbx_system_trees, sbx_n_system_trees) ||
            path_overlaps_any(real, state_trees, ELEMENTSOF(state_trees))) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", real, "refusing %s '%s': it is or holds the system's own files", what, real);
                sbx_error_hint(e, "use a project directory");
                return r;
        }
        if ((r = check_home(p->home, real, what, e)) < 0 || (r = check_home(p->home_real, real, what, e)) < 0)
                return r;
        return check_not_git(caller, real, what, e);
}

/* mkdir -p of @path as the caller, each directory made 0700: a profile's place of its
 * own (filesystem.rw's `create: true`), such as ~/.cache/sbx/build. */
static int make_dirs(struct sbx_caller *caller, const char *path, struct sbx_error *e)
{
        char dir[PATH_MAX];
        size_t len = strlen(path);

        if (path[0] != '/' || len >= sizeof(dir))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EINVAL, "", path, "'%s' is not an absolute path", path);
        for (size_t i = 1; i <= len; i++) {
                _cleanup_close_ int fd = -1;
                struct sbx_error ignored = { 0 };
                char *slash;
                int r;

                if (path[i] != '/' && path[i] != '\0')
                        continue;
                memcpy(dir, path, i);
                dir[i] = '\0';
                if ((r = caller->open(caller, dir, O_PATH | O_DIRECTORY, SBX_ACCESS_NONE, &fd, &ignored)) == 0)
                        continue;
                if (r != -ENOENT) {
                        *e = ignored;
                        return r;
                }
                slash = strrchr(dir, '/');
                *slash = '\0';
                if ((r = caller->mkdir(caller, slash == dir ? "/" : dir, slash + 1, 0700, e)) < 0)
                        return r;
        }
        return 0;
}

static int open_user_bind(struct sbx_plan *p, struct sbx_caller *caller, struct sbx_mount *m, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;
        char real[PATH_MAX];
        struct stat st;
        int r;

        r = caller->open(caller, m->source, O_PATH, m->kind == SBX_MOUNT_RW ? SBX_ACCESS_WRITE : SBX_ACCESS_READ, &fd, e);
        if (r == -ENOENT && m->create) {
                *e = (struct sbx_error){ 0 };
                if ((r = make_dirs(caller, m->source, e)) < 0)
                        return r;
                r = caller->open(caller, m->source, O_PATH, SBX_ACCESS_WRITE, &fd, e);
        }
        if (r == -ENOENT && m->optional) {
                *e = (struct sbx_error){ 0 };
                return 1; /* an optional bind the host lacks is dropped */
        }
        if (r < 0) {
                sbx_error_hint(e, "check that the path exists and that you may reach it");
                return r;
        }
        if ((r = sbx_fd_path(fd, real, sizeof(real), m->source, e)) < 0)
                return r;
        if (path_overlaps_any(real, kernel_trees, ELEMENTSOF(kernel_trees))) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", m->source,
                                  "bind source resolves to '%s', which is or holds a kernel interface or the host's sockets", real);
                sbx_error_hint(e, "the jail has its own /proc and /dev; /sys and /run are never bound; bind a directory below '/'");
                return r;
        }
        if ((r = check_roots(p, m, real, e)) < 0 ||
            (m->kind == SBX_MOUNT_RW && !m->git && (r = check_writable_place(p, caller, real, "a read-write bind of", e)) < 0))
                return r;
        if (fstat(fd, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fstat", real, "cannot inspect bind source");
        if (!S_ISDIR(st.st_mode) && !S_ISREG(st.st_mode))
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EINVAL, "", real,
                                     "bind source is neither a directory nor a regular file");
        free(m->source);
        m->source = strdup(real);
        if (!m->source)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", real, "out of memory");
        m->dev = st.st_dev;
        m->ino = st.st_ino;
        m->is_dir = S_ISDIR(st.st_mode);
        return 0;
}

static int check_dest(const struct sbx_plan *p, const struct sbx_mount *m, struct sbx_error *e)
{
        int r;

        if (m->system)
                return 0;
        /* Nothing may be mounted at the workspace: it would replace it (a read-write
         * bind over a read-only workspace).  Mounts above it go first (parents before
         * children), so they cannot hide it. */
        if (p->workspace_mode != SBX_WS_NONE && p->workspace && strcmp(p->workspace, m->dest) == 0) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", m->dest, "a mount at '%s' would replace the workspace",
                                  m->dest);
                sbx_error_hint(e, "mount below the workspace or elsewhere; filesystem.workspace says how the workspace is bound");
                return r;
        }
        /* A tmpfs at exactly /dev/shm is not a mount over /dev: it sizes the jail's own
         * /dev/shm, which mount.c builds with /dev (sbx_plan_shm_size()).  Raising it
         * past the profile's is allowed, as for /tmp: tmpfs pages are charged to the
         * memory cgroup of the jail that writes them, and the tmpfs dies with the
         * jail's mount namespace, so its size is a cap on what the jail may fill of
         * its own memory limit, not a host resource (and memfd_create, System V shm
         * and /tmp reach the same memory without it). */
        if (path_is_under_any(m->dest, kernel_trees, ELEMENTSOF(kernel_trees)) && !sbx_mount_is_shm(m)) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", m->dest,
                                  "cannot mount over the jail's own /proc or /dev");
                sbx_error_hint(e, "choose another destination");
                return r;
        }
        /* Landlock's execute right is attached to what sits at an allowlisted path once
         * the mounts are made, and the loader maps libraries Landlock does not ask
         * about: under an allowlist, the caller's mounts stay off the system's files
         * (programs, libraries, the loader and its /etc). */
        if (p->exec_restricted && m->caller && path_overlaps_any(m->dest, sbx_system_trees, sbx_n_system_trees)) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", m->dest,
                                  "profile '%s' has an execute allowlist: nothing may be mounted at or over the system's files ('%s')",
                                  p->name ? p->name : "?", m->dest);
                sbx_error_hint(e, "mount elsewhere (e.g. below /opt or /mnt), or use a profile without an allowlist");
                return r;
        }
        return 0;
}

/* The workspace: a directory the caller may write (read, for a read-only one), never
 * the system, never the home directory or its dot-directories. */
static int resolve_workspace(struct sbx_plan *p, struct sbx_caller *caller, struct stat *ret_st, struct sbx_error *e)
{
        _cleanup_free_ char *cwd = NULL;
        _cleanup_close_ int fd = -1;
        const char *ws = p->workspace;
        char real[PATH_MAX];
        struct stat st;
        int r;

        if (!ws) {
                cwd = getcwd(NULL, 0);
                if (!cwd)
                        return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "getcwd", "", "cannot find the current directory for the workspace");
                ws = cwd;
        }
        r = caller->open(caller, ws, O_PATH | O_DIRECTORY, p->workspace_mode == SBX_WS_RW ? SBX_ACCESS_WRITE : SBX_ACCESS_READ, &fd, e);
        if (r < 0) {
                sbx_error_hint(e, "--workspace must name an existing directory you may %s", p->workspace_mode == SBX_WS_RW ? "write" : "read");
                return r;
        }
        if ((r = sbx_fd_path(fd, real, sizeof(real), ws, e)) < 0)
                return r;
        if (path_overlaps_any(real, kernel_trees, ELEMENTSOF(kernel_trees))) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", real, "refusing '%s' as the workspace: it is or holds a kernel interface", real);
                sbx_error_hint(e, "run from, or pass --workspace, a project directory");
                return r;
        }
        if (p->workspace_mode == SBX_WS_RW && (r = check_writable_place(p, caller, real, "the workspace", e)) < 0)
                return r;
        if (p->workspace_mode == SBX_WS_RO && path_overlaps_any(real, sbx_system_trees, sbx_n_system_trees)) {
                r = sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", real, "refusing a system directory '%s' as the workspace", real);
                sbx_error_hint(e, "run from, or pass --workspace, a project directory");
                return r;
        }
        if (fstat(fd, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, errno, "fstat", real, "cannot inspect the workspace");
        free(p->workspace);
        p->workspace = strdup(real);
        if (!p->workspace)
                return sbx_error_set(e, SBX_STAGE_VALIDATE, ENOMEM, "", real, "out of memory");
        *ret_st = st;
        return 0;
}

/* The workspace goes right after the system view, before the caller's own mounts,
 * so that those can be placed inside it; its identity is the one resolved above. */
static int insert_workspace_mount(struct sbx_plan *p, const struct stat *st, struct sbx_error *e)
{
        size_t at = 0;
        struct sbx_mount m;
        int r;

        while (at < p->n_mounts && p->mounts[at].system)
                at++;
        r = sbx_plan_add_mount(p, p->workspace_mode == SBX_WS_RO ? SBX_MOUNT_RO : SBX_MOUNT_RW, p->workspace, p->workspace, 0, e);
        if (r < 0)
                return r;
        m = p->mounts[p->n_mounts - 1];
        m.dev = st->st_dev;
        m.ino = st->st_ino;
        m.is_dir = true;
        memmove(&p->mounts[at + 1], &p->mounts[at], (p->n_mounts - 1 - at) * sizeof(m));
        p->mounts[at] = m;
        return r;
}

static void drop_mount(struct sbx_plan *p, size_t i)
{
        free(p->mounts[i].source);
        free(p->mounts[i].dest);
        memmove(&p->mounts[i], &p->mounts[i + 1], (p->n_mounts - i - 1) * sizeof(p->mounts[0]));
        p->n_mounts--;
}

static size_t depth(const struct sbx_mount *m)
{
        size_t n = 0;

        /* Masks go last, over whatever the binds put there. */
        if (m->kind == SBX_MOUNT_MASK)
                return SIZE_MAX;
        for (const char *c = m->dest; *c; c++)
                n += *c == '/';
        return n;
}

/* Parents before children, otherwise in plan order (a stable insertion sort): a tmpfs
 * at /tmp written after a bind at /tmp/x would hide it. */
static void order_mounts(struct sbx_plan *p)
{
        for (size_t i = 1; i < p->n_mounts; i++) {
                struct sbx_mount m = p->mounts[i];
                size_t j = i;

                while (j > 0 && depth(&p->mounts[j - 1]) > depth(&m)) {
                        p->mounts[j] = p->mounts[j - 1];
                        j--;
                }
                p->mounts[j] = m;
        }
}

/* The sockets the plan hides (sandboxd's own, when it listens outside /run): wherever
 * a bind carries one, by its canonical source, /dev/null goes over it, so that no
 * jailed command can ask for a looser jail.  Last: the masks land on the binds. */
static int mask_hidden(struct sbx_plan *p, struct sbx_error *e)
{
        size_t n = p->n_mounts;

        for (size_t h = 0; h < p->hide.n; h++) {
                const char *sock = p->hide.v[h];

                for (size_t i = 0; i < n; i++) {
                        const struct sbx_mount *m = &p->mounts[i];
                        size_t len = m->source ? strlen(m->source) : 0;
                        bool root = m->source && strcmp(m->source, "/") == 0;
                        char dest[PATH_MAX];
                        int r;

                        if ((m->kind != SBX_MOUNT_RO && m->kind != SBX_MOUNT_RW) || !len ||
                            strncmp(sock, m->source, len) != 0 || (sock[len] != '/' && !root))
                                continue;
                        snprintf(dest, sizeof(dest), "%s%s", strcmp(m->dest, "/") == 0 ? "" : m->dest, sock + (root ? 0 : len));
                        if ((r = sbx_plan_add_mount(p, SBX_MOUNT_MASK, NULL, dest, 0, e)) < 0)
                                return r;
                }
        }
        return 0;
}

int sbx_validate(struct sbx_plan *p, struct sbx_caller *caller, struct sbx_error *e)
{
        struct stat ws = { 0 };
        int r;

        /* A setuid sbx-run would make every option a privilege; refuse to be one. */
        if (getuid() != geteuid() || getgid() != getegid())
                return sbx_error_set(e, SBX_STAGE_VALIDATE, EPERM, "", "", "sbx-run is running setuid or setgid, which it must never be");
        if (!p->run_as) {
                p->uid = getuid();
                p->gid = getgid();
        }
        /* A user namespace for the jail where this process has no CAP_SYS_ADMIN: not
         * root, or a container's root (probe.h) -- sandboxd's too, whose launcher maps
         * the caller's ids into it (lib/jail.c). */
        p->userns = sbx_probe_need_userns();
        p->idmap_system = p->uid == 0 && !p->userns;
        p->root_userns = p->idmap_system && p->caps == 0;

        if (p->workspace_mode != SBX_WS_NONE && (r = resolve_workspace(p, caller, &ws, e)) < 0)
                return r;
        if ((r = sbx_etc_view_add_packaged(p, e)) < 0 || (r = filtered_resolver(p, e)) < 0)
                return r;

        for (size_t i = 0; i < p->n_mounts;) {
                struct sbx_mount *m = &p->mounts[i];
                bool drop = false;

                if ((r = check_dest(p, m, e)) < 0)
                        return r;
                if (m->kind == SBX_MOUNT_RO || m->kind == SBX_MOUNT_RW) {
                        r = m->system ? stat_system_entry(m, &drop, e) : open_user_bind(p, caller, m, e);
                        if (r < 0)
                                return r;
                        drop |= r == 1;
                }
                /* What the system view carries under /etc: never a secret (lib/etcview.c). */
                if (!drop && (r = sbx_etc_view_screen(p, i, &drop, e)) < 0)
                        return r;
                if (drop)
                        drop_mount(p, i);
                else
                        i++;
        }
        if (p->workspace_mode != SBX_WS_NONE && (r = insert_workspace_mount(p, &ws, e)) < 0)
                return r;
        order_mounts(p);
        if ((r = sbx_check_mount_points(p, caller, e)) < 0 || (r = check_submounts(p, e)) < 0)
                return r;
        return mask_hidden(p, e);
}
