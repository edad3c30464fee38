/* SPDX-License-Identifier: MIT */
/* Sockets in the jail's network namespace, for network.localhost.publish: the host
 * connects to a port on its own loopback, and the broker relays it to the jail's
 * loopback.  The broker lives in the host's namespace without capabilities, so a
 * small process of its own enters the jail's namespace once (its user namespace
 * first, where the jail has one), gives up every capability, and from then on only
 * answers "a TCP socket of this family" with one, made there.  It is not in the
 * jail's PID namespace: the command can neither see nor signal it. */
#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "cleanup.h"
#include "egress-int.h"
#include "sync.h"

#define FACTORY_MS 1000

_Noreturn static void factory(const struct sbx_plan *p, int sock, int userns, int netns)
{
        if ((userns >= 0 && setns(userns, CLONE_NEWUSER) < 0) || setns(netns, CLONE_NEWNET) < 0 ||
            eg_drop_privileges(userns < 0 ? p : NULL) < 0)
                _exit(1);
        close(userns);
        close(netns);
        for (;;) {
                struct sbx_msg m;
                int s;

                if (recv(sock, &m, sizeof(m), 0) != (ssize_t)sizeof(m))
                        _exit(0); /* the broker is gone */
                if (m.wstatus != AF_INET && m.wstatus != AF_INET6)
                        continue;
                s = socket(m.wstatus, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
                m.type = SBX_MSG_NET_FD;
                m.applied = s < 0 ? (unsigned)errno : 0;
                if (s < 0) {
                        sbx_sync_send(sock, &m);
                        continue;
                }
                sbx_sync_send_fd(sock, &m, s);
                close(s);
        }
}

static int keep_only(int a, int b, int c)
{
        DIR *d = opendir("/proc/self/fd");
        struct dirent *de;

        if (!d)
                return -errno;
        while ((de = readdir(d))) {
                int fd = atoi(de->d_name);

                if (fd > 2 && fd != a && fd != b && fd != c && fd != dirfd(d))
                        close(fd);
        }
        closedir(d);
        return 0;
}

int eg_factory_start(struct eg_broker *b, int userns, int netns)
{
        int sv[2];
        pid_t pid;

        if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
                return -errno;
        pid = fork();
        if (pid < 0) {
                close(sv[0]);
                close(sv[1]);
                return -errno;
        }
        if (pid == 0) {
                if (prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0) < 0)
                        _exit(1);
                /* Nothing of the broker's: its loop, the launcher's socket, the host's
                 * publish listeners.  Only the namespaces and its own socket stay. */
                close(sv[0]);
                if (keep_only(sv[1], userns, netns) < 0)
                        _exit(1);
                factory(b->p, sv[1], userns, netns);
        }
        close(sv[1]);
        b->factory_sock = sv[0];
        b->factory_pid = pid;
        return 0;
}

int eg_factory_socket(struct eg_broker *b, int family)
{
        struct sbx_msg m = { .type = SBX_MSG_NET_FD, .wstatus = family };
        int fd = -1;

        if (b->factory_sock < 0)
                return -ENOTCONN;
        /* A late answer to an earlier request that timed out is not this one's. */
        while (sbx_sync_recv(b->factory_sock, &m, &fd) == 0)
                closep(&fd);
        m = (struct sbx_msg){ .type = SBX_MSG_NET_FD, .wstatus = family };
        if (send(b->factory_sock, &m, sizeof(m), MSG_NOSIGNAL) != (ssize_t)sizeof(m))
                return -errno;
        /* The factory answers at once: the wait is one socket() long. */
        if (poll(&(struct pollfd){ .fd = b->factory_sock, .events = POLLIN }, 1, FACTORY_MS) != 1)
                return -ETIMEDOUT;
        if (sbx_sync_recv(b->factory_sock, &m, &fd) < 0)
                return -EPROTO;
        if (fd < 0)
                return m.applied ? -(int)m.applied : -EIO;
        return fd;
}
