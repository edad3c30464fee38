/* SPDX-License-Identifier: MIT */
/* Launcher side, before clone and after exit; only sbx_cgroup_join runs in the child.
 * Layout: v1: <controller mount>/<our own cgroup>/sbx-PID-NS (v1 has no rule against
 * processes in inner nodes).  v2: <mount>/sbx/sbx-PID-NS when root (the root cgroup
 * may enable controllers for its children whatever it holds), else a child of our own
 * cgroup when it was delegated to us with the controllers on. */
#include "cgroup.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <time.h>
#include <unistd.h>

#include "cleanup.h"

#define CGROUP_ROOT "/sys/fs/cgroup"

static int write_file(const char *dir, const char *file, const char *value)
{
        char path[PATH_MAX + 64];
        _cleanup_close_ int fd = -1;
        size_t len = strlen(value);

        snprintf(path, sizeof(path), "%s/%s", dir, file);
        fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        if (write(fd, value, len) != (ssize_t)len)
                return -errno;
        return 0;
}

static int read_file(const char *dir, const char *file, char *buf, size_t size)
{
        char path[PATH_MAX + 64];
        _cleanup_close_ int fd = -1;
        ssize_t n;

        snprintf(path, sizeof(path), "%s/%s", dir, file);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0)
                return -errno;
        n = read(fd, buf, size - 1);
        if (n < 0)
                return -errno;
        buf[n] = '\0';
        return 0;
}

static bool is_fs(const char *path, long magic)
{
        struct statfs sfs;
        return statfs(path, &sfs) == 0 && sfs.f_type == magic;
}

/* Our own cgroup path for @controller ("" for the v2 line) from /proc/self/cgroup. */
static int own_path(const char *controller, char *out, size_t size)
{
        char buf[4096];
        char *line, *save = NULL;
        int r = read_file("/proc/self", "cgroup", buf, sizeof(buf));

        if (r < 0)
                return r;
        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
                char *ctrls = strchr(line, ':');
                char *path = ctrls ? strchr(ctrls + 1, ':') : NULL;
                if (!path)
                        continue;
                *path++ = '\0';
                ctrls++;
                if (controller[0] == '\0' ? ctrls[0] == '\0' : false) {
                        sbx_strlcpy(out, path, size);
                        return 0;
                }
                for (char *c, *s2 = NULL, *list = ctrls; (c = strtok_r(list, ",", &s2)); list = NULL)
                        if (controller[0] && strcmp(c, controller) == 0) {
                                sbx_strlcpy(out, path, size);
                                return 0;
                        }
        }
        return -ENOENT;
}

/* Gone, or a zombie its new parent has yet to reap (a launcher whose sandboxd died). */
static bool pid_gone(pid_t pid)
{
        char path[64], buf[256], *end;
        ssize_t n;
        int fd;

        if (kill(pid, 0) < 0)
                return errno == ESRCH;
        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
        if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
                return errno == ENOENT;
        n = read(fd, buf, sizeof(buf) - 1);
        close(fd);
        if (n <= 0)
                return false;
        buf[n] = '\0';
        end = strrchr(buf, ')'); /* the name may hold anything, up to the last ')' */
        return end && end[1] == ' ' && end[2] == 'Z';
}

/* Removes sbx-PID-* cgroups whose launcher is gone (killed with SIGKILL, it could not
 * clean up).  rmdir refuses a populated cgroup, so a live jail is never touched. */
static void collect_stale(const char *base)
{
        DIR *d = opendir(base);
        struct dirent *de;

        if (!d)
                return;
        while ((de = readdir(d))) {
                char path[PATH_MAX + 300];
                long pid;

                if (strncmp(de->d_name, "sbx-", 4) != 0)
                        continue;
                pid = strtol(de->d_name + 4, NULL, 10);
                if (pid <= 0 || pid == getpid() || !pid_gone((pid_t)pid))
                        continue;
                snprintf(path, sizeof(path), "%s/%s", base, de->d_name);
                (void)rmdir(path);
        }
        closedir(d);
}

static int make_dir(const char *base, char *out, size_t size)
{
        struct timespec ts;

        clock_gettime(CLOCK_MONOTONIC, &ts);
        collect_stale(base);
        snprintf(out, size, "%s/sbx-%d-%lld%09ld", base, (int)getpid(), (long long)ts.tv_sec, ts.tv_nsec);
        return mkdir(out, 0755) < 0 ? -errno : 0;
}

static int set_u64(const char *dir, const char *file, uint64_t v)
{
        char buf[32];
        snprintf(buf, sizeof(buf), "%llu", (unsigned long long)v);
        return write_file(dir, file, buf);
}

static int setup_v2(struct sbx_cgroup *cg, const char *mnt, const struct sbx_plan *p, struct sbx_error *e)
{
        char base[PATH_MAX], own[PATH_MAX];
        int r;

        if (geteuid() == 0) {
                snprintf(base, sizeof(base), "%s/sbx", mnt);
                if (mkdir(base, 0755) < 0 && errno != EEXIST)
                        return -errno;
                (void)write_file(mnt, "cgroup.subtree_control", "+memory +pids");
        } else {
                if (own_path("", own, sizeof(own)) < 0)
                        return -ENOENT;
                snprintf(base, sizeof(base), "%s%s", mnt, own);
        }
        /* Fails when our own cgroup holds processes and lacks the controllers: then
         * no cgroup for us (the caller decides whether that is an error). */
        r = write_file(base, "cgroup.subtree_control", "+memory +pids");
        if (r < 0 && geteuid() == 0)
                return r;
        r = make_dir(base, cg->dir[0], sizeof(cg->dir[0]));
        if (r < 0)
                return r;
        cg->ndirs = 1;
        cg->version = 2;
        if (p->limits.memory) {
                if ((r = set_u64(cg->dir[0], "memory.max", p->limits.memory)) < 0)
                        return sbx_error_set(e, SBX_STAGE_CGROUP, r, "write", cg->dir[0], "cannot set memory.max");
                (void)write_file(cg->dir[0], "memory.swap.max", "0");
        }
        if (p->limits.pids && (r = set_u64(cg->dir[0], "pids.max", p->limits.pids)) < 0)
                return sbx_error_set(e, SBX_STAGE_CGROUP, r, "write", cg->dir[0], "cannot set pids.max");
        cg->clone_fd = open(cg->dir[0], O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (cg->clone_fd < 0)
                return sbx_error_set(e, SBX_STAGE_CGROUP, errno, "open", cg->dir[0], "cannot open the sandbox cgroup");
        cg->applied = SBX_APPLIED_CGROUP_V2 | (p->limits.memory ? SBX_APPLIED_MEMORY_LIMIT : 0) |
                      (p->limits.pids ? SBX_APPLIED_PIDS_LIMIT : 0);
        return 0;
}

static int setup_v1_one(struct sbx_cgroup *cg, const char *controller, struct sbx_error *e)
{
        char mnt[PATH_MAX], own[PATH_MAX], base[PATH_MAX * 2];
        char *dir = cg->dir[cg->ndirs];
        char procs[PATH_MAX + 32];
        int r;

        snprintf(mnt, sizeof(mnt), CGROUP_ROOT "/%s", controller);
        if (!is_fs(mnt, CGROUP_SUPER_MAGIC) || own_path(controller, own, sizeof(own)) < 0)
                return -ENOENT;
        snprintf(base, sizeof(base), "%s%s", mnt, strcmp(own, "/") == 0 ? "" : own);
        r = make_dir(base, dir, sizeof(cg->dir[0]));
        if (r < 0)
                return r;
        cg->ndirs++;
        snprintf(procs, sizeof(procs), "%s/cgroup.procs", dir);
        cg->procs_fd[cg->ndirs - 1] = open(procs, O_WRONLY | O_CLOEXEC);
        if (cg->procs_fd[cg->ndirs - 1] < 0)
                return sbx_error_set(e, SBX_STAGE_CGROUP, errno, "open", procs, "cannot open the sandbox cgroup");
        return 0;
}

static int setup_v1(struct sbx_cgroup *cg, const struct sbx_plan *p, struct sbx_error *e)
{
        int r;

        cg->version = 1;
        if ((r = setup_v1_one(cg, "memory", e)) < 0)
                return r;
        if (p->limits.memory) {
                if ((r = set_u64(cg->dir[0], "memory.limit_in_bytes", p->limits.memory)) < 0)
                        return sbx_error_set(e, SBX_STAGE_CGROUP, r, "write", cg->dir[0], "cannot set memory.limit_in_bytes");
                /* memory+swap to the same figure: no escape into swap (absent when the
                 * kernel runs without swap accounting). */
                (void)set_u64(cg->dir[0], "memory.memsw.limit_in_bytes", p->limits.memory);
        }
        if ((r = setup_v1_one(cg, "pids", e)) < 0)
                return r;
        if (p->limits.pids && (r = set_u64(cg->dir[1], "pids.max", p->limits.pids)) < 0)
                return sbx_error_set(e, SBX_STAGE_CGROUP, r, "write", cg->dir[1], "cannot set pids.max");
        cg->applied = SBX_APPLIED_CGROUP_V1 | (p->limits.memory ? SBX_APPLIED_MEMORY_LIMIT : 0) |
                      (p->limits.pids ? SBX_APPLIED_PIDS_LIMIT : 0);
        return 0;
}

/* The v2 hierarchy when it holds the memory and pids controllers. */
static const char *usable_v2(void)
{
        static const char *const mounts[] = { CGROUP_ROOT, CGROUP_ROOT "/unified" };
        char buf[512];

        for (size_t i = 0; i < ELEMENTSOF(mounts); i++) {
                if (!is_fs(mounts[i], CGROUP2_SUPER_MAGIC))
                        continue;
                if (read_file(mounts[i], "cgroup.controllers", buf, sizeof(buf)) < 0)
                        continue;
                if (strstr(buf, "memory") && strstr(buf, "pids"))
                        return mounts[i];
        }
        return NULL;
}

void sbx_cgroup_collect_stale(void)
{
        static const char *const v1[] = { "memory", "pids" };
        const char *v2 = usable_v2();
        char base[PATH_MAX * 2], own[PATH_MAX];

        if (v2 && geteuid() == 0) {
                snprintf(base, sizeof(base), "%s/sbx", v2);
                collect_stale(base);
        } else if (v2 && own_path("", own, sizeof(own)) == 0) {
                snprintf(base, sizeof(base), "%s%s", v2, own);
                collect_stale(base);
        }
        for (size_t i = 0; i < ELEMENTSOF(v1); i++) {
                if (own_path(v1[i], own, sizeof(own)) < 0)
                        continue;
                snprintf(base, sizeof(base), CGROUP_ROOT "/%s%s", v1[i], strcmp(own, "/") == 0 ? "" : own);
                collect_stale(base);
        }
}

/* The hierarchy sbx_cgroup_prepare() would use: 2 (*v2 its mount), 1, or 0. */
static int hierarchy(const char **v2)
{
        *v2 = usable_v2();
        if (*v2)
                return 2;
        return is_fs(CGROUP_ROOT "/memory", CGROUP_SUPER_MAGIC) && is_fs(CGROUP_ROOT "/pids", CGROUP_SUPER_MAGIC) ? 1 : 0;
}

/* The directory setup_v2() or setup_v1_one() makes the sandbox's cgroup in, when it
 * may write it (root: <mount>/sbx on v2, beneath its own cgroup on v1; anyone else:
 * beneath its own, delegated to it): 0, or -errno with @dir the one it may not. */
static int check_base(const char *mnt, const char *controller, char *dir, size_t size)
{
        char own[PATH_MAX];

        snprintf(dir, size, "%s", mnt);
        if (geteuid() == 0 && !controller[0])
                return access(mnt, W_OK | X_OK) < 0 ? -errno : 0;
        if (own_path(controller, own, sizeof(own)) < 0)
                return -ENOENT;
        snprintf(dir, size, "%s%s", mnt, strcmp(own, "/") == 0 ? "" : own);
        return faccessat(AT_FDCWD, dir, W_OK | X_OK, AT_EACCESS) < 0 ? -errno : 0;
}

int sbx_cgroup_usable(char *dir, size_t size)
{
        const char *v2;
        int version = hierarchy(&v2), r;

        snprintf(dir, size, "%s", CGROUP_ROOT);
        if (!version)
                return -ENOENT;
        if (version == 2)
                r = check_base(v2, "", dir, size);
        else if ((r = check_base(CGROUP_ROOT "/memory", "memory", dir, size)) == 0)
                r = check_base(CGROUP_ROOT "/pids", "pids", dir, size);
        return r < 0 ? r : version;
}

void sbx_cgroup_forecast(const struct sbx_plan *p, struct sbx_cgroup_forecast *f)
{
        const char *v2;
        char dir[PATH_MAX * 2];
        bool made = sbx_cgroup_usable(dir, sizeof(dir)) > 0;

        *f = (struct sbx_cgroup_forecast){ .version = hierarchy(&v2) };
        /* The rule of sbx_cgroup_prepare(): on v1, the defaults alone make no cgroup. */
        if (made && (f->version == 2 || p->limits.memory_explicit || p->limits.pids_explicit)) {
                f->memory = p->limits.memory != 0;
                f->pids = p->limits.pids != 0;
        }
}

int sbx_cgroup_prepare(struct sbx_cgroup *cg, const struct sbx_plan *p, bool *weakened, struct sbx_error *e)
{
        const char *v2 = usable_v2();
        int r;

        *cg = (struct sbx_cgroup){ .clone_fd = -1, .procs_fd = { -1, -1 } };
        *weakened = false;
        if (!p->limits.memory && !p->limits.pids)
                return 0;
        /* On v1 every attach takes the global threadgroup rwsem for writing, which
         * waits out an RCU grace period (5-15 ms, more than the whole launch); v2
         * clones straight into the cgroup and pays nothing.  So on v1 only limits
         * asked for are worth it; the defaults are reported as not applied. */
        if (!v2 && !p->limits.memory_explicit && !p->limits.pids_explicit) {
                *weakened = true;
                return 0;
        }
        r = v2 ? setup_v2(cg, v2, p, e) : setup_v1(cg, p, e);
        if (r >= 0)
                return 0;
        if (e->errnum)
                return r; /* a limit could not be set on a cgroup we have: an error */
        sbx_cgroup_destroy(cg);
        if (p->limits.memory_explicit || p->limits.pids_explicit || !(p->optional & SBX_HARDEN_CGROUP)) {
                r = sbx_error_set(e, SBX_STAGE_CGROUP, r, "mkdir", v2 ? v2 : CGROUP_ROOT,
                                  "cannot create a cgroup for the memory and pids limits");
                sbx_error_hint(e, geteuid() == 0 ? "mount the memory and pids controllers (v2, or v1 under " CGROUP_ROOT ")"
                                                 : "run as root, through sandboxd, or in a cgroup delegated to you (systemd-run --user -p Delegate=yes)");
                return r;
        }
        *weakened = true;
        return 0;
}

int sbx_cgroup_join(const struct sbx_cgroup *cg, struct sbx_error *e)
{
        for (int i = 0; i < 2; i++)
                if (cg->procs_fd[i] >= 0 && write(cg->procs_fd[i], "0", 1) != 1)
                        return sbx_error_set(e, SBX_STAGE_CGROUP, errno, "write", cg->dir[i], "cannot join the sandbox cgroup");
        return 0;
}

static uint64_t read_key(const char *dir, const char *file, const char *key)
{
        char buf[4096];
        char *at;

        if (read_file(dir, file, buf, sizeof(buf)) < 0)
                return 0;
        if (!key)
                return strtoull(buf, NULL, 10);
        for (at = buf; (at = strstr(at, key)); at++)
                if ((at == buf || at[-1] == '\n') && at[strlen(key)] == ' ')
                        return strtoull(at + strlen(key) + 1, NULL, 10);
        return 0;
}

void sbx_cgroup_stats(const struct sbx_cgroup *cg, uint64_t *peak_memory, bool *oom_killed)
{
        *peak_memory = 0;
        *oom_killed = false;
        if (cg->version == 2) {
                *peak_memory = read_key(cg->dir[0], "memory.peak", NULL);
                *oom_killed = read_key(cg->dir[0], "memory.events", "oom_kill") > 0;
        } else if (cg->version == 1 && cg->ndirs > 0) {
                *peak_memory = read_key(cg->dir[0], "memory.max_usage_in_bytes", NULL);
                *oom_killed = read_key(cg->dir[0], "memory.oom_control", "oom_kill") > 0;
        }
}

static void kill_members(const char *dir)
{
        char buf[8192];
        char *line, *save = NULL;

        if (read_file(dir, "cgroup.procs", buf, sizeof(buf)) < 0)
                return;
        for (line = strtok_r(buf, "\n", &save); line; line = strtok_r(NULL, "\n", &save))
                (void)kill((pid_t)strtol(line, NULL, 10), SIGKILL);
}

void sbx_cgroup_destroy(struct sbx_cgroup *cg)
{
        for (int i = 0; i < cg->ndirs; i++) {
                if (cg->version == 2)
                        (void)write_file(cg->dir[i], "cgroup.kill", "1");
                /* The jail's PID namespace is already gone with its PID 1, so this is
                 * the belt to those braces; rmdir waits out the last exits. */
                for (int tries = 0; tries < 200; tries++) {
                        if (rmdir(cg->dir[i]) == 0 || errno == ENOENT)
                                break;
                        if (errno != EBUSY)
                                break;
                        kill_members(cg->dir[i]);
                        usleep(1000);
                }
        }
        closep(&cg->clone_fd);
        closep(&cg->procs_fd[0]);
        closep(&cg->procs_fd[1]);
        cg->ndirs = 0;
        cg->version = 0;
        cg->applied = 0;
}
