/* SPDX-License-Identifier: MIT */
#include "probe.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/sched.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cgroup.h"
#include "cleanup-cap.h"
#include "cleanup.h"
#include "error.h"
#include "landlock.h"
#include "net.h"

/* A scratch mount point that every root file system has: the probes mount over it
 * only inside their own mount namespace, made private first. */
#define SCRATCH "/tmp"

static const struct {
        const char *name, *tag;
} names[SBX_PROBE_COUNT] = {
        [SBX_PROBE_USERNS] = { "userns", "P1" },       [SBX_PROBE_IDMAP] = { "idmap", "P2" },
        [SBX_PROBE_PROC] = { "proc", "P3" },           [SBX_PROBE_NETNS] = { "netns", "P4" },
        [SBX_PROBE_PROPAGATION] = { "propagation", "P5" }, [SBX_PROBE_PIVOT_ROOT] = { "pivot_root", "P6" },
        [SBX_PROBE_LANDLOCK] = { "landlock", "P7" },   [SBX_PROBE_SECCOMP] = { "seccomp", "P8" },
        [SBX_PROBE_CGROUP] = { "cgroup", "P9" },          [SBX_PROBE_HOSTNAME] = { "hostname", "P11" },
};

const char *sbx_probe_name(enum sbx_probe_id id)
{
        return (unsigned)id < SBX_PROBE_COUNT ? names[id].name : "unknown";
}

const char *sbx_probe_tag(enum sbx_probe_id id)
{
        return (unsigned)id < SBX_PROBE_COUNT ? names[id].tag : "P?";
}

bool sbx_probe_need_userns(void)
{
        cap_flag_value_t admin = CAP_CLEAR;
        _cleanup_cap_ cap_t caps = NULL;

        if (geteuid() != 0)
                return true;
        caps = cap_get_proc();
        if (!caps || cap_get_flag(caps, CAP_SYS_ADMIN, CAP_EFFECTIVE, &admin) < 0)
                admin = CAP_CLEAR;
        return admin != CAP_SET;
}

/* ---- child side: one attempt, its outcome home over a pipe, _exit ------------ */

static int fail(struct sbx_probe_result *r, const char *step)
{
        r->err = errno ? errno : EPERM;
        sbx_strlcpy(r->step, step, sizeof(r->step));
        return -1;
}

static int write_file(const char *file, const char *value)
{
        _cleanup_close_ int fd = open(file, O_WRONLY | O_CLOEXEC);
        ssize_t len = (ssize_t)strlen(value);

        return fd < 0 || write(fd, value, (size_t)len) != len ? -1 : 0;
}

/* As the jail's PID 1 does (jail.c map_ids): the caller's ids to themselves. */
static int map_ids(uid_t uid, gid_t gid, struct sbx_probe_result *r)
{
        char map[64];

        if (write_file("/proc/self/setgroups", "deny") < 0)
                return fail(r, "write /proc/self/setgroups");
        snprintf(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
        if (write_file("/proc/self/uid_map", map) < 0)
                return fail(r, "write /proc/self/uid_map");
        snprintf(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
        if (write_file("/proc/self/gid_map", map) < 0)
                return fail(r, "write /proc/self/gid_map");
        return 0;
}

/* Nothing mounted here may reach the caller's mount namespace. */
static int make_private(struct sbx_probe_result *r)
{
        return mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0 ? fail(r, "mount MS_REC|MS_PRIVATE /") : 0;
}

static int try_proc(struct sbx_probe_result *r)
{
        if (make_private(r) < 0)
                return -1;
        /* The jail's flags; the kernel refuses a new procfs in a user namespace while
         * the one it could see has locked mounts over its paths (a container's masks). */
        if (mount("proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC | MS_RDONLY, NULL) < 0)
                return fail(r, "mount proc");
        return 0;
}

static int try_netns(struct sbx_probe_result *r)
{
        struct sbx_error e = { 0 };

        if (sbx_net_loopback_up(&e) < 0) {
                errno = e.errnum;
                return fail(r, "RTM_NEWLINK lo up");
        }
        return 0;
}

static int try_pivot_root(struct sbx_probe_result *r)
{
        if (make_private(r) < 0)
                return -1;
        if (mount("sbx-probe", SCRATCH, "tmpfs", MS_NOSUID | MS_NODEV, "size=4k") < 0)
                return fail(r, "mount tmpfs " SCRATCH);
        if (chdir(SCRATCH) < 0)
                return fail(r, "chdir " SCRATCH);
        if (syscall(SYS_pivot_root, ".", ".") < 0)
                return fail(r, "pivot_root");
        if (umount2(".", MNT_DETACH) < 0)
                return fail(r, "umount2 old root");
        return 0;
}

static int try_seccomp(struct sbx_probe_result *r)
{
        struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW);
        struct sock_fprog prog = { .len = 1, .filter = &allow };

        if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                return fail(r, "prctl PR_SET_NO_NEW_PRIVS");
        if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog) < 0)
                return fail(r, "seccomp NEW_LISTENER");
        return 0;
}

/* The child: the namespaces came with clone3; map ids where it made a user
 * namespace, then the one attempt. */
static int attempt(enum sbx_probe_id id, bool userns, uid_t uid, gid_t gid, struct sbx_probe_result *r)
{
        if (userns && id != SBX_PROBE_USERNS && map_ids(uid, gid, r) < 0)
                return -1;
        switch (id) {
        case SBX_PROBE_PROC:
                return try_proc(r);
        case SBX_PROBE_NETNS:
                return try_netns(r);
        case SBX_PROBE_PROPAGATION:
                return make_private(r);
        case SBX_PROBE_PIVOT_ROOT:
                return try_pivot_root(r);
        case SBX_PROBE_SECCOMP:
                return try_seccomp(r);
        case SBX_PROBE_HOSTNAME:
                return sethostname("sbx", 3) < 0 ? fail(r, "sethostname") : 0;
        default:
                return 0;
        }
}

static uint64_t clone_flags(enum sbx_probe_id id, bool userns)
{
        static const uint64_t flags[SBX_PROBE_COUNT] = {
                [SBX_PROBE_USERNS] = CLONE_NEWUSER,
                [SBX_PROBE_IDMAP] = CLONE_NEWUSER,
                [SBX_PROBE_PROC] = CLONE_NEWNS | CLONE_NEWPID,
                [SBX_PROBE_NETNS] = CLONE_NEWNET,
                [SBX_PROBE_PROPAGATION] = CLONE_NEWNS,
                [SBX_PROBE_PIVOT_ROOT] = CLONE_NEWNS,
                [SBX_PROBE_HOSTNAME] = CLONE_NEWUTS,
        };

        return flags[id] | (userns && flags[id] ? CLONE_NEWUSER : 0);
}

/* ---- parent side ------------------------------------------------------------- */

static void run_one(struct sbx_probe *pr, enum sbx_probe_id id)
{
        struct sbx_probe_result *r = &pr->r[id];
        struct clone_args args = { .flags = clone_flags(id, pr->userns), .exit_signal = SIGCHLD };
        uid_t uid = getuid();
        gid_t gid = getgid();
        int fds[2], status = 0;
        long pid;

        *r = (struct sbx_probe_result){ 0 };
        if (pipe2(fds, O_CLOEXEC) < 0) {
                fail(r, "pipe2");
                return;
        }
        /* No namespace to ask for (P8): a plain fork, which a runtime that refuses
         * clone3 (ENOSYS, Docker's profile) still allows. */
        pid = args.flags ? syscall(SYS_clone3, &args, sizeof(args)) : (long)fork();
        if (pid == 0) {
                close(fds[0]);
                (void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
                errno = 0;
                (void)attempt(id, args.flags & CLONE_NEWUSER, uid, gid, r);
                (void)!write(fds[1], r, sizeof(*r));
                _exit(0);
        }
        close(fds[1]);
        if (pid < 0) {
                fail(r, args.flags & CLONE_NEWUSER ? "clone3 CLONE_NEWUSER" : "clone3");
        } else {
                ssize_t n = read(fds[0], r, sizeof(*r));

                while (waitpid((pid_t)pid, &status, 0) < 0 && errno == EINTR)
                        ;
                /* Killed before it could answer (a seccomp profile that kills): a refusal. */
                if (n != (ssize_t)sizeof(*r)) {
                        *r = (struct sbx_probe_result){ .err = ECHILD };
                        snprintf(r->step, sizeof(r->step), "probe child died (signal %d)", WIFSIGNALED(status) ? WTERMSIG(status) : 0);
                }
                r->step[sizeof(r->step) - 1] = '\0';
        }
        close(fds[0]);
}

/* P9: this process can make a cgroup for the memory and pids limits (lib/cgroup.c's
 * rules: root beneath the hierarchy, anyone else in a cgroup delegated to it); the
 * value is the hierarchy's version.  sandboxd's runs need one, or the site policy's
 * limits.without_cgroup. */
static void probe_cgroup(struct sbx_probe_result *r)
{
        char dir[PATH_MAX * 2], step[PATH_MAX * 2 + 16];
        int version = sbx_cgroup_usable(dir, sizeof(dir));

        *r = (struct sbx_probe_result){ .value = version > 0 ? version : 0 };
        if (version < 0) {
                snprintf(step, sizeof(step), version == -ENOENT ? "find memory+pids cgroups" : "write %s", dir);
                errno = -version;
                fail(r, step);
        }
}

static void probe_landlock(struct sbx_probe_result *r)
{
        *r = (struct sbx_probe_result){ .value = sbx_landlock_abi() };
        if (r->value <= 0) {
                errno = EOPNOTSUPP;
                fail(r, "landlock_create_ruleset VERSION");
        }
}

static bool exists(const char *path)
{
        struct stat st;
        return lstat(path, &st) == 0;
}

/* container= in PID 1's environment (systemd-nspawn, podman, lxc set it). */
static void pid1_container(char *out, size_t size)
{
        char buf[8192];
        _cleanup_close_ int fd = open("/proc/1/environ", O_RDONLY | O_CLOEXEC);
        ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);

        out[0] = '\0';
        if (n <= 0)
                return;
        buf[n] = '\0';
        for (char *s = buf; s < buf + n; s += strlen(s) + 1)
                if (strncmp(s, "container=", 10) == 0) {
                        snprintf(out, size, "%s", s + 10);
                        return;
                }
}

static bool overlay_root(void)
{
        char line[1024];
        bool overlay = false;
        FILE *f = fopen("/proc/self/mountinfo", "re");

        while (f && fgets(line, sizeof(line), f)) {
                char *sep = strstr(line, " - ");
                /* fields: id parent maj:min root mountpoint ... - fstype */
                if (sep && strstr(line, " / / ") && strncmp(sep, " - overlay ", 11) == 0)
                        overlay = true;
        }
        if (f)
                fclose(f);
        return overlay;
}

static void probe_labels(struct sbx_probe_labels *l)
{
        *l = (struct sbx_probe_labels){
                .dockerenv = exists("/.dockerenv"),
                .containerenv = exists("/run/.containerenv"),
                .kubernetes = exists("/var/run/secrets/kubernetes.io") || getenv("KUBERNETES_SERVICE_HOST"),
                .overlay_root = overlay_root(),
        };
        pid1_container(l->container, sizeof(l->container));
}

const char *sbx_probe_runtime(const struct sbx_probe_labels *l)
{
        if (l->kubernetes)
                return "kubernetes";
        if (l->containerenv || strcmp(l->container, "podman") == 0)
                return "podman";
        if (l->dockerenv || strcmp(l->container, "docker") == 0)
                return "docker";
        if (strncmp(l->container, "lxc", 3) == 0)
                return "lxc";
        if (l->container[0] || l->overlay_root)
                return "container";
        return "host";
}

void sbx_probe_run(struct sbx_probe *pr)
{
        pr->userns = sbx_probe_need_userns();
        for (enum sbx_probe_id id = SBX_PROBE_USERNS; id <= SBX_PROBE_PIVOT_ROOT; id++)
                run_one(pr, id);
        run_one(pr, SBX_PROBE_HOSTNAME);
        run_one(pr, SBX_PROBE_SECCOMP);
        probe_landlock(&pr->r[SBX_PROBE_LANDLOCK]);
        probe_cgroup(&pr->r[SBX_PROBE_CGROUP]);
        probe_labels(&pr->labels);
}
