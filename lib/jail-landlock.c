/* SPDX-License-Identifier: MIT */
/* The landlock tier's jail: see jail-landlock.h. */
#include "jail-landlock.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <grp.h>
#include <unistd.h>

#include "cleanup.h"
#include "exec.h"
#include "landlock.h"
#include "privs.h"
#include "sync.h"

static void closedirp(DIR **d)
{
        if (*d)
                closedir(*d);
}
#define _cleanup_closedir_ _cleanup_(closedirp)

/* ---- launcher ------------------------------------------------------------------ */

/* Parent pid and start time (fields 4 and 22 of /proc/PID/stat), after the name. */
static bool stat_of(pid_t pid, pid_t *ppid, unsigned long long *start)
{
        char path[64], buf[1024], *at;
        _cleanup_close_ int fd = -1;
        ssize_t len;
        int pp;

        snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
        fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0 || (len = read(fd, buf, sizeof(buf) - 1)) <= 0)
                return false;
        buf[len] = '\0';
        at = strrchr(buf, ')');
        /* ") S PPID PGRP SESSION TTY TPGID FLAGS MINFLT CMINFLT MAJFLT CMAJFLT UTIME
         * STIME CUTIME CSTIME PRIORITY NICE THREADS ITREAL STARTTIME" */
        if (!at || sscanf(at, ") %*c %d %*d %*d %*d %*d %*u %*u %*u %*u %*u %*u %*u %*d %*d %*d %*d %*d %*d %llu", &pp,
                          start) != 2)
                return false;
        *ppid = (pid_t)pp;
        return true;
}

/* Calls @fn for each child of this process (as /proc says), with its start time;
 * -errno when /proc cannot be read. */
static ssize_t each_child(void (*fn)(void *ctx, pid_t pid, unsigned long long start), void *ctx)
{
        _cleanup_closedir_ DIR *d = opendir("/proc");
        pid_t me = getpid(), ppid;
        unsigned long long start;
        struct dirent *de;
        ssize_t n = 0;

        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                char *end;
                long pid = strtol(de->d_name, &end, 10);

                if (*end || pid <= 0 || pid == me)
                        continue;
                if (stat_of((pid_t)pid, &ppid, &start) && ppid == me) {
                        fn(ctx, (pid_t)pid, start);
                        n++;
                }
        }
        return n;
}

static void note_before(void *ctx, pid_t pid, unsigned long long start)
{
        struct sbx_nons *n = ctx;

        if (n->n_before < SBX_NONS_MAX_BEFORE) {
                n->before[n->n_before] = pid;
                n->before_start[n->n_before++] = start;
        }
}

int sbx_nons_prepare(struct sbx_nons *n, const struct sbx_plan *p, struct sbx_error *e)
{
        const char *base = getenv("TMPDIR");
        int r;

        *n = (struct sbx_nons){ .n_before = 0 };
        /* Without /proc nothing it leaves could be found to kill: no run. */
        if ((r = (int)each_child(note_before, n)) < 0)
                return sbx_error_set(e, SBX_STAGE_CLONE, -r, "opendir", "/proc",
                                     "the landlock tier finds what the command leaves behind in /proc, which cannot be read");
        if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
                return sbx_error_set(e, SBX_STAGE_CLONE, errno, "prctl", "PR_SET_CHILD_SUBREAPER",
                                     "cannot become the subreaper of the command's processes");
        /* sandboxd's launcher (root): /tmp, the directory then given to the caller. */
        if (!base || base[0] != '/' || p->run_as)
                base = "/tmp";
        snprintf(n->tmpdir, sizeof(n->tmpdir), "%s/sbx-tmp-XXXXXX", base);
        if (!mkdtemp(n->tmpdir)) {
                r = sbx_error_set(e, SBX_STAGE_MOUNT, errno, "mkdtemp", n->tmpdir, "cannot make the command's private TMPDIR");
                sbx_error_hint(e, "the landlock tier needs a writable temporary directory: set TMPDIR to one");
                n->tmpdir[0] = '\0';
                return r;
        }
        if (p->run_as) {
                n->as_caller = true;
                n->uid = p->uid;
                n->gid = p->gid;
                n->n_groups = p->n_groups < ELEMENTSOF(n->groups) ? p->n_groups : ELEMENTSOF(n->groups);
                memcpy(n->groups, p->groups, n->n_groups * sizeof(gid_t));
        }
        if (p->run_as && chown(n->tmpdir, p->uid, p->gid) < 0) {
                r = sbx_error_set(e, SBX_STAGE_MOUNT, errno, "chown", n->tmpdir, "cannot give the private TMPDIR to the caller");
                (void)rmdir(n->tmpdir);
                n->tmpdir[0] = '\0';
                return r;
        }
        return 0;
}

struct sweep {
        const struct sbx_nons *n;
        pid_t killed[256];
        size_t n_killed;
};

static void kill_one(void *ctx, pid_t pid, unsigned long long start)
{
        struct sweep *s = ctx;

        for (size_t i = 0; i < s->n->n_before; i++)
                if (s->n->before[i] == pid && s->n->before_start[i] == start)
                        return;
        if (s->n_killed < ELEMENTSOF(s->killed) && kill(pid, SIGKILL) == 0)
                s->killed[s->n_killed++] = pid;
}

/* Depth-first, never following a link: whatever the command made there, as the
 * launcher (root's, in sandboxd) removes it. */
static int remove_tree(int at, const char *name, int depth)
{
        _cleanup_closedir_ DIR *d = NULL;
        struct dirent *de;
        int fd, bad = 0;

        if (unlinkat(at, name, 0) == 0 || errno == ENOENT)
                return 0;
        if (depth > 64)
                return -ELOOP;
        fd = openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
        if (fd < 0 || !(d = fdopendir(fd))) {
                if (fd >= 0)
                        close(fd);
                return -errno;
        }
        while ((de = readdir(d)))
                if (strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0 && remove_tree(dirfd(d), de->d_name, depth + 1) < 0)
                        bad = -EBUSY;
        if (unlinkat(at, name, AT_REMOVEDIR) < 0 && !bad)
                bad = -errno;
        return bad;
}

/* remove_tree with the caller's rights (sandboxd's launcher is root): in a child
 * that becomes the caller.  The caller may have moved into the directory one they
 * can rename but not empty (a shared group directory's member's): root would. */
static int remove_tree_as(const struct sbx_nons *n, const char *path)
{
        int status = 0;
        pid_t pid;

        if (!n->as_caller)
                return remove_tree(AT_FDCWD, path, 0);
        pid = fork();
        if (pid < 0)
                return -errno;
        if (pid == 0) {
                if (setgroups(n->n_groups, n->groups) < 0 || setresgid(n->gid, n->gid, n->gid) < 0 ||
                    setresuid(n->uid, n->uid, n->uid) < 0)
                        _exit(2);
                _exit(remove_tree(AT_FDCWD, path, 0) < 0 ? 1 : 0);
        }
        while (waitpid(pid, &status, 0) < 0)
                if (errno != EINTR)
                        return -errno;
        return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? 0 : -EBUSY;
}

size_t sbx_nons_finish(struct sbx_nons *n, char *weak, size_t size)
{
        size_t total = 0;

        weak[0] = '\0';
        /* Kill the children that are not the launcher's own; reaping one makes its
         * children ours (PR_SET_CHILD_SUBREAPER) before waitpid returns: again, until
         * a round finds none. */
        for (int round = 0;; round++) {
                struct sweep s = { .n = n };

                if (each_child(kill_one, &s) < 0) {
                        snprintf(weak, size, "landlock tier: /proc unreadable, processes the command left may survive");
                        break;
                }
                if (!s.n_killed)
                        break;
                for (size_t i = 0; i < s.n_killed; i++)
                        while (waitpid(s.killed[i], NULL, 0) < 0 && errno == EINTR)
                                ;
                total += s.n_killed;
                /* (still forking faster than it is killed: said, not hidden) */
                if (round == 100000) {
                        snprintf(weak, size, "landlock tier: processes the command left were still multiplying when the launcher gave up killing them");
                        break;
                }
        }
        (void)prctl(PR_SET_CHILD_SUBREAPER, 0, 0, 0, 0);
        if (n->tmpdir[0] && remove_tree_as(n, n->tmpdir) < 0 && !weak[0])
                snprintf(weak, size, "landlock tier: the private TMPDIR %s was not removed whole", n->tmpdir);
        n->tmpdir[0] = '\0';
        return total;
}

/* ---- child ------------------------------------------------------------------------ */

_Noreturn static void fail(int sync_fd, struct sbx_error *e)
{
        sbx_sync_fail(sync_fd, e);
}

/* A variable naming one of the plan's tmpfs (HOME=/tmp): that tmpfs is not made
 * here, the private directory stands in for it. */
static bool names_tmpfs(const struct sbx_plan *p, const char *var)
{
        const char *value = strchr(var, '=');

        for (size_t i = 0; value && i < p->n_mounts; i++)
                if (p->mounts[i].kind == SBX_MOUNT_TMPFS && strcmp(p->mounts[i].dest, value + 1) == 0)
                        return true;
        return false;
}

/* The plan's environment, TMPDIR the private directory, and so is every variable
 * that named a tmpfs of the plan. */
static char **environment(const struct sbx_plan *p, const char *tmpdir)
{
        char **env = calloc(p->n_env + 2, sizeof(char *));
        size_t n = 0;

        if (!env || asprintf(&env[n++], "TMPDIR=%s", tmpdir) < 0)
                return NULL;
        for (size_t i = 0; i < p->n_env; i++) {
                const char *eq = strchr(p->env[i], '=');

                if (strncmp(p->env[i], "TMPDIR=", 7) == 0 || !eq)
                        continue;
                if (!names_tmpfs(p, p->env[i]))
                        env[n++] = p->env[i];
                else if (asprintf(&env[n++], "%.*s=%s", (int)(eq - p->env[i]), p->env[i], tmpdir) < 0)
                        return NULL;
        }
        env[n] = NULL;
        return env;
}

static int join_cgroup(const struct sbx_cgroup *cg, struct sbx_error *e)
{
        _cleanup_close_ int fd = -1;

        if (cg->clone_fd < 0)
                return sbx_cgroup_join(cg, e);
        fd = openat(cg->clone_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, "0", 1) != 1)
                return sbx_error_set(e, SBX_STAGE_CGROUP, errno, "write", cg->dir[0], "cannot join the sandbox cgroup");
        return 0;
}

void sbx_nons_child(const struct sbx_plan *p, const struct sbx_seccomp *filter, const struct sbx_cgroup *cg,
                    const struct sbx_nons *n, int sync_fd, int parent_pidfd)
{
        struct sbx_error e = { 0 };
        struct pollfd pfd = { .fd = parent_pidfd, .events = POLLIN };
        struct sbx_msg done = { .type = SBX_MSG_APPLIED };
        char weak[128];
        char **env;
        int r;

        /* Dies with the launcher (kept across execve: not setuid, no_new_privs). */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || poll(&pfd, 1, 0) != 0)
                _exit(125);
        if (join_cgroup(cg, &e) < 0)
                fail(sync_fd, &e);
        done.applied |= cg->applied;
        if (sbx_exec_session(p, &e) < 0)
                fail(sync_fd, &e);
        if (!(env = environment(p, n->tmpdir)))
                fail(sync_fd, (sbx_error_set(&e, SBX_STAGE_EXEC, ENOMEM, "", "", "out of memory"), &e));
        if (sbx_privs_drop(p, &done.applied, &e) < 0)
                fail(sync_fd, &e);
        r = sbx_privs_mdwe(p, weak, sizeof(weak), &done.applied, &e);
        if (r < 0)
                fail(sync_fd, &e);
        if (r > 0) {
                struct sbx_msg m = { .type = SBX_MSG_WEAKENED };

                sbx_strlcpy(m.text, weak, sizeof(m.text));
                sbx_sync_send(sync_fd, &m);
        }
        if (sbx_landlock_apply_nons(p, n->tmpdir, &done.applied, &e) < 0 ||
            sbx_seccomp_apply_nons(p->net == SBX_NET_NONE, p->nons_no_fd_metadata, &e) < 0 || sbx_seccomp_apply(filter, NULL, &e) < 0)
                fail(sync_fd, &e);
        done.applied |= SBX_APPLIED_SECCOMP | SBX_APPLIED_UNIX_PAIRS_ONLY;
        sbx_sync_send(sync_fd, &done);
        sbx_exec(p->argv, env, &e);
        fail(sync_fd, &e);
}
