/* SPDX-License-Identifier: MIT */
/* Child, after clone; own mount and PID namespaces; full capabilities in the user
 * namespace that owns them.  Every path inside the new root is reached through the
 * root's fd with RESOLVE_IN_ROOT, so a symlink in the jail's tree (a host /etc symlink
 * recreated, or one inside a bind) can never lead a mount outside the new root. */
#include "mount.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdio.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "cleanup.h"

/* Where the new root is assembled: a tmpfs over /tmp in our private mount namespace
 * (the host's /tmp is untouched; binds come from fds opened before, so hiding it does
 * not matter). */
#define NEW_ROOT "/tmp"

/* The device numbers are the kernel's fixed ABI (Documentation/admin-guide/devices.txt). */
static const struct {
        const char *name;
        unsigned major, minor;
} dev_nodes[] = {
        { "null", 1, 3 }, { "zero", 1, 5 }, { "full", 1, 7 }, { "random", 1, 8 }, { "urandom", 1, 9 }, { "tty", 5, 0 },
};
static const struct {
        const char *target, *path;
} dev_links[] = {
        { "/proc/self/fd", "dev/fd" },     { "/proc/self/fd/0", "dev/stdin" },
        { "/proc/self/fd/1", "dev/stdout" }, { "/proc/self/fd/2", "dev/stderr" },
        { "pts/ptmx", "dev/ptmx" },
};
/* What a jail's own /proc would still tell about the host, hidden: a file behind
 * /dev/null, a directory behind an empty read-only tmpfs.  /proc itself is mounted
 * read-only, which makes /proc/sys and /proc/sysrq-trigger read-only even to a uid 0
 * inside.  Two kinds, and each entry is one or both:
 *   host-identifying: what names this machine, its boot, its disks and devices, or
 *     its administrator's choices, beyond what the jail needs to run a command (the
 *     kernel's command line and build configuration, the boot id, partitions, swap
 *     files, the PCI/ACPI/SCSI/sound/driver trees, loaded modules);
 *   kernel-layout: memory and symbol maps, allocator and zone state, page flags,
 *     timers with host pids, interrupt counters (which time the host's keystrokes):
 *     help for a kernel exploit or a side channel, nothing a command needs.
 * Also the files only root may read (mode 0400), which a uid 0 without capabilities
 * still can.  (kcore and kmsg need capabilities the jail never has.)  Left visible
 * on purpose: meminfo, cpuinfo, stat, loadavg, uptime, version, vmstat, filesystems,
 * mounts (per namespace), which ps, top, free, nproc, JVMs and build tools read. */
static const char *const proc_masks[] = {
        /* host-identifying */
        "proc/cmdline", "proc/config.gz", "proc/bootconfig", "proc/version_signature",
        "proc/sys/kernel/random/boot_id", "proc/partitions", "proc/diskstats", "proc/swaps", "proc/mdstat",
        "proc/modules", "proc/consoles", "proc/devices", "proc/misc", "proc/dma", "proc/fb", "proc/mtrr",
        "proc/keys", "proc/key-users",
        "proc/acpi", "proc/asound", "proc/bus", "proc/driver", "proc/scsi", "proc/irq", "proc/fs",
        "proc/device-tree", "proc/tty/driver",
        /* kernel-layout */
        "proc/kallsyms", "proc/iomem", "proc/ioports", "proc/buddyinfo", "proc/zoneinfo", "proc/pagetypeinfo",
        "proc/slabinfo", "proc/vmallocinfo", "proc/allocinfo", "proc/kpageflags", "proc/kpagecount",
        "proc/kpagecgroup", "proc/timer_list", "proc/sched_debug", "proc/latency_stats", "proc/lock_stat",
        "proc/interrupts", "proc/softirqs",
};

/* @follow: symlinks in the jail's tree are followed (inside it), as the system view
 * needs (/lib -> usr/lib).  A mount the caller or a profile asked for is reached without
 * any: a symlink in one bind (x -> /usr/bin) must not carry another bind onto the
 * system's files. */
static int openat2_in_root(int root, const char *path, int flags, bool follow)
{
        struct open_how how = {
                .flags = (uint64_t)(flags | O_CLOEXEC),
                .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS | (follow ? 0 : RESOLVE_NO_SYMLINKS),
        };

        return (int)syscall(SYS_openat2, root, path, &how, sizeof(how));
}

/* mkdir -p of @path's directories (all of them when @last, else all but the last
 * component) inside @root; returns an O_PATH fd on the deepest one. */
static int make_parents(int root, const char *path, bool last, bool follow, struct sbx_error *e)
{
        char buf[4096];
        char *c;
        int fd;

        sbx_strlcpy(buf, path[0] == '/' ? path + 1 : path, sizeof(buf));
        if (!last) {
                c = strrchr(buf, '/');
                if (!c)
                        return openat2_in_root(root, ".", O_PATH | O_DIRECTORY, follow);
                *c = '\0';
        }
        for (c = buf;; c++) {
                if (*c != '/' && *c != '\0')
                        continue;
                char saved = *c;
                *c = '\0';
                fd = openat2_in_root(root, buf, O_PATH | O_DIRECTORY, follow);
                if (fd < 0 && errno == ENOENT) {
                        /* Created through the parent found in root, never a host path. */
                        char *slash = strrchr(buf, '/');
                        _cleanup_close_ int parent = -1;

                        if (slash) {
                                *slash = '\0';
                                parent = openat2_in_root(root, buf, O_PATH | O_DIRECTORY, follow);
                                *slash = '/';
                        } else {
                                parent = openat2_in_root(root, ".", O_PATH | O_DIRECTORY, follow);
                        }
                        if (parent < 0 || (mkdirat(parent, slash ? slash + 1 : buf, 0755) < 0 && errno != EEXIST)) {
                                int r = sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mkdirat", path, "cannot create mount point");
                                if (errno == EROFS)
                                        sbx_error_hint(e, "the destination lies inside a read-only bind and does not exist there");
                                return r;
                        }
                        fd = openat2_in_root(root, buf, O_PATH | O_DIRECTORY, follow);
                }
                if (fd < 0)
                        return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat2", path, "cannot reach mount point");
                *c = saved;
                if (saved == '\0')
                        return fd;
                close(fd);
        }
}

static const char *base_name(const char *path)
{
        const char *s = strrchr(path, '/');
        return s ? s + 1 : path;
}

/* The fd of the mount point for @dest, created as a directory or an empty file. */
static int mount_point(int root, const char *dest, bool is_dir, bool follow, struct sbx_error *e)
{
        _cleanup_close_ int parent = -1;
        int fd;

        if (is_dir) {
                fd = make_parents(root, dest, true, follow, e);
                return fd;
        }
        parent = make_parents(root, dest, false, follow, e);
        if (parent < 0)
                return parent;
        fd = openat(parent, base_name(dest), O_CREAT | O_EXCL | O_RDONLY | O_NOFOLLOW | O_CLOEXEC, 0444);
        if (fd >= 0)
                return fd;
        if (errno != EEXIST)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat", dest, "cannot create file mount point");
        fd = openat2_in_root(root, dest, O_PATH, follow);
        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat2", dest, "cannot reach mount point");
        return fd;
}

/* A detached copy of the tree at @src_fd/@src_path with @attrs, recursively:
 * submounts of a read-only bind are read-only too (a plain MS_BIND|MS_REMOUNT would
 * leave them writable).  Detached, it is immune to what is mounted afterwards. */
static int clone_tree(int src_fd, const char *src_path, uint64_t attrs, const char *dest, struct sbx_error *e)
{
        struct mount_attr attr = { .attr_set = attrs };
        int tree;

        tree = (int)syscall(SYS_open_tree, src_fd, src_path,
                            OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC | AT_RECURSIVE | AT_SYMLINK_NOFOLLOW |
                            (src_path[0] ? 0 : AT_EMPTY_PATH));
        if (tree < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "open_tree", dest, "cannot clone bind source");
        if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) < 0) {
                close(tree);
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mount_setattr", dest, "cannot set bind flags");
        }
        return tree;
}

static int attach(int tree, int target_fd, const char *dest, struct sbx_error *e)
{
        if (syscall(SYS_move_mount, tree, "", target_fd, "", MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "move_mount", dest, "cannot attach bind");
        return 0;
}

static int attach_tree(int src_fd, const char *src_path, int target_fd, uint64_t attrs, const char *dest,
                       struct sbx_error *e)
{
        _cleanup_close_ int tree = clone_tree(src_fd, src_path, attrs, dest, e);

        if (tree < 0)
                return tree;
        return attach(tree, target_fd, dest, e);
}

/* mount(2) wants a path: the target fd's magic link in the host's /proc, still
 * visible before pivot_root. */
static int mount_on_fd(const char *source, int target_fd, const char *type, unsigned long flags,
                       const char *data, const char *dest, struct sbx_error *e)
{
        char path[64];

        snprintf(path, sizeof(path), "/proc/self/fd/%d", target_fd);
        if (mount(source, path, type, flags, data) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mount", dest, "cannot mount %s", type);
        return 0;
}

/* The caller's binds: the canonical path validation checked, reopened here in our
 * own mount namespace (an fd from the host's cannot be cloned into it), refusing any
 * symlink on the way and anything but the very inode that was checked. */
static int open_checked_source(const struct sbx_mount *m, struct sbx_error *e)
{
        struct open_how how = { .flags = O_PATH | O_CLOEXEC, .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS };
        struct stat st;
        int fd = (int)syscall(SYS_openat2, AT_FDCWD, m->source, &how, sizeof(how));

        if (fd < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat2", m->source, "bind source changed since it was checked");
        if (fstat(fd, &st) < 0 || st.st_dev != m->dev || st.st_ino != m->ino) {
                close(fd);
                return sbx_error_set(e, SBX_STAGE_MOUNT, EXDEV, "fstat", m->source, "bind source changed since it was checked");
        }
        return fd;
}

static int copy_file(int root, const struct sbx_mount *m, struct sbx_error *e)
{
        _cleanup_close_ int parent = make_parents(root, m->dest, false, m->system, e);
        _cleanup_close_ int src = -1, dst = -1;
        struct stat st;

        if (parent < 0)
                return parent;
        src = open(m->source, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
        if (src < 0 || fstat(src, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "open", m->source, "cannot read system file");
        if (st.st_dev != m->dev || st.st_ino != m->ino)
                return sbx_error_set(e, SBX_STAGE_MOUNT, EXDEV, "fstat", m->source, "system file changed since it was checked");
        dst = openat(parent, base_name(m->dest), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
        if (dst < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat", m->dest, "cannot create file copy");
        for (off_t left = st.st_size; left > 0;) {
                ssize_t n = sendfile(dst, src, NULL, (size_t)left);
                if (n <= 0)
                        return sbx_error_set(e, SBX_STAGE_MOUNT, n < 0 ? errno : EIO, "sendfile", m->dest, "cannot copy system file");
                left -= n;
        }
        return 0;
}

static int write_text(int root, const struct sbx_mount *m, struct sbx_error *e)
{
        _cleanup_close_ int parent = make_parents(root, m->dest, false, m->system, e);
        _cleanup_close_ int dst = -1;
        size_t len = strlen(m->source);

        if (parent < 0)
                return parent;
        dst = openat(parent, base_name(m->dest), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0444);
        if (dst < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat", m->dest, "cannot create file");
        if (write(dst, m->source, len) != (ssize_t)len)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno ? errno : EIO, "write", m->dest, "cannot write file");
        return 0;
}

/* Step 1: every bind's source, cloned while the host's tree is still whole. */
/* The system view, idmapped through lib/identity.h's namespace: root's files there
 * are nobody's to root's command.  A file system that cannot be idmapped (the
 * kernel's list: ext4, xfs, btrfs, tmpfs, overlayfs...) keeps its plain bind, and
 * @out says so. */
static void idmap_tree(int tree, int idmap, const char *dest, struct sbx_mount_out *out)
{
        struct mount_attr attr = { .attr_set = MOUNT_ATTR_IDMAP, .userns_fd = (uint64_t)idmap };

        if (syscall(SYS_mount_setattr, tree, "", AT_EMPTY_PATH | AT_RECURSIVE, &attr, sizeof(attr)) == 0 || out->weak[0])
                return;
        snprintf(out->weak, sizeof(out->weak), "identity: %s cannot be idmapped (%s): root's owner-only files there are readable to root's command",
                 dest, strerror(errno));
}

static int clone_bind(const struct sbx_mount *m, bool noexec, int idmap, struct sbx_mount_out *out, struct sbx_error *e)
{
        _cleanup_close_ int source = -1;
        uint64_t attrs = MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | (m->kind == SBX_MOUNT_RO ? MOUNT_ATTR_RDONLY : 0);

        /* Under an execute allowlist nothing the jail writes and nothing the caller
         * brings in may be run or mapped executable: Landlock guards execve, noexec
         * also guards the loader's mmap of a library (LD_PRELOAD).  filesystem.git's
         * binds hold what a jail wrote (objects a git-profile run made).  A profile's
         * own read-only binds are its author's tools, and stay executable. */
        if (noexec && !m->system && (m->kind == SBX_MOUNT_RW || m->caller || m->git))
                attrs |= MOUNT_ATTR_NOEXEC;

        /* System entries are root's own paths: cloned by name, one syscall. */
        if (m->system) {
                int tree = clone_tree(AT_FDCWD, m->source, attrs, m->dest, e);

                if (tree >= 0 && idmap >= 0)
                        idmap_tree(tree, idmap, m->dest, out);
                return tree;
        }
        source = open_checked_source(m, e);
        if (source < 0)
                return source;
        return clone_tree(source, "", attrs, m->dest, e);
}

/* A private tmpfs for the top of a git directory (policy/gitcommit.c): made with
 * fsopen/fsmount, so that the launcher can be handed its mount fd and read what the
 * command left there after the jail is gone; filled with the copies before it is
 * attached, so the command never sees it half-filled.  Owned by the command's uid
 * (sandboxd's command is not this process's). */
static int make_state(const struct sbx_plan *p, const struct sbx_mount *m, struct sbx_error *e)
{
        _cleanup_close_ int fs = -1, top = -1;
        int mnt;
        char size[32];

        snprintf(size, sizeof(size), "%llu", (unsigned long long)m->size);
        fs = (int)syscall(SYS_fsopen, "tmpfs", FSOPEN_CLOEXEC);
        if (fs < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "fsopen", m->dest, "cannot make a tmpfs");
        if (syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "size", size, 0) < 0 ||
            syscall(SYS_fsconfig, fs, FSCONFIG_SET_STRING, "mode", "0755", 0) < 0 ||
            syscall(SYS_fsconfig, fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "fsconfig", m->dest, "cannot make a tmpfs");
        mnt = (int)syscall(SYS_fsmount, fs, FSMOUNT_CLOEXEC, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC);
        if (mnt < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "fsmount", m->dest, "cannot make a tmpfs");
        top = openat(mnt, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (top < 0 || (p->run_as && fchown(top, p->uid, p->gid) < 0)) {
                close(mnt);
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "fchown", m->dest, "cannot hand the tmpfs to uid %u", (unsigned)p->uid);
        }
        for (size_t i = 0; i < m->n_files; i++) {
                const struct sbx_state_file *f = &m->files[i];
                _cleanup_close_ int dst = openat(top, f->name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, f->mode & 0777);
                struct stat st;
                off_t at = 0;

                if (dst < 0 || fstat(f->fd, &st) < 0 || (p->run_as && fchown(dst, p->uid, p->gid) < 0)) {
                        close(mnt);
                        return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat", f->name, "cannot copy '%s' into '%s'", f->name, m->dest);
                }
                while (at < st.st_size) {
                        ssize_t n = sendfile(dst, f->fd, &at, (size_t)(st.st_size - at));

                        if (n <= 0) {
                                close(mnt);
                                return sbx_error_set(e, SBX_STAGE_MOUNT, n < 0 ? errno : EIO, "sendfile", f->name, "cannot copy '%s' into '%s'",
                                                     f->name, m->dest);
                        }
                }
        }
        return mnt;
}

/* A fresh file system of @type (its own source name too) at @dest in @root. */
static int mount_new(int root, const char *dest, bool follow, const char *type, unsigned long flags, const char *data,
                     struct sbx_error *e)
{
        _cleanup_close_ int target = mount_point(root, dest, true, follow, e);

        if (target < 0)
                return target;
        return mount_on_fd(type, target, type, flags, data, dest, e);
}

/* A profile's mask: a directory under an empty read-only tmpfs, a file under
 * /dev/null.  What the jail does not have needs no mask. */
static int apply_mask(int root, const char *dest, bool follow, struct sbx_error *e)
{
        _cleanup_close_ int target = openat2_in_root(root, dest, O_PATH | O_NOFOLLOW, follow);
        struct stat st;

        if (target < 0)
                return 0;
        if (fstat(target, &st) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "fstat", dest, "cannot inspect the path to mask");
        if (S_ISDIR(st.st_mode))
                return mount_on_fd("tmpfs", target, "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV | MS_NOEXEC, "mode=0555,size=4k", dest, e);
        return attach_tree(AT_FDCWD, "/dev/null", target,
                           MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC | MOUNT_ATTR_NODEV, dest, e);
}

/* The device of the tmpfs just mounted at @dest, for the connect broker. */
static void note_private(struct sbx_mount_out *out, int root, const char *dest)
{
        _cleanup_close_ int fd = openat2_in_root(root, dest, O_PATH | O_DIRECTORY, true);
        struct stat st;

        if (fd >= 0 && fstat(fd, &st) == 0 && out->n_private < SBX_MAX_PRIVATE)
                out->private_devs[out->n_private++] = st.st_dev;
}

static int apply_one(int root, const struct sbx_mount *m, int tree, bool noexec, struct sbx_mount_out *out, struct sbx_error *e)
{
        _cleanup_close_ int target = -1;
        _cleanup_close_ int parent = -1;
        char data[64];
        int r;

        switch (m->kind) {
        case SBX_MOUNT_SYMLINK:
                parent = make_parents(root, m->dest, false, m->system, e);
                if (parent < 0)
                        return parent;
                if (symlinkat(m->source, parent, base_name(m->dest)) < 0 && errno != EEXIST)
                        return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "symlinkat", m->dest, "cannot create symlink");
                return 0;
        case SBX_MOUNT_COPY:
                return copy_file(root, m, e);
        case SBX_MOUNT_TEXT:
                return write_text(root, m, e);
        case SBX_MOUNT_TMPFS:
                if (sbx_mount_is_shm(m)) /* its size is /dev/shm's: apply_dev() */
                        return 0;
                snprintf(data, sizeof(data), "mode=1777,size=%llu", (unsigned long long)m->size);
                if ((r = mount_new(root, m->dest, m->system, "tmpfs", MS_NOSUID | MS_NODEV | (noexec ? MS_NOEXEC : 0), data, e)) < 0)
                        return r;
                note_private(out, root, m->dest);
                return 0;
        case SBX_MOUNT_MASK:
                return apply_mask(root, m->dest, m->system, e);
        case SBX_MOUNT_STATE: /* the tree is the tmpfs make_state made */
        case SBX_MOUNT_RO:
        case SBX_MOUNT_RW:
                target = mount_point(root, m->dest, m->kind == SBX_MOUNT_STATE || m->is_dir, m->system, e);
                if (target < 0)
                        return target;
                return attach(tree, target, m->dest, e);
        }
        return sbx_error_set(e, SBX_STAGE_MOUNT, EINVAL, "", m->dest, "unknown mount kind");
}

/* A minimal /dev: the harmless character devices bound from the host (a user
 * namespace cannot mknod), a private devpts, a private /dev/shm
 * of the plan's size (sbx_plan_shm_size()). */
const char *sbx_mount_dev_node(size_t i)
{
        return i < ELEMENTSOF(dev_nodes) ? dev_nodes[i].name : NULL;
}

static int make_dev_nodes(int root, int dev, bool userns, struct sbx_error *e)
{
        char path[64];
        int r;

        for (size_t i = 0; i < ELEMENTSOF(dev_nodes); i++) {
                _cleanup_close_ int target = -1;

                /* As root, a node is one syscall; a user namespace may not mknod, so
                 * there the host's node is bound instead. */
                if (!userns) {
                        if (mknodat(dev, dev_nodes[i].name, S_IFCHR | 0666, makedev(dev_nodes[i].major, dev_nodes[i].minor)) < 0)
                                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mknodat", dev_nodes[i].name, "cannot create device node");
                        continue;
                }
                snprintf(path, sizeof(path), "/dev/%s", dev_nodes[i].name);
                target = mount_point(root, path, false, true, e);
                if (target < 0)
                        return target;
                r = attach_tree(AT_FDCWD, path, target, MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, path, e);
                if (r < 0)
                        return r;
        }
        return 0;
}

static int apply_dev(int root, const struct sbx_plan *p, struct sbx_mount_out *out, struct sbx_error *e)
{
        _cleanup_close_ int dev = -1;
        bool noexec = p->exec_restricted;
        char shm[64];
        int r;

        /* Not nodev: it holds the nodes (made here as root).  Read-only once built
         * (a device node stays writable on a read-only mount), and the jail can make
         * no node of its own (no CAP_MKNOD, no Landlock MAKE_CHAR/MAKE_BLOCK). */
        r = mount_new(root, "/dev", true, "tmpfs", MS_NOSUID | MS_NOEXEC, "mode=0755,size=64k", e);
        if (r < 0)
                return r;
        dev = openat2_in_root(root, "dev", O_PATH | O_DIRECTORY, true);
        if (dev < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "openat2", "/dev", "cannot open the new /dev");
        snprintf(shm, sizeof(shm), "mode=1777,size=%llu", (unsigned long long)sbx_plan_shm_size(p));
        if ((r = make_dev_nodes(root, dev, p->userns, e)) < 0 ||
            (r = mount_new(root, "/dev/pts", true, "devpts", MS_NOSUID | MS_NOEXEC,
                           "newinstance,ptmxmode=0666,mode=0620", e)) < 0 ||
            (r = mount_new(root, "/dev/shm", true, "tmpfs", MS_NOSUID | MS_NODEV | (noexec ? MS_NOEXEC : 0), shm, e)) < 0)
                return r;
        note_private(out, root, "/dev/shm");
        for (size_t i = 0; i < ELEMENTSOF(dev_links); i++)
                if (symlinkat(dev_links[i].target, root, dev_links[i].path) < 0)
                        return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "symlinkat", dev_links[i].path, "cannot create /dev link");
        if (syscall(SYS_mount_setattr, dev, "", AT_EMPTY_PATH, &(struct mount_attr){ .attr_set = MOUNT_ATTR_RDONLY },
                    sizeof(struct mount_attr)) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mount_setattr", "/dev", "cannot make /dev read-only");
        return 0;
}

static int apply_proc(int root, bool userns, struct sbx_error *e)
{
        int r;

        /* Our own PID namespace's /proc, read-only: no sysctl, no sysrq, no
         * /proc/self/... writes that could reach past the jail. */
        r = mount_new(root, "/proc", true, "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL, e);
        if (r < 0) {
                if (userns && r == -EPERM)
                        sbx_error_hint(e, "the host /proc has paths masked (a container?): the kernel refuses a new /proc in a user namespace; run as root or through sandboxd");
                return r;
        }
        /* (an entry this kernel does not have needs no mask) */
        for (size_t i = 0; i < ELEMENTSOF(proc_masks); i++)
                if ((r = apply_mask(root, proc_masks[i], true, e)) < 0)
                        return r;
        return 0;
}

/* pivot_root(".", "."): the old root ends up stacked under the new one and is
 * detached at once, so no path to the host remains. */
static int enter_root(struct sbx_error *e)
{
        struct mount_attr ro = { .attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV };

        if (chdir(NEW_ROOT) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "chdir", NEW_ROOT, "cannot enter new root");
        if (syscall(SYS_pivot_root, ".", ".") < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "pivot_root", NEW_ROOT, "cannot switch root");
        if (umount2(".", MNT_DETACH) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "umount2", "/", "cannot detach the old root");
        if (chdir("/") < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "chdir", "/", "cannot enter new root");
        /* The skeleton itself read-only: new top-level entries cannot be made. */
        if (syscall(SYS_mount_setattr, AT_FDCWD, "/", 0, &ro, sizeof(ro)) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mount_setattr", "/", "cannot make the root read-only");
        return 0;
}

static int build_root(const struct sbx_plan *p, const int *trees, struct sbx_mount_out *out, struct sbx_error *e);

/* The SBX_MOUNT_STATE tmpfs of @p, in plan order, for the launcher. */
static void state_fds_of(const struct sbx_plan *p, const int *trees, struct sbx_mount_out *out)
{
        size_t k = 0;
        struct stat st;

        for (size_t i = 0; i < p->n_mounts && k < SBX_MAX_STATE; i++)
                if (p->mounts[i].kind == SBX_MOUNT_STATE) {
                        out->state_fds[k++] = fcntl(trees[i], F_DUPFD_CLOEXEC, 3);
                        if (fstat(trees[i], &st) == 0 && out->n_private < SBX_MAX_PRIVATE)
                                out->private_devs[out->n_private++] = st.st_dev;
                }
}

static void close_all(int *fds, size_t n)
{
        for (size_t i = 0; i < n; i++)
                closep(&fds[i]);
}

int sbx_mount_apply(const struct sbx_plan *p, int idmap, struct sbx_mount_out *out, struct sbx_error *e)
{
        _cleanup_free_ int *trees = calloc(p->n_mounts ? p->n_mounts : 1, sizeof(*trees));
        int r;

        if (!trees)
                return sbx_error_set(e, SBX_STAGE_MOUNT, ENOMEM, "", "", "out of memory");
        out->weak[0] = '\0';
        /* 1. Nothing we mount propagates back to the host, nor the host's to us. */
        if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mount", "/", "cannot make mounts private");
        /* 2. Every bind source cloned, flags set, before anything is hidden. */
        for (size_t i = 0; i < p->n_mounts; i++) {
                const struct sbx_mount *m = &p->mounts[i];

                trees[i] = -1;
                if (m->kind != SBX_MOUNT_RO && m->kind != SBX_MOUNT_RW && m->kind != SBX_MOUNT_STATE)
                        continue;
                trees[i] = m->kind == SBX_MOUNT_STATE ? make_state(p, m, e) : clone_bind(m, p->exec_restricted, idmap, out, e);
                if (trees[i] < 0) {
                        close_all(trees, i);
                        return trees[i];
                }
        }
        /* Modes exactly as written (0666 device nodes, 1777 tmpfs): not the caller's
         * umask, which the command gets back. */
        mode_t mask = umask(0);
        for (size_t i = 0; i < SBX_MAX_STATE; i++)
                out->state_fds[i] = -1;
        out->n_private = 0;
        r = build_root(p, trees, out, e);
        umask(mask);
        if (r >= 0)
                state_fds_of(p, trees, out);
        close_all(trees, p->n_mounts);
        return r;
}

static int build_root(const struct sbx_plan *p, const int *trees, struct sbx_mount_out *out, struct sbx_error *e)
{
        _cleanup_close_ int root = -1;
        int r;

        /* 3. A tmpfs for the new root. */
        if (mount("sbx-root", NEW_ROOT, "tmpfs", MS_NOSUID | MS_NODEV, "mode=0755,size=8m,nr_inodes=4096") < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mount", NEW_ROOT, "cannot mount the root tmpfs");
        root = open(NEW_ROOT, O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (root < 0)
                return sbx_error_set(e, SBX_STAGE_MOUNT, errno, "open", NEW_ROOT, "cannot open the new root");
        /* 4. The plan's binds, tmpfs and symlinks, in order. */
        for (size_t i = 0; i < p->n_mounts; i++)
                if ((r = apply_one(root, &p->mounts[i], trees[i], p->exec_restricted, out, e)) < 0)
                        return r;
        /* 5. /dev and /proc. */
        if ((r = apply_dev(root, p, out, e)) < 0 || (!p->no_proc && (r = apply_proc(root, p->userns, e)) < 0))
                return r;
        /* 6. Switch. */
        return enter_root(e);
}
