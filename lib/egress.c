/* SPDX-License-Identifier: MIT */
/* The egress broker's process: forked by the launcher before the jail, outside it, in
 * the host's network namespace; it serves the listeners the jail's PID 1 opened
 * (egress-netns.c) on an sd-event loop until the launcher says stop, then sends back
 * the run's summary.  It keeps no capability. */
#include <dirent.h>
#include <errno.h>
#include <stddef.h>
#include <netinet/in.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/capability.h>
#include <grp.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cleanup-cap.h"
#include "cleanup.h"
#include "egress-int.h"
#include "landlock.h"

#define FINISH_MS 2000 /* for the summary, after the jail is gone */

struct listener {
        struct eg_broker *b;
        enum sbx_egress_role role;
        uint16_t port;
        int fd;
};

static int on_listener(sd_event_source *s, int fd, uint32_t revents, void *userdata)
{
        struct listener *l = userdata;

        (void)s;
        (void)revents;
        if (l->role == SBX_EGRESS_DNS_UDP)
                (void)eg_dns_udp(l->b, fd);
        else if (l->role == SBX_EGRESS_DNS_TCP)
                (void)eg_dns_tcp_accept(l->b, fd);
        else
                (void)eg_conn_accept(l->b, fd, l->role, l->port);
        return 0;
}

static void add_listener(struct eg_broker *b, enum sbx_egress_role role, unsigned port, int fd)
{
        struct listener *l = calloc(1, sizeof(*l));

        if (!l || role > SBX_EGRESS_PUBLISH || port > 65535 || sd_event_add_io(b->ev, NULL, fd, EPOLLIN, on_listener, l) < 0) {
                free(l);
                close(fd);
                return;
        }
        *l = (struct listener){ b, role, (uint16_t)port, fd };
}

/* The host side of network.localhost.publish: served only once the broker holds no
 * privilege (a local user may connect there at any time). */
static void serve_publish(struct eg_broker *b)
{
        for (size_t i = 0; i < b->eg->n_publish; i++)
                add_listener(b, SBX_EGRESS_PUBLISH, b->eg->publish[i].port, b->eg->publish[i].fd);
}

/* The jail's namespaces: the publish factory enters them, and then the broker keeps
 * no capability (it kept them only for this). */
static void take_namespace(struct eg_broker *b, enum sbx_egress_role role, int fd)
{
        if (role == SBX_EGRESS_USERNS && b->userns_fd < 0) {
                b->userns_fd = fd;
                return;
        }
        if (role == SBX_EGRESS_NETNS && b->factory_sock < 0)
                (void)eg_factory_start(b, b->userns_fd, fd); /* without it, publish connects fail */
        close(fd);
        closep(&b->userns_fd);
        if (b->privileged && eg_drop_privileges(b->p) < 0)
                _exit(1);
        b->privileged = false;
        serve_publish(b);
}

static int on_control(sd_event_source *s, int sock, uint32_t revents, void *userdata)
{
        struct eg_broker *b = userdata;
        struct sbx_msg m;
        int fd;

        (void)s;
        while (sbx_sync_recv(sock, &m, &fd) == 0) {
                if (m.type == SBX_MSG_NET_FD && fd >= 0 && (m.wstatus == SBX_EGRESS_NETNS || m.wstatus == SBX_EGRESS_USERNS)) {
                        take_namespace(b, (enum sbx_egress_role)m.wstatus, fd);
                        continue;
                }
                if (m.type == SBX_MSG_NET_FD && fd >= 0 && m.wstatus >= 0) {
                        /* Never before the factory: a listener is the jail's input. */
                        if (b->privileged) {
                                close(fd);
                                _exit(1);
                        }
                        add_listener(b, (enum sbx_egress_role)m.wstatus, m.applied, fd);
                        continue;
                }
                if (fd >= 0)
                        close(fd);
                if (m.type == SBX_MSG_EXIT) {
                        eg_conn_close_all(b);
                        b->summary.kind = EG_MSG_SUMMARY;
                        (void)send(sock, &b->summary,
                                   offsetof(struct eg_summary, rows) + b->summary.n_rows * sizeof(b->summary.rows[0]), MSG_NOSIGNAL);
                        return sd_event_exit(b->ev, 0);
                }
        }
        if (revents & (EPOLLHUP | EPOLLERR)) /* the launcher is gone */
                return sd_event_exit(b->ev, 0);
        return 0;
}

/* libsystemd's journal socket: an unbound, unconnected AF_UNIX datagram socket that
 * sd_journal_sendv() opened once in the launcher and keeps reusing (it has no call to
 * open it again); every other fd the launcher held is closed. */
static bool is_journal_socket(int fd)
{
        struct sockaddr_un peer;
        socklen_t len = sizeof(peer);
        int type = 0, domain = 0;
        socklen_t tl = sizeof(type), dl = sizeof(domain);

        return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &tl) == 0 && type == SOCK_DGRAM &&
               getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &dl) == 0 && domain == AF_UNIX &&
               getpeername(fd, (struct sockaddr *)&peer, &len) < 0 && errno == ENOTCONN;
}

static bool kept(int fd, const int *keep, size_t n)
{
        for (size_t i = 0; i < n; i++)
                if (keep[i] == fd)
                        return true;
        return false;
}

static void close_inherited(const int *keep, size_t n)
{
        DIR *d = opendir("/proc/self/fd");
        struct dirent *de;

        if (!d)
                _exit(1); /* no /proc: the launcher's fds could not be told apart */
        while ((de = readdir(d))) {
                int fd = atoi(de->d_name);

                if (fd > 2 && fd != dirfd(d) && !kept(fd, keep, n) && !is_journal_socket(fd))
                        close(fd);
        }
        closedir(d);
}

/* Who a broker root started becomes: sandboxd's caller (p->run_as), so that no two
 * callers' brokers share a uid and localhost.connect reaches the host's loopback as
 * the caller; nobody otherwise.  uid 0 without capabilities still owns /etc/crontab
 * and the like, which a parser bug would hand to the jail. */
static int become_unprivileged(const struct sbx_plan *p)
{
        uid_t uid = SBX_ROOT_INSIDE_ID;
        gid_t gid = SBX_ROOT_INSIDE_ID;
        const gid_t *groups = NULL;
        size_t n_groups = 0;

        if (geteuid() != 0)
                return 0;
        if (p->run_as && p->uid != 0) {
                uid = p->uid;
                gid = p->gid;
                groups = p->groups;
                n_groups = p->n_groups;
        }
        if (setgroups(n_groups, groups) < 0 || setresgid(gid, gid, gid) < 0 || setresuid(uid, uid, uid) < 0)
                /* A container's root without CAP_SETUID has nobody to become; it
                 * still gives up every capability below.  Never sandboxd's broker:
                 * it must become the caller. */
                return p->userns && !p->run_as && errno == EPERM ? 0 : -1;
        return 0;
}

/* No capability in any set, none to regain: what it parses comes from the jail.
 * @p NULL: keep the ids (the factory, inside the jail's user namespace). */
int eg_drop_privileges(const struct sbx_plan *p)
{
        struct rlimit rl = { .rlim_cur = EG_MAX_CONNS * 6 + 64, .rlim_max = EG_MAX_CONNS * 6 + 64 };
        struct rlimit now;
        _cleanup_cap_ cap_t none = cap_init();
        int r = 0;

        /* Room for EG_MAX_CONNS relays (six fds each), while it may still raise it. */
        if (getrlimit(RLIMIT_NOFILE, &now) == 0 && now.rlim_cur < rl.rlim_cur) {
                if (now.rlim_max > rl.rlim_max)
                        rl.rlim_max = now.rlim_max;
                if (setrlimit(RLIMIT_NOFILE, &rl) < 0 && now.rlim_max > now.rlim_cur) {
                        now.rlim_cur = now.rlim_max;
                        (void)setrlimit(RLIMIT_NOFILE, &now);
                }
        }
        for (int c = 0; c <= CAP_LAST_CAP; c++)
                (void)prctl(PR_CAPBSET_DROP, c, 0, 0, 0);
        (void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
        /* Not dumpable before the ids change too: the caller may not trace it. */
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || (p && become_unprivileged(p) < 0))
                r = -1;
        if (!none || cap_set_proc(none) < 0)
                r = -1;
        if (prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
                r = -1;
        /* It runs as its user, on the host: one a parser bug handed to the jail must not
         * have that user's files (~/.ssh, to send out over the host's network) nor run
         * anything.  What it still reads: the resolver's files and the system's. */
        if (p && r == 0) {
                static const char *const readable[] = { "/etc", "/usr", "/run/systemd/resolve", "/run/resolvconf",
                                                        "/dev/urandom", "/dev/null" };
                struct sbx_error e = { 0 };

                if (sbx_landlock_read_only(readable, ELEMENTSOF(readable), &e) < 0)
                        r = -1;
        }
        return r;
}

_Noreturn void sbx_egress_main(const struct sbx_plan *p, int sock, const struct sbx_egress *eg)
{
        struct eg_broker b = { .p = p, .eg = eg, .userns_fd = -1, .factory_sock = -1, .privileged = p->n_net_publish > 0,
                               .report_sock = eg->audit_fd >= 0 ? sock : -1 };
        int keep[1 + SBX_EGRESS_PUBLISH_FDS];
        size_t n_keep = 0;
        sigset_t none;
        int null;

        sigemptyset(&none);
        sigprocmask(SIG_SETMASK, &none, NULL);
        signal(SIGPIPE, SIG_IGN);
        (void)prctl(PR_SET_NAME, "sbx-egress", 0, 0, 0);
        /* The command's input and output are not ours to hold open (a reader waits
         * for EOF); stderr stays, for what a sanitizer or libc says before a crash. */
        if ((null = open("/dev/null", O_RDWR | O_CLOEXEC)) >= 0) {
                dup2(null, STDIN_FILENO);
                dup2(null, STDOUT_FILENO);
        }
        keep[n_keep++] = sock;
        for (size_t i = 0; i < eg->n_publish; i++)
                keep[n_keep++] = eg->publish[i].fd;
        close_inherited(keep, n_keep);
        /* With ports to publish, the capabilities wait for the jail's namespaces
         * (take_namespace), which come before any listener. */
        if (sbx_synth_new(&b.synth) < 0 || sd_event_new(&b.ev) < 0 || eg_resolve_init(&b) < 0 ||
            (!b.privileged && eg_drop_privileges(p) < 0) || sd_event_add_io(b.ev, NULL, sock, EPOLLIN, on_control, &b) < 0)
                _exit(1);
        if (!b.privileged)
                serve_publish(&b);
        (void)sd_event_loop(b.ev);
        _exit(0);
}

/* The host's 127.0.0.1 (and ::1, where the host has it) at @port. */
static int publish_listeners(struct sbx_egress *eg, uint16_t port, struct sbx_error *e)
{
        for (int f = 0; f < 2; f++) {
                struct sockaddr_in in = { .sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
                struct sockaddr_in6 in6 = { .sin6_family = AF_INET6, .sin6_port = htons(port), .sin6_addr = IN6ADDR_LOOPBACK_INIT };
                int one = 1, fd = socket(f ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);

                if (fd < 0)
                        return sbx_error_set(e, SBX_STAGE_NET, errno, "socket", "", "cannot publish port %u", port);
                (void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
                if (f)
                        (void)setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one, sizeof(one));
                if ((f ? bind(fd, (struct sockaddr *)&in6, sizeof(in6)) : bind(fd, (struct sockaddr *)&in, sizeof(in))) < 0 ||
                    listen(fd, 4096) < 0) {
                        int err = errno;

                        close(fd);
                        if (f && (err == EADDRNOTAVAIL || err == EAFNOSUPPORT))
                                continue; /* a host without IPv6 loopback */
                        sbx_error_set(e, SBX_STAGE_NET, err, "bind", "", "cannot publish port %u on the host's %s", port,
                                      f ? "::1" : "127.0.0.1");
                        sbx_error_hint(e, err == EADDRINUSE ? "something on the host listens there already; pick another port in network.localhost.publish"
                                                            : "check network.localhost.publish");
                        return -err;
                }
                eg->publish[eg->n_publish++] = (struct sbx_egress_port){ fd, port };
        }
        return 0;
}

static void close_publish(struct sbx_egress *eg)
{
        for (size_t i = 0; i < eg->n_publish; i++)
                close(eg->publish[i].fd);
        eg->n_publish = 0;
}

int sbx_egress_spawn(const struct sbx_plan *p, int audit_fd, struct sbx_egress *eg, struct sbx_error *e)
{
        pid_t parent = getpid();
        int sv[2], r;

        *eg = (struct sbx_egress){ .sock = -1, .audit_fd = audit_fd, .p = p };
        for (size_t i = 0; i < p->n_net_publish; i++)
                if ((r = publish_listeners(eg, p->net_publish[i], e)) < 0) {
                        close_publish(eg);
                        return r;
                }
        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
                close_publish(eg);
                return sbx_error_set(e, SBX_STAGE_NET, errno, "socketpair", "", "cannot start the egress broker");
        }
        eg->pid = fork();
        if (eg->pid < 0) {
                close(sv[0]);
                close(sv[1]);
                close_publish(eg);
                return sbx_error_set(e, SBX_STAGE_NET, errno, "fork", "", "cannot start the egress broker");
        }
        if (eg->pid == 0) {
                if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0 || getppid() != parent)
                        _exit(1);
                close(sv[0]);
                sbx_egress_main(p, sv[1], eg);
        }
        close(sv[1]);
        close_publish(eg); /* the broker's now */
        eg->sock = sv[0];
        return 0;
}

void sbx_egress_pass(struct sbx_egress *eg, const struct sbx_msg *m, int fd)
{
        sbx_sync_send_fd(eg->sock, m, fd);
        close(fd);
}

/* One message from the broker into @buf; its length as sent (MSG_TRUNC: a longer one
 * than @size reads as malformed), 0 when none is there. */
static size_t next_message(struct sbx_egress *eg, void *buf, size_t size)
{
        ssize_t n = recv(eg->sock, buf, size, MSG_DONTWAIT | MSG_TRUNC);

        return n > 0 ? (size_t)n : 0;
}

static bool is_record(const void *buf, size_t n)
{
        uint32_t kind;

        if (n < sizeof(kind))
                return false;
        memcpy(&kind, buf, sizeof(kind));
        return kind == EG_MSG_RECORD;
}

/* A record to the audit file, within the launcher's own rate: the broker keeps to
 * EG_AUDIT_PER_SEC, one taken over by the jail would not, and the file's disk is the
 * host's. */
static void write_record(struct sbx_egress *eg, const char *msg, size_t n)
{
        uint64_t now = eg_now_ms();

        if (eg->audit_fd < 0)
                return;
        if (now - eg->audit_window_ms >= 1000) {
                eg->audit_window_ms = now;
                eg->audit_in_window = 0;
        }
        if (eg->audit_in_window++ < 2 * EG_AUDIT_PER_SEC)
                (void)eg_record_write(eg->audit_fd, eg->p, msg, n);
}

void sbx_egress_read(struct sbx_egress *eg)
{
        char buf[sizeof(uint32_t) + EG_RECORD_MAX];

        /* A bounded batch: the supervision loop (timeouts, signals) runs between.  A
         * broker that is gone (end of file, an error) is not polled again: its
         * socket's hangup would wake the loop at once, forever. */
        for (int i = 0; i < 64; i++) {
                ssize_t n = recv(eg->sock, buf, sizeof(buf), MSG_DONTWAIT | MSG_TRUNC);

                if (n < 0 && (errno == EAGAIN || errno == EINTR))
                        return;
                if (n <= 0) {
                        eg->hung_up = true;
                        return;
                }
                if (is_record(buf, (size_t)n))
                        write_record(eg, buf, (size_t)n);
        }
}

void sbx_egress_finish(struct sbx_egress *eg, char *summary, size_t size)
{
        struct sbx_msg stop = { .type = SBX_MSG_EXIT };
        struct pollfd pfd = { .fd = eg->sock, .events = POLLIN };
        struct eg_summary rows;
        uint64_t deadline = eg_now_ms() + FINISH_MS;
        size_t n = 0;

        sbx_sync_send(eg->sock, &stop);
        /* The records still on their way, then the summary, its last message. */
        for (;;) {
                uint64_t now = eg_now_ms();

                if (now >= deadline || poll(&pfd, 1, (int)(deadline - now)) != 1 ||
                    (n = next_message(eg, &rows, sizeof(rows))) == 0)
                        break;
                if (!is_record(&rows, n))
                        break;
                write_record(eg, (const char *)&rows, n);
                n = 0;
        }
        eg_summary_json(&rows, n, summary, size);
        (void)kill(eg->pid, SIGKILL); /* relays of a gone jail end with it */
        (void)waitpid(eg->pid, NULL, 0);
        closep(&eg->sock);
        eg->pid = 0;
}
