/* SPDX-License-Identifier: MIT */
/* The pipeline as one flat list.  Parent half: sbx_jail_run() (launcher, as the
 * caller).  Child half: jail_child() (the jail's PID 1, new namespaces, full
 * capabilities there) and command_child() (PID 2, drops everything, execs). */
#include "jail.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cgroup.h"
#include "cleanup.h"
#include "egress.h"
#include "exec.h"
#include "identity.h"
#include "init.h"
#include "jail-landlock.h"
#include "landlock.h"
#include "mount.h"
#include "net.h"
#include "nonet.h"
#include "privs.h"
#include "sync.h"
#include "tier.h"

extern char **environ;

/* The caller's signals that are meant for the command. */
static const int forwarded[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2, SIGWINCH, SIGCONT };

static void append(char *list, size_t size, const char *sep, const char *item)
{
        size_t len = strlen(list);
        snprintf(list + len, size - len, "%s%s", len ? sep : "", item);
}

/* ---- child: the command (PID 2) ---------------------------------------------- */

static void send_weakened(int sync_fd, const char *what)
{
        struct sbx_msg m = { .type = SBX_MSG_WEAKENED };

        sbx_strlcpy(m.text, what, sizeof(m.text));
        sbx_sync_send(sync_fd, &m);
}

/* The seccomp listener to PID 1, which answers the command's connects (broker.h). */
static void send_listener(int sock, int fd)
{
        char control[CMSG_SPACE(sizeof(int))] = { 0 }, byte = 0;
        struct iovec iov = { .iov_base = &byte, .iov_len = 1 };
        struct msghdr mh = { .msg_iov = &iov, .msg_iovlen = 1, .msg_control = control, .msg_controllen = sizeof(control) };
        struct cmsghdr *c = CMSG_FIRSTHDR(&mh);

        c->cmsg_level = SOL_SOCKET;
        c->cmsg_type = SCM_RIGHTS;
        c->cmsg_len = CMSG_LEN(sizeof(int));
        memcpy(CMSG_DATA(c), &fd, sizeof(int));
        (void)sendmsg(sock, &mh, MSG_NOSIGNAL);
}

static int close_all_but(int a, int b, int c);

_Noreturn static void command_child(const struct sbx_plan *p, const struct sbx_seccomp *filter, int sync_fd, int broker_sock,
                                    int id_ns)
{
        struct sbx_error e = { 0 };
        struct sbx_msg done = { .type = SBX_MSG_APPLIED };
        char weak[128];
        int r;

        /* Only what it uses: what PID 1 still holds when it forks (an fd per mount the
         * validation pinned) would count against the open-files limit the command gets
         * back below, before Landlock and seccomp open theirs. */
        if (close_all_but(sync_fd, broker_sock, id_ns) < 0)
                sbx_sync_fail(sync_fd, (sbx_error_set(&e, SBX_STAGE_INIT, errno, "close_range", "", "cannot close the command's other fds"), &e));
        if (sbx_exec_session(p, &e) < 0)
                sbx_sync_fail(sync_fd, &e);

        /* Root's command: nobody, in the namespace where nobody is root (identity.h). */
        if (sbx_identity_enter(p, id_ns, &done.applied, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        if (id_ns >= 0)
                close(id_ns);
        if (sbx_privs_drop(p, &done.applied, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        r = sbx_privs_mdwe(p, weak, sizeof(weak), &done.applied, &e);
        if (r < 0)
                sbx_sync_fail(sync_fd, &e);
        if (r > 0)
                send_weakened(sync_fd, weak);
        r = sbx_landlock_apply(p, weak, sizeof(weak), &done.applied, &e);
        if (r < 0)
                sbx_sync_fail(sync_fd, &e);
        if (r > 0)
                send_weakened(sync_fd, weak);
        /* Last: from here on only what the filter allows, execve among it; its
         * listener goes to PID 1 (and is close-on-exec here). */
        int listener = -1;

        /* In a user namespace (the caller's, or root's command as nobody) chown to an
         * id it does not map says EPERM, as outside; the kernel would say EINVAL. */
        if (p->userns && sbx_seccomp_apply_ids((uint32_t)p->uid, (uint32_t)p->gid, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        if ((done.applied & SBX_APPLIED_USERNS) && !p->userns &&
            sbx_seccomp_apply_ids(SBX_ROOT_INSIDE_ID, SBX_ROOT_INSIDE_ID, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        if (sbx_seccomp_apply(filter, p->unix_broker ? &listener : NULL, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        /* Host unix sockets are out of reach either way; the broker lets the jail's
         * own connect, without it only socketpairs work. */
        done.applied |= SBX_APPLIED_SECCOMP | (p->unix_broker ? SBX_APPLIED_UNIX_BROKER : SBX_APPLIED_UNIX_PAIRS_ONLY);
        if (listener >= 0)
                send_listener(broker_sock, listener);
        /* What this process did, home before the command runs (the filter allows
         * send: an exec failure is reported the same way). */
        sbx_sync_send(sync_fd, &done);
        sbx_exec(p->argv, p->env, &e);
        sbx_sync_fail(sync_fd, &e);
}

/* ---- child: the jail's PID 1 -------------------------------------------------- */

static int cmp_int(const void *a, const void *b)
{
        return *(const int *)a - *(const int *)b;
}

/* Every fd above 2 but @a, @b and @c (-1: none). */
static int close_all_but(int a, int b, int c)
{
        int keep[3] = { a, b, c };
        unsigned from = 3;

        qsort(keep, 3, sizeof(int), cmp_int);
        for (int i = 0; i < 3; i++) {
                if (keep[i] < 3)
                        continue;
                if ((unsigned)keep[i] > from && syscall(SYS_close_range, from, (unsigned)keep[i] - 1, 0) < 0)
                        return -errno;
                from = (unsigned)keep[i] + 1;
        }
        return syscall(SYS_close_range, from, ~0u, 0) < 0 ? -errno : 0;
}

static int write_proc(const char *file, const char *value, struct sbx_error *e)
{
        _cleanup_close_ int fd = open(file, O_WRONLY | O_CLOEXEC);
        ssize_t len = (ssize_t)strlen(value);

        if (fd < 0 || write(fd, value, (size_t)len) != len)
                return sbx_error_set(e, SBX_STAGE_USERNS, errno, "write", file, "cannot set up the user namespace");
        return 0;
}

/* The caller's uid and gid map to themselves: a uid 0 inside would map to the
 * caller anyway, never to more; setgroups is denied so groups cannot be shed to
 * reach files a group-deny ACL protects. */
static int map_ids(const struct sbx_plan *p, struct sbx_error *e)
{
        char map[64];
        int r;

        if ((r = write_proc("/proc/self/setgroups", "deny", e)) < 0)
                return r;
        snprintf(map, sizeof(map), "%u %u 1", (unsigned)p->uid, (unsigned)p->uid);
        if ((r = write_proc("/proc/self/uid_map", map, e)) < 0)
                return r;
        snprintf(map, sizeof(map), "%u %u 1", (unsigned)p->gid, (unsigned)p->gid);
        return write_proc("/proc/self/gid_map", map, e);
}

/* sandboxd's jail where its root has no CAP_SYS_ADMIN (a container's): a user
 * namespace, whose maps the launcher writes from outside, with the CAP_SETUID and
 * CAP_SETGID it holds there: root (the setup's own ids: a new inode needs its owner
 * mapped), and the caller's uid, gid and groups, each to itself and nothing else.  The
 * setup mounts in it, then PID 1 and the command become the caller
 * (sbx_privs_switch_ids), as they do where sandboxd has CAP_SYS_ADMIN: no process of
 * the jail keeps uid 0 or a capability.  The jail waits for the word, or dies with
 * the launcher. */
static bool maps_from_outside(const struct sbx_plan *p)
{
        return p->userns && p->run_as;
}

static void wait_mapped(int sync_fd)
{
        struct pollfd pfd = { .fd = sync_fd, .events = POLLIN };
        struct sbx_msg m;
        int fd;

        while (poll(&pfd, 1, -1) < 0 && errno == EINTR)
                ;
        if (sbx_sync_recv(sync_fd, &m, &fd) < 0 || m.type != SBX_MSG_MAPPED)
                _exit(125);
        if (fd >= 0)
                close(fd);
}

static int write_map(pid_t pid, const char *file, const char *map, struct sbx_error *e)
{
        char path[64];
        _cleanup_close_ int fd = -1;
        ssize_t len = (ssize_t)strlen(map);

        snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, file);
        fd = open(path, O_WRONLY | O_CLOEXEC);
        if (fd < 0 || write(fd, map, (size_t)len) != len)
                return sbx_error_set(e, SBX_STAGE_USERNS, errno, "write", path,
                                     "cannot map the caller's ids into the jail's user namespace");
        return 0;
}

static int map_ids_outside(pid_t pid, const struct sbx_plan *p, int sync_fd, struct sbx_error *e)
{
        char map[SBX_MAX_GROUPS * 40 + 64];
        size_t len;
        int r;

        len = (size_t)snprintf(map, sizeof(map), "0 0 1\n");
        if (p->uid != 0)
                snprintf(map + len, sizeof(map) - len, "%u %u 1\n", (unsigned)p->uid, (unsigned)p->uid);
        if ((r = write_map(pid, "uid_map", map, e)) < 0)
                return r;
        len = (size_t)snprintf(map, sizeof(map), "0 0 1\n");
        if (p->gid != 0)
                len += (size_t)snprintf(map + len, sizeof(map) - len, "%u %u 1\n", (unsigned)p->gid, (unsigned)p->gid);
        for (size_t i = 0; i < p->n_groups; i++) {
                bool seen = p->groups[i] == p->gid || p->groups[i] == 0;

                for (size_t j = 0; j < i && !seen; j++)
                        seen = p->groups[j] == p->groups[i];
                if (!seen)
                        len += (size_t)snprintf(map + len, sizeof(map) - len, "%u %u 1\n", (unsigned)p->groups[i],
                                                (unsigned)p->groups[i]);
        }
        if ((r = write_map(pid, "gid_map", map, e)) < 0)
                return r;
        sbx_sync_send(sync_fd, &(struct sbx_msg){ .type = SBX_MSG_MAPPED });
        return 0;
}

/* PID 1 keeps the launcher's memory image, environment strings included, and
 * /proc/1/environ reads them from there: wipe them, and make the process
 * non-dumpable so /proc/1/{environ,mem,fd} are closed to the jail. */
static void scrub_environment(void)
{
        for (char **v = environ; v && *v; v++)
                memset(*v, 0, strlen(*v));
        environ = NULL;
}

/* Likewise /proc/1/cmdline would show the launcher's own command line (sbx-run's,
 * an --env VALUE among it; sandboxd's, in every daemon jail) to every process in the
 * jail.  The kernel shows the argument area of PID 1's memory, wherever argv[] now
 * points, so the area's bounds come from the kernel too (/proc/self/stat fields
 * 48-51, arg_start, arg_end, env_start, env_end): read while the host's /proc is
 * still there, wiped once the command has its copy of the arguments. */
struct proc_areas {
        uintptr_t arg_start, arg_end, env_start, env_end;
};

static int read_proc_areas(struct proc_areas *a, struct sbx_error *e)
{
        char buf[2048], *at;
        unsigned long long v[4];
        ssize_t n;
        _cleanup_close_ int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);

        if (fd < 0 || (n = read(fd, buf, sizeof(buf) - 1)) < 0)
                return sbx_error_set(e, SBX_STAGE_INIT, errno, "read", "/proc/self/stat", "cannot find the argument area to wipe");
        buf[n] = '\0';
        /* After the name (which may hold anything, up to the last ')'): the space
         * before field 3, then before each next one up to 48. */
        at = strrchr(buf, ')');
        for (int field = 3; at && field <= 48; field++)
                at = strchr(at + 1, ' ');
        if (!at || sscanf(at, " %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3]) != 4 || v[1] < v[0] || v[3] < v[2])
                return sbx_error_set(e, SBX_STAGE_INIT, EPROTO, "", "/proc/self/stat", "cannot find the argument area to wipe");
        *a = (struct proc_areas){ (uintptr_t)v[0], (uintptr_t)v[1], (uintptr_t)v[2], (uintptr_t)v[3] };
        return 0;
}

static void scrub_arguments(const struct proc_areas *a)
{
        char *args = (char *)a->arg_start, *env = (char *)a->env_start;
        size_t n = a->arg_end - a->arg_start;

        if (n > 0) {
                memset(args, 0, n);
                sbx_strlcpy(args, "sbx-init", n);
        }
        if (a->env_end > a->env_start)
                memset(env, 0, a->env_end - a->env_start);
        prctl(PR_SET_NAME, "sbx-init", 0, 0, 0);
}

static void apparmor_hint(struct sbx_error *e)
{
        char buf[8] = "";
        _cleanup_close_ int fd = open("/proc/sys/kernel/apparmor_restrict_unprivileged_userns", O_RDONLY | O_CLOEXEC);

        if (fd >= 0 && read(fd, buf, sizeof(buf) - 1) > 0 && buf[0] == '1')
                sbx_error_hint(e, "AppArmor restricts unprivileged user namespaces "
                                  "(kernel.apparmor_restrict_unprivileged_userns=1): give sbx-run an AppArmor profile with 'userns,', or run as root or through sandboxd");
}

_Noreturn static void jail_child(const struct sbx_plan *p, const struct sbx_seccomp *filter,
                                 const struct sbx_cgroup *cg, int sync_fd, int parent_pidfd, int id_ns)
{
        struct sbx_error e = { 0 };
        struct pollfd pfd = { .fd = parent_pidfd, .events = POLLIN };
        struct sbx_msg done = { .type = SBX_MSG_APPLIED };
        struct sbx_mount_out made;
        int broker_sv[2] = { -1, -1 };
        struct sbx_broker broker;
        struct sbx_nonet nonet;
        int nonet_fd = -1; /* network: none's refusing proxy (nonet.h) */
        struct proc_areas areas = { 0 };
        pid_t command;

        /* 1. Die with the launcher.  The pidfd closes the race in which it died
         *    before the death signal was armed. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || poll(&pfd, 1, 0) != 0)
                _exit(125);

        /* 2. Identity in the user namespace (while /proc/self is still ours to
         *    write: non-dumpable would hand it to root), then out of reach. */
        if (maps_from_outside(p))
                wait_mapped(sync_fd);
        else if (p->userns && map_ids(p, &e) < 0) {
                apparmor_hint(&e);
                sbx_sync_fail(sync_fd, &e);
        }
        if (read_proc_areas(&areas, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
        scrub_environment();
        /* 3. cgroup (v1: join now), then a cgroup namespace rooted there. */
        if (sbx_cgroup_join(cg, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        done.applied |= cg->applied; /* inside it now (v2: since clone) */
        if (!(p->ns_shared & SBX_NS_SHARE_CGROUP)) {
                if (unshare(CLONE_NEWCGROUP) < 0)
                        sbx_sync_fail(sync_fd, (sbx_error_set(&e, SBX_STAGE_CGROUP, errno, "unshare", "CLONE_NEWCGROUP",
                                                              "cannot make a cgroup namespace"), &e));
                done.applied |= SBX_APPLIED_CGROUPNS;
        }
        /* 4. Host name and network. */
        if (!(p->ns_shared & SBX_NS_SHARE_UTS) && sethostname(p->hostname, strlen(p->hostname)) < 0)
                sbx_sync_fail(sync_fd, (sbx_error_set(&e, SBX_STAGE_UTS, errno, "sethostname", p->hostname, "cannot set the hostname"), &e));
        if (p->net == SBX_NET_NONE && (sbx_net_loopback_up(&e) < 0 || (nonet_fd = sbx_nonet_listen(&e)) < 0))
                sbx_sync_fail(sync_fd, &e);
        if (p->net == SBX_NET_FILTERED && sbx_egress_setup_netns(p, sync_fd, &e) < 0)
                sbx_sync_fail(sync_fd, &e);
        /* 5. The file system view; pivot_root; old root detached.  The private tmpfs
         *    of a git directory go home, for what the command leaves there. */
        if (sbx_mount_apply(p, id_ns, &made, &e) < 0) {
                if (p->userns)
                        apparmor_hint(&e);
                sbx_sync_fail(sync_fd, &e);
        }
        /* Each bind is refused rather than left writable, and pivot_root is its last
         * step: having returned, it did both. */
        done.applied |= SBX_APPLIED_PIVOT_ROOT;
        if (made.weak[0])
                send_weakened(sync_fd, made.weak);
        for (size_t i = 0; i < p->n_mounts; i++)
                if (p->mounts[i].system)
                        done.applied |= SBX_APPLIED_RO_SYSTEM;
        sbx_sync_send(sync_fd, &done);
        for (int i = 0; i < SBX_MAX_STATE; i++)
                if (made.state_fds[i] >= 0) {
                        struct sbx_msg m = { .type = SBX_MSG_STATE_FD, .wstatus = i };

                        sbx_sync_send_fd(sync_fd, &m, made.state_fds[i]);
                        close(made.state_fds[i]);
                }
        /* 6. The command, as PID 2.  PID 1 first takes the Landlock scopes alone
         *    (abstract sockets, signals), so that the command's domain nests in its
         *    own: PID 1, the broker, reaches the jail's abstract sockets and
         *    processes and nothing outside, as the command does. */
        if (p->unix_broker && socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, broker_sv) < 0)
                sbx_sync_fail(sync_fd, (sbx_error_set(&e, SBX_STAGE_INIT, errno, "socketpair", "", "cannot start the connect broker"), &e));
        if (p->unix_broker && sbx_landlock_scope(&e) < 0)
                sbx_sync_fail(sync_fd, &e);
        command = fork();
        if (command < 0)
                sbx_sync_fail(sync_fd, (sbx_error_set(&e, SBX_STAGE_INIT, errno, "fork", "", "cannot start the command"), &e));
        if (command == 0) {
                if (broker_sv[0] >= 0)
                        close(broker_sv[0]);
                command_child(p, filter, sync_fd, broker_sv[1], id_ns);
        }
        /* 7. PID 1 keeps only the sync socket, the broker's, and no privilege, then
         *    supervises. */
        scrub_arguments(&areas);
        if (broker_sv[1] >= 0)
                close(broker_sv[1]);
        if (sbx_privs_drop_init(p, &e) < 0) {
                kill(command, SIGKILL);
                sbx_sync_fail(sync_fd, &e);
        }
        /* sandboxd's PID 1 took the caller's uid, and a uid change clears the death
         * signal (prctl(2)): armed again, then the launcher checked once more, since
         * it may have died in between. */
        if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || poll(&pfd, 1, 0) != 0) {
                kill(command, SIGKILL);
                _exit(125);
        }
        if (close_all_but(sync_fd, broker_sv[0], nonet_fd) < 0) {
                sbx_error_set(&e, SBX_STAGE_INIT, errno, "close_range", "", "cannot close the jail's other fds");
                kill(command, SIGKILL);
                sbx_sync_fail(sync_fd, &e);
        }
        sbx_broker_init(&broker, p, made.private_devs, made.n_private);
        sbx_nonet_init(&nonet, nonet_fd);
        sbx_init_run(command, sync_fd, broker_sv[0], &broker, &nonet);
}

/* ---- parent ------------------------------------------------------------------- */

static uint64_t now_ms(void)
{
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return (uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000;
}

static int userns_hint(struct sbx_error *e)
{
        sbx_error_hint(e, "%s", sbx_tier_host_userns_remedy());
        return 0;
}

/* Stage 3: clone3 into every namespace at once, straight into the cgroup on v2. */
static pid_t clone_jail(const struct sbx_plan *p, const struct sbx_cgroup *cg, int *pidfd, unsigned *applied,
                        struct sbx_error *e)
{
        struct clone_args args = {
                .flags = CLONE_NEWPID | CLONE_NEWNS | CLONE_PIDFD,
                .pidfd = (uint64_t)(uintptr_t)pidfd,
                .exit_signal = SIGCHLD,
        };
        long pid;

        if (sbx_plan_own_netns(p))
                args.flags |= CLONE_NEWNET;
        if (!(p->ns_shared & SBX_NS_SHARE_UTS))
                args.flags |= CLONE_NEWUTS;
        if (!(p->ns_shared & SBX_NS_SHARE_IPC))
                args.flags |= CLONE_NEWIPC;
        if (p->userns)
                args.flags |= CLONE_NEWUSER;
        if (cg->clone_fd >= 0) {
                args.flags |= CLONE_INTO_CGROUP;
                args.cgroup = (uint64_t)cg->clone_fd;
        }
        pid = syscall(SYS_clone3, &args, sizeof(args));
        if (pid < 0) {
                int r = sbx_error_set(e, SBX_STAGE_CLONE, errno, "clone3", "", "cannot create the jail's namespaces");
                if (p->userns)
                        userns_hint(e);
                return r;
        }
        /* The namespaces are the ones it was given, no more (a shared one is not). */
        if (pid > 0)
                *applied |= SBX_APPLIED_PIDNS | SBX_APPLIED_MNTNS | (args.flags & CLONE_NEWNET ? SBX_APPLIED_NETNS : 0) |
                            (args.flags & CLONE_NEWUTS ? SBX_APPLIED_UTSNS : 0) |
                            (args.flags & CLONE_NEWIPC ? SBX_APPLIED_IPCNS : 0) |
                            (args.flags & CLONE_NEWUSER ? SBX_APPLIED_USERNS : 0);
        return (pid_t)pid;
}

struct supervision {
        int sync_fd, pidfd, sigfd, control_fd;
        bool sync_closed; /* the jail's end is gone: stop polling it */
        uint64_t deadline_ms; /* 0: none */
        bool timed_out;
        bool have_exit;
        struct sbx_egress *egress; /* network: filtered's broker, which gets the listeners */
        int wstatus;
        struct sbx_error child_error;
};

static void read_messages(struct supervision *s, struct sbx_result *res)
{
        struct sbx_msg m;
        int fd;

        while (sbx_sync_recv(s->sync_fd, &m, &fd) == 0) {
                if (m.type == SBX_MSG_STATE_FD && fd >= 0 && m.wstatus >= 0 && m.wstatus < SBX_MAX_STATE &&
                    res->state_fds[m.wstatus] < 0) {
                        res->state_fds[m.wstatus] = fd;
                        continue;
                }
                if (m.type == SBX_MSG_NET_FD && fd >= 0 && s->egress) {
                        sbx_egress_pass(s->egress, &m, fd);
                        continue;
                }
                if (fd >= 0)
                        close(fd);
                switch (m.type) {
                case SBX_MSG_ERROR:
                        if (!s->child_error.errnum)
                                s->child_error = m.err;
                        break;
                case SBX_MSG_WEAKENED:
                        m.text[sizeof(m.text) - 1] = '\0';
                        append(res->weakened, sizeof(res->weakened), "\n", m.text);
                        break;
                case SBX_MSG_EXIT:
                        s->have_exit = true;
                        s->wstatus = m.wstatus;
                        break;
                case SBX_MSG_APPLIED:
                        res->applied |= m.applied & SBX_APPLIED_ALL;
                        break;
                }
        }
}

/* A signal for the jail from whoever supervises this launcher; when that end is gone
 * (sandboxd died), so is the jail. */
static void read_control(struct supervision *s)
{
        int sig = 0;
        ssize_t n = recv(s->control_fd, &sig, sizeof(sig), MSG_DONTWAIT);

        if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR)) {
                sig = SIGKILL;
                s->control_fd = -1; /* poll ignores it from now on; the owner closes it */
        } else if (n != (ssize_t)sizeof(sig) || sig <= 0 || sig >= NSIG) {
                return;
        }
        (void)syscall(SYS_pidfd_send_signal, s->pidfd, sig, NULL, 0);
}

/* Stage 5, launcher side: wait for PID 1, forwarding signals, enforcing the timeout.
 * SIGKILL of PID 1 takes the whole PID namespace with it. */
static void supervise(struct supervision *s, struct sbx_result *res)
{
        for (;;) {
                struct pollfd pfd[5] = {
                        { .fd = s->pidfd, .events = POLLIN },
                        { .fd = s->sigfd, .events = POLLIN },
                        { .fd = s->sync_closed ? -1 : s->sync_fd, .events = POLLIN },
                        { .fd = s->control_fd, .events = POLLIN },
                        { .fd = s->egress && s->egress->audit_fd >= 0 && !s->egress->hung_up ? s->egress->sock : -1,
                          .events = POLLIN },
                };
                int timeout = -1;

                if (s->deadline_ms && !s->timed_out) {
                        uint64_t now = now_ms();
                        timeout = now >= s->deadline_ms ? 0 : (int)(s->deadline_ms - now);
                }
                if (poll(pfd, 5, timeout) < 0 && errno != EINTR)
                        break;
                if (s->deadline_ms && !s->timed_out && now_ms() >= s->deadline_ms) {
                        s->timed_out = true;
                        (void)syscall(SYS_pidfd_send_signal, s->pidfd, SIGKILL, NULL, 0);
                }
                if (pfd[1].revents & POLLIN) {
                        struct signalfd_siginfo si;
                        if (read(s->sigfd, &si, sizeof(si)) == (ssize_t)sizeof(si) && si.ssi_signo != SIGCHLD)
                                (void)syscall(SYS_pidfd_send_signal, s->pidfd, (int)si.ssi_signo, NULL, 0);
                }
                if (pfd[3].revents)
                        read_control(s);
                if (pfd[4].revents) /* POLLHUP alone too: it says so there */
                        sbx_egress_read(s->egress);
                if (s->sync_fd >= 0 && (pfd[2].revents & (POLLIN | POLLHUP)))
                        read_messages(s, res);
                if (pfd[2].revents & POLLHUP)
                        s->sync_closed = true;
                if (pfd[0].revents & POLLIN)
                        break;
        }
        if (s->sync_fd >= 0)
                read_messages(s, res);
}

/* Stage 6: the command's fate as the contract has it. */
static int account(struct supervision *s, const siginfo_t *pid1, struct sbx_result *res, struct sbx_error *e)
{
        res->exit_code = -1;
        if (s->timed_out) {
                res->timed_out = true;
                res->signal = SIGKILL;
                res->status = 124;
                return 0;
        }
        if (s->child_error.errnum) {
                *e = s->child_error;
                if (e->stage == SBX_STAGE_EXEC && strcmp(e->syscall, "execve") == 0) {
                        res->status = e->errnum == ENOENT ? 127 : 126;
                        return 0; /* the command's failure, not sbx's */
                }
                res->status = 125;
                return -e->errnum;
        }
        res->ran = true;
        if (s->have_exit && WIFEXITED(s->wstatus)) {
                res->exit_code = WEXITSTATUS(s->wstatus);
                res->status = res->exit_code;
        } else if (s->have_exit && WIFSIGNALED(s->wstatus)) {
                res->signal = WTERMSIG(s->wstatus);
                res->status = 128 + res->signal;
        } else if (pid1->si_code == CLD_KILLED || pid1->si_code == CLD_DUMPED) {
                /* PID 1 itself was killed (OOM killer, or a SIGKILL from the host). */
                res->signal = pid1->si_status;
                res->status = 128 + res->signal;
        } else {
                res->status = 125;
                return sbx_error_set(e, SBX_STAGE_INIT, EPROTO, "", "", "the jail's PID 1 ended without a status");
        }
        return 0;
}

void sbx_result_init(struct sbx_result *res, int status)
{
        *res = (struct sbx_result){ .status = status, .exit_code = -1 };
        for (size_t i = 0; i < SBX_MAX_STATE; i++)
                res->state_fds[i] = -1;
}

int sbx_jail_run(const struct sbx_plan *p, const struct sbx_seccomp *filter, int audit_fd, struct sbx_result *res,
                 struct sbx_error *e)
{
        return sbx_jail_run_ctl(p, filter, -1, audit_fd, res, e);
}

int sbx_jail_run_ctl(const struct sbx_plan *p, const struct sbx_seccomp *filter, int control_fd, int audit_fd,
                     struct sbx_result *res, struct sbx_error *e)
{
        struct supervision s = { .sync_fd = -1, .pidfd = -1, .sigfd = -1, .control_fd = control_fd };
        struct sbx_egress egress = { .sock = -1 };
        _cleanup_close_ int parent_pidfd = -1;
        struct sbx_cgroup cg = { .clone_fd = -1, .procs_fd = { -1, -1 } };
        struct sbx_nons nons = { .tmpdir = "" };
        int sv[2] = { -1, -1 };
        sigset_t mask, old;
        siginfo_t pid1 = { 0 };
        struct rusage ru = { 0 };
        bool weak_cgroup;
        char weak[192];
        int id_ns = -1;
        uint64_t start;
        pid_t pid;
        int r;

        sbx_result_init(res, 0);

        /* The caller's signals become events, to forward; SIGCHLD too, so the
         * jail's death wakes us up through its pidfd rather than a handler. */
        sigemptyset(&mask);
        for (size_t i = 0; i < ELEMENTSOF(forwarded); i++)
                sigaddset(&mask, forwarded[i]);
        sigaddset(&mask, SIGCHLD);
        sigprocmask(SIG_BLOCK, &mask, &old);
        s.sigfd = signalfd(-1, &mask, SFD_CLOEXEC | SFD_NONBLOCK);
        if (s.sigfd < 0) {
                r = sbx_error_set(e, SBX_STAGE_SUPERVISE, errno, "signalfd", "", "cannot watch signals");
                goto out;
        }
        r = sbx_cgroup_prepare(&cg, p, &weak_cgroup, e);
        if (r < 0)
                goto out;
        if (weak_cgroup)
                append(res->weakened, sizeof(res->weakened), "\n",
                       "cgroup: default memory and pids limits not applied (no cgroup v2 for this caller; --memory/--pids make one)");
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
                r = sbx_error_set(e, SBX_STAGE_CLONE, errno, "socketpair", "", "cannot create the sync socket");
                goto out;
        }
        parent_pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
        if (parent_pidfd < 0) {
                r = sbx_error_set(e, SBX_STAGE_CLONE, errno, "pidfd_open", "", "cannot watch the launcher");
                goto out;
        }

        /* network: filtered's broker, outside the jail before there is one. */
        if (p->net == SBX_NET_FILTERED) {
                if ((r = sbx_egress_spawn(p, audit_fd, &egress, e)) < 0)
                        goto out;
                s.egress = &egress;
        }
        /* Root's command: nobody, and root's files nobody's to it (identity.h). */
        id_ns = sbx_identity_userns(p, weak, sizeof(weak));
        if (weak[0])
                append(res->weakened, sizeof(res->weakened), "\n", weak);
        start = now_ms();
        if (p->no_namespaces) {
                /* The landlock tier: the command forked as it is (jail-landlock.h). */
                if ((r = sbx_nons_prepare(&nons, p, e)) < 0)
                        goto out;
                pid = fork();
                if (pid == 0) {
                        close(sv[0]);
                        sbx_nons_child(p, filter, &cg, &nons, sv[1], parent_pidfd);
                }
                if (pid < 0) {
                        r = sbx_error_set(e, SBX_STAGE_CLONE, errno, "fork", "", "cannot start the command");
                        goto out;
                }
                /* (not reaped before waitid below: the pid cannot be reused meanwhile) */
                s.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
                if (s.pidfd < 0) {
                        r = sbx_error_set(e, SBX_STAGE_CLONE, errno, "pidfd_open", "", "cannot watch the command");
                        kill(pid, SIGKILL);
                        (void)waitpid(pid, NULL, 0);
                        goto out;
                }
        } else {
                pid = clone_jail(p, &cg, &s.pidfd, &res->applied, e);
        }
        if (pid < 0) {
                r = pid;
                goto out;
        }
        if (pid == 0) {
                close(sv[0]);
                jail_child(p, filter, &cg, sv[1], parent_pidfd, id_ns);
        }
        close(sv[1]);
        sv[1] = -1;
        closep(&id_ns);
        if (maps_from_outside(p) && !p->no_namespaces && (r = map_ids_outside(pid, p, sv[0], e)) < 0) {
                kill(pid, SIGKILL);
                (void)waitid(P_PIDFD, (id_t)s.pidfd, &pid1, WEXITED);
                goto out;
        }
        s.sync_fd = sv[0];
        s.deadline_ms = p->limits.timeout_ms ? start + p->limits.timeout_ms : 0;

        supervise(&s, res);
        if (waitid(P_PIDFD, (id_t)s.pidfd, &pid1, WEXITED) < 0) {
                r = sbx_error_set(e, SBX_STAGE_SUPERVISE, errno, "waitid", "", "cannot reap the jail");
                goto out;
        }
        /* The landlock tier: what was waited for is the command itself. */
        if (p->no_namespaces && !s.have_exit) {
                s.have_exit = pid1.si_code == CLD_EXITED || pid1.si_code == CLD_KILLED || pid1.si_code == CLD_DUMPED;
                s.wstatus = pid1.si_code == CLD_EXITED ? W_EXITCODE(pid1.si_status, 0) : pid1.si_status;
        }
        res->wall_ms = now_ms() - start;
        if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
                res->cpu_user_ms = (uint64_t)ru.ru_utime.tv_sec * 1000 + (uint64_t)ru.ru_utime.tv_usec / 1000;
                res->cpu_sys_ms = (uint64_t)ru.ru_stime.tv_sec * 1000 + (uint64_t)ru.ru_stime.tv_usec / 1000;
        }
        sbx_cgroup_stats(&cg, &res->peak_memory, &res->oom_killed);
        if (!res->peak_memory)
                res->peak_memory = (uint64_t)ru.ru_maxrss * 1024; /* largest single process */
        r = account(&s, &pid1, res, e);
out:
        /* Only for a jail that ran, timed out, or whose command could not be run: a
         * failure of sbx's own reports the error, not half a jail. */
        if (r < 0)
                res->applied = 0;
        if (egress.pid > 0)
                sbx_egress_finish(&egress, res->network, sizeof(res->network));
        if (p->no_namespaces) {
                sbx_nons_finish(&nons, weak, sizeof(weak));
                if (weak[0])
                        append(res->weakened, sizeof(res->weakened), "\n", weak);
        }
        closep(&s.pidfd);
        closep(&s.sigfd);
        closep(&id_ns);
        closep(&sv[0]);
        closep(&sv[1]);
        sbx_cgroup_destroy(&cg);
        sigprocmask(SIG_SETMASK, &old, NULL);
        return r;
}
