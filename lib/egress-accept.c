/* SPDX-License-Identifier: MIT */
/* The broker's accept path, for its connections and DNS over TCP alike: the next
 * connection there is room for (EG_MAX_CONNS, the fd limit), and a full fd table
 * drained instead of spinning on a listener that stays readable. */
#include <errno.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "egress-int.h"

#define FDS_PER_CONN 6 /* the client's, the server's, two pipes */
#define FDS_SPARE 64   /* listeners, the loop's, the resolver's, the journal's */

/* The open connections the broker's fd limit has room for, relayed (six fds each),
 * up to EG_MAX_CONNS: past it, a pipe or a socket for the server would fail. */
static size_t conn_max(void)
{
        struct rlimit rl;
        size_t n;

        if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY)
                return EG_MAX_CONNS;
        n = rl.rlim_cur > FDS_SPARE + FDS_PER_CONN ? (size_t)(rl.rlim_cur - FDS_SPARE) / FDS_PER_CONN : 1;
        return n < EG_MAX_CONNS ? n : EG_MAX_CONNS;
}

/* accept4 failed with EMFILE or ENFILE: the connection stays queued and the listener
 * readable, so the loop would call back at once, forever.  A spare fd, taken while
 * there was room (accept_reserve), makes room to take it off the queue and close
 * it (the client sees the close). */
static int spare_fd = -1;

static void accept_reserve(void)
{
        if (spare_fd < 0)
                spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static int accept_overflow(int listener)
{
        int fd;

        if (spare_fd < 0)
                return -EMFILE;
        close(spare_fd);
        fd = accept4(listener, NULL, NULL, SOCK_CLOEXEC);
        if (fd >= 0)
                close(fd);
        spare_fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
        return fd >= 0 ? 0 : -errno;
}

int eg_accept(struct eg_broker *b, int listener)
{
        if (!b->max_conns)
                b->max_conns = conn_max(); /* the limit is raised once, before any listener */
        accept_reserve();
        for (;;) {
                int fd = accept4(listener, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);

                if (fd < 0 && (errno == EMFILE || errno == ENFILE)) {
                        if (accept_overflow(listener) < 0)
                                return -EMFILE;
                        continue;
                }
                if (fd < 0)
                        return -errno;
                if (b->n_conns >= b->max_conns) { /* taken off the queue: the client sees the close */
                        close(fd);
                        continue;
                }
                b->n_conns++;
                return fd;
        }
}
